// Dragino SW3L uplink decoder in the style of Dragino's codec
// (lorawan-devices vendor/dragino/sw3l.js), reduced to the configuration
// the device sends on fPort 4 when asked for it.
function decodeUplink(input) {
  switch (input.fPort) {
    case 4:
      var bytes = input.bytes;
      return {
        data: {
          TDC: (bytes[0] << 16) | (bytes[1] << 8) | bytes[2],
          Stop_Timer: bytes[4],
          Alarm_Timer: (bytes[5] << 8) | bytes[6],
        },
      };
    default:
      return { errors: ["unknown FPort"] };
  }
}
