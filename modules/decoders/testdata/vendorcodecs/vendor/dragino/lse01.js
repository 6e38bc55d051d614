// Dragino LSE01 uplink decoder in the style of Dragino's codec
// (lorawan-devices vendor/dragino/lse01.js): the reading on fPort 2, named
// as Dragino names it, the temperatures and the moisture as fixed-point
// texts as Dragino gives them. Reduced to what the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  switch (input.fPort) {
    case 2:
      return {
        data: {
          Bat: (((bytes[0] << 8) | bytes[1]) & 0x3fff) / 1000,
          TempC_DS18B20: ((((bytes[2] << 24) >> 16) | bytes[3]) / 10).toFixed(1),
          water_SOIL: (((bytes[4] << 8) | bytes[5]) / 100).toFixed(2),
          temp_SOIL: ((((bytes[6] << 24) >> 16) | bytes[7]) / 100).toFixed(2),
          conduct_SOIL: (bytes[8] << 8) | bytes[9],
        },
      };
    default:
      return { errors: ["unknown FPort"] };
  }
}
