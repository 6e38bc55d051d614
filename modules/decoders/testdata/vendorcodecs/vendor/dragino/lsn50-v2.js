// Dragino LSN50-V2 uplink decoder in the style of Dragino's codec
// (lorawan-devices vendor/dragino/lsn50-v2.js): the reading on fPort 2 in
// work mode 1 (IIC), named as Dragino names it. Reduced to what the example
// uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  switch (input.fPort) {
    case 2:
      var mode = (bytes[6] & 0x7c) >> 2;
      var data = {
        BatV: ((bytes[0] << 8) | bytes[1]) / 1000,
        TempC1: parseFloat((((bytes[2] << 24) >> 16 | bytes[3]) / 10).toFixed(1)),
        ADC_CH0V: ((bytes[4] << 8) | bytes[5]) / 1000,
        Digital_IStatus: bytes[6] & 0x02 ? "H" : "L",
        EXTI_Trigger: bytes[6] & 0x01 ? "TRUE" : "FALSE",
        Door_status: bytes[6] & 0x80 ? "CLOSE" : "OPEN",
      };
      if (mode === 0) {
        data.Work_mode = "IIC";
        data.TempC_SHT = parseFloat((((bytes[7] << 24) >> 16 | bytes[8]) / 10).toFixed(1));
        data.Hum_SHT = parseFloat((((bytes[9] << 8) | bytes[10]) / 10).toFixed(1));
      }
      return { data: data };
    default:
      return { errors: ["unknown FPort"] };
  }
}
