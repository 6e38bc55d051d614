// Browan Tabs TBHV110 uplink decoder in the style of Browan's published
// codec (lorawan-devices vendor/browan/tbhv110.js): one frame on fPort 103,
// output named as Browan names it, any other port refused. Browan's
// `status` is the first byte's lowest bit.
function decodeUplink(input) {
  if (input.fPort !== 103) {
    return { errors: ['unknown FPort'] };
  }
  var b = input.bytes;
  var flags = b[0];
  return {
    data: {
      status: flags & 0x01,
      tempHumidChanged: (flags >> 4) & 0x01,
      iaqChanged: (flags >> 5) & 0x01,
      battery: (25 + (b[1] & 0x0f)) / 10,
      temperatureBoard: (b[2] & 0x7f) - 32,
      humidity: b[3] & 0x7f,
      eco2: u16(b, 4),
      voc: u16(b, 6),
      iaq: u16(b, 8),
      temperature: (b[10] & 0x7f) - 32,
    },
  };
}

function u16(b, i) {
  return b[i] | (b[i + 1] << 8);
}
