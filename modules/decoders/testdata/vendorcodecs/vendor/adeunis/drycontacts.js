// Adeunis DRY CONTACTS uplink decoder in the style of Adeunis' codec
// library (lorawan-devices vendor/adeunis/drycontacts_lib.js,
// codec-adeunis.com): the decoded frame under data.bytes with its type, its
// status byte and, per channel, the counter and the current and previous
// states. Reduced to the data frame 0x40, which the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  if (bytes[0] !== 0x40) {
    return { errors: ["unsupported frame type"] };
  }
  var status = bytes[1];
  var frame = {
    type: "0x40 Dry Contacts 2 data",
    status: {
      frameCounter: (status & 0xe0) >> 5,
      // bit 2 is the timestamp flag on this frame; Adeunis' codec gives
      // no hardware error for it
      hardwareError: false,
      lowBattery: (status & 0x02) !== 0,
      configurationDone: (status & 0x01) !== 0,
      timestamp: (status & 0x04) !== 0,
    },
    decodingInfo: "true: ON/CLOSED, false: OFF/OPEN",
  };
  var states = bytes[10];
  var letters = ["A", "B", "C", "D"];
  for (var i = 0; i < 4; i++) {
    frame["channel" + letters[i]] = {
      value: (bytes[2 + 2 * i] << 8) | bytes[3 + 2 * i],
      currentState: ((states >> (2 * i)) & 0x01) !== 0,
      previousFrameState: ((states >> (2 * i + 1)) & 0x01) !== 0,
    };
  }
  return { data: { bytes: frame }, warnings: [], errors: [] };
}
