// Dragino LHT65 uplink decoder in the style of Dragino's codec
// (lorawan-devices vendor/dragino/lht65.js): the reading on fPort 2 with
// the external temperature probe, named as Dragino names it. Reduced to
// what the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  switch (input.fPort) {
    case 2:
      var data = {
        BatV: (((bytes[0] << 8) | bytes[1]) & 0x3fff) / 1000,
        Bat_status: bytes[0] >> 6,
        TempC_SHT: parseFloat((((bytes[2] << 24) >> 16 | bytes[3]) / 100).toFixed(2)),
        Hum_SHT: parseFloat((((bytes[4] << 8) | bytes[5]) / 10).toFixed(1)),
      };
      if ((bytes[6] & 0x7f) === 0x01) {
        data.Ext_sensor = "Temperature Sensor";
        data.TempC_DS = parseFloat((((bytes[7] << 24) >> 16 | bytes[8]) / 100).toFixed(2));
      }
      return { data: data };
    default:
      return { errors: ["unknown FPort"] };
  }
}
