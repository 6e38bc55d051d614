// Browan Tabs TBDW100 uplink decoder in the style of Browan's published
// codec (lorawan-devices vendor/browan/tbdw100.js): one frame on fPort 100,
// output named as Browan names it, any other port refused.
function decodeUplink(input) {
  if (input.fPort !== 100) {
    return { errors: ['unknown FPort'] };
  }
  var b = input.bytes;
  return {
    data: {
      status: b[0] & 0x01, // 1: open
      battery: tabsBattery(b[1]),
      temperatureBoard: tabsTemperature(b[2]),
      time: b[3] | (b[4] << 8), // minutes since the last event
      count: b[5] | (b[6] << 8) | (b[7] << 16),
    },
  };
}

function tabsBattery(v) {
  return (25 + (v & 0x0f)) / 10;
}

function tabsTemperature(v) {
  return (v & 0x7f) - 32;
}
