// Adeunis ANALOG uplink decoder in the style of Adeunis' codec library
// (lorawan-devices vendor/adeunis/analog_lib.js, codec-adeunis.com): the
// decoded frame under data.bytes with its type, its status byte (with the
// alarm flags of channels A and B) and each channel's name, unit and value.
// Reduced to the data frame 0x42, which the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  if (bytes[0] !== 0x42) {
    return { errors: ["unsupported frame type"] };
  }
  var status = bytes[1];
  var frame = {
    type: "0x42 Analog data",
    status: {
      frameCounter: (status & 0xe0) >> 5,
      hardwareError: (status & 0x04) !== 0,
      lowBattery: (status & 0x02) !== 0,
      configurationDone: (status & 0x01) !== 0,
      alarmChannelA: (status & 0x08) !== 0,
      alarmChannelB: (status & 0x10) !== 0,
    },
    channels: [],
  };
  var names = ["channel A", "channel B"];
  for (var i = 0; i < 2; i++) {
    var at = 2 + 4 * i;
    var raw = (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
    var type = bytes[at] & 0x0f;
    if (type === 1) {
      frame.channels.push({ name: names[i], unit: "V", value: Math.round(raw / 1000) / 1000 });
    } else if (type === 2) {
      frame.channels.push({ name: names[i], unit: "mA", value: Math.round(raw / 100) / 1000 });
    }
  }
  return { data: { bytes: frame }, warnings: [], errors: [] };
}
