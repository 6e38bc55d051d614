// Adeunis PULSE uplink decoder in the style of Adeunis' codec library
// (lorawan-devices vendor/adeunis/pulse_lib.js, codec-adeunis.com): the
// decoded frame under data.bytes with its type, its status byte, the
// device's time (seconds since 2013-01-01, printed without a zone) and the
// counter values, newest first (a 32-bit counter, then 16-bit differences
// to each older one). Reduced to the frame 0x5a of channel A with a
// timestamp, which the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  if (bytes[0] !== 0x5a) {
    return { errors: ["unsupported frame type"] };
  }
  var status = bytes[1];
  var stamped = (status & 0x04) !== 0;
  var frame = {
    type: "0x5a Pulse 4 data - channel A",
    status: {
      frameCounter: (status & 0xe0) >> 5,
      // bit 2 is the timestamp flag on this frame; Adeunis' codec gives
      // no hardware error for it
      hardwareError: false,
      lowBattery: (status & 0x02) !== 0,
      configurationDone: (status & 0x01) !== 0,
      timestamp: stamped,
    },
  };
  var end = stamped ? bytes.length - 4 : bytes.length;
  if (stamped) {
    var secs = ((bytes[end] << 24) | (bytes[end + 1] << 16) | (bytes[end + 2] << 8) | bytes[end + 3]) >>> 0;
    frame.timestamp = new Date((secs + 1356998400) * 1000).toISOString().slice(0, -1);
  }
  frame.decodingInfo = "counterValues: [t=0, t-1, t-2, ...]";
  var value = ((bytes[2] << 24) | (bytes[3] << 16) | (bytes[4] << 8) | bytes[5]) >>> 0;
  frame.counterValues = [value];
  for (var i = 6; i + 2 <= end; i += 2) {
    value -= (bytes[i] << 8) | bytes[i + 1];
    frame.counterValues.push(value);
  }
  return { data: { bytes: frame }, warnings: [], errors: [] };
}
