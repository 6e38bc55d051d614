// Dragino LDS02 uplink decoder in the style of Dragino's codec
// (lorawan-devices vendor/dragino/lds02.js): the 10-byte frame of fPort 10,
// read byte by byte without a length check, as Dragino's does (a byte past
// the end reads as 0).
function decodeUplink(input) {
  switch (input.fPort) {
    case 10:
      var bytes = input.bytes;
      var value = (bytes[0] << 8) | bytes[1];
      return {
        data: {
          BAT_V: (value & 0x3fff) / 1000,
          DOOR_OPEN_STATUS: bytes[0] & 0x80 ? 1 : 0,
          MOD: bytes[2],
          DOOR_OPEN_TIMES: (bytes[3] << 16) | (bytes[4] << 8) | bytes[5],
          LAST_DOOR_OPEN_DURATION: (bytes[6] << 16) | (bytes[7] << 8) | bytes[8],
          ALARM: bytes[9] & 0x01,
        },
      };
    default:
      return { errors: ["unknown FPort"] };
  }
}
