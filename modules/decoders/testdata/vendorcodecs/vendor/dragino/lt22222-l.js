// Dragino LT-22222-L uplink decoder in the style of Dragino's codec
// (lorawan-devices vendor/dragino/lt22222-l.js): the reading on fPort 2 in
// work mode 1 (2ACI+2AVI), of either hardware (LT-22222 or LT-33222), named
// as Dragino names it. Reduced to what the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  var hardware = (bytes[10] & 0xc0) >> 6;
  var mode = bytes[10] & 0x3f;
  var data = {};
  switch (input.fPort) {
    case 2:
      if (hardware === 0) {
        data.Hardware_mode = "LT33222";
        data.DO3_status = bytes[8] & 0x04 ? "L" : "H";
        if (bytes[10] === 1) data.DI3_status = bytes[8] & 0x20 ? "H" : "L";
      } else if (hardware === 1) {
        data.Hardware_mode = "LT22222";
      }
      data.DO1_status = bytes[8] & 0x01 ? "L" : "H";
      data.DO2_status = bytes[8] & 0x02 ? "L" : "H";
      data.RO1_status = bytes[8] & 0x80 ? "ON" : "OFF";
      data.RO2_status = bytes[8] & 0x40 ? "ON" : "OFF";
      if (mode === 1) {
        data.Work_mode = "2ACI+2AVI";
        data.AVI1_V = (((bytes[0] << 24) >> 16) | bytes[1]) / 1000;
        data.AVI2_V = (((bytes[2] << 24) >> 16) | bytes[3]) / 1000;
        data.ACI1_mA = (((bytes[4] << 24) >> 16) | bytes[5]) / 1000;
        data.ACI2_mA = (((bytes[6] << 24) >> 16) | bytes[7]) / 1000;
        data.DI1_status = bytes[8] & 0x08 ? "H" : "L";
        data.DI2_status = bytes[8] & 0x10 ? "H" : "L";
      }
      return { data: data };
    default:
      return { errors: ["unknown FPort"] };
  }
}
