// Adeunis TEMP 4 uplink decoder in the style of Adeunis' codec library
// (lorawan-devices vendor/adeunis/temp_lib.js, codec-adeunis.com): the
// decoded frame under data.bytes with its type, its status byte, the
// device's time (seconds since 2013-01-01, printed without a zone) and each
// probe's name, unit and values (0.1 °C, newest first, the two channels
// interleaved when both are on). Reduced to the periodic data frame 0x57,
// which the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  if (bytes[0] !== 0x57) {
    return { errors: ["unsupported frame type"] };
  }
  var status = bytes[1];
  var stamped = (status & 0x04) !== 0;
  var two = (status & 0x10) !== 0;
  var frame = {
    type: "0x57 Temp 4 periodic data",
    status: {
      frameCounter: (status & 0xe0) >> 5,
      // bit 2 is the timestamp flag on this frame; Adeunis' codec gives
      // no hardware error for it
      hardwareError: false,
      lowBattery: (status & 0x02) !== 0,
      configurationDone: (status & 0x01) !== 0,
      configurationInconsistency: (status & 0x08) !== 0,
      configuration2ChannelsActivated: two,
      timestamp: stamped,
    },
  };
  var end = stamped ? bytes.length - 4 : bytes.length;
  if (stamped) {
    var secs = ((bytes[end] << 24) | (bytes[end + 1] << 16) | (bytes[end + 2] << 8) | bytes[end + 3]) >>> 0;
    frame.timestamp = new Date((secs + 1356998400) * 1000).toISOString().slice(0, -1);
  }
  frame.decodingInfo = "values: [t=0, t-1, t-2, ...]";
  var channels = [{ name: "temperature 1", unit: "\u00b0C", values: [] }];
  if (two) channels.push({ name: "temperature 2", unit: "\u00b0C", values: [] });
  var k = 0;
  for (var i = 2; i + 2 <= end; i += 2) {
    var t = (bytes[i] << 8) | bytes[i + 1];
    if (t > 0x7fff) t -= 0x10000;
    channels[k % channels.length].values.push(t / 10);
    k++;
  }
  frame.temperatures = channels;
  return { data: { bytes: frame }, warnings: [], errors: [] };
}
