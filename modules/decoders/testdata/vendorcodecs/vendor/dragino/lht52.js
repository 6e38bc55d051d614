// Dragino LHT52 uplink decoder in the style of Dragino's codec
// (lorawan-devices vendor/dragino/lht52.js): the device status on fPort 5
// and the reading on fPort 2, named as Dragino names them. Reduced to what
// the examples use.
function decodeUplink(input) {
  var bytes = input.bytes;
  switch (input.fPort) {
    case 2:
      return {
        data: {
          TempC_SHT: parseFloat((((bytes[0] << 24) >> 16 | bytes[1]) / 100).toFixed(2)),
          Hum_SHT: parseFloat((((bytes[2] << 8) | bytes[3]) / 10).toFixed(1)),
          TempC_DS: parseFloat((((bytes[4] << 24) >> 16 | bytes[5]) / 100).toFixed(2)),
          Ext: bytes[6],
          Systimestamp: ((bytes[7] << 24) | (bytes[8] << 16) | (bytes[9] << 8) | bytes[10]) >>> 0,
        },
      };
    case 5:
      return {
        data: {
          Sensor_Model: bytes[0],
          Firmware_Version: ((bytes[1] << 8) | bytes[2]).toString(16),
          Freq_Band: bytes[3],
          Sub_Band: bytes[4],
          Bat_mV: (bytes[5] << 8) | bytes[6],
        },
      };
    default:
      return { errors: ["unknown FPort"] };
  }
}
