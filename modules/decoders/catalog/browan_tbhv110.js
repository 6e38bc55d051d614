// @key browan_tbhv110
// @name Browan Tabs TBHV110 (indoor air quality)
// @devices TBHV110
// @source Browan Tabs Healthy Home IAQ Sensor TBHV110 LoRaWAN payload description (fPort 103), as published with the vendor's codec in TheThingsNetwork/lorawan-devices
//
// fPort 103: status(1: bit 4 temperature/humidity changed, bit 5 IAQ changed)
// battery(1) board temperature(1) humidity(1) eCO2 ppm(2) VOC ppm(2) IAQ(2)
// temperature(1); 16-bit values little endian.

function u16le(b, i) { return b[i] | (b[i + 1] << 8); }

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 103) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 11) return { data: d, errors: ["payload is " + b.length + " bytes, want 11"] };
  d.temperature_humidity_changed = (b[0] & 0x10) !== 0;
  d.iaq_changed = (b[0] & 0x20) !== 0;
  d.battery_voltage = (25 + (b[1] & 0x0f)) / 10;
  d.board_temperature = (b[2] & 0x7f) - 32;
  d.humidity = b[3] & 0x7f;
  d.eco2 = u16le(b, 4);
  d.voc = u16le(b, 6);
  d.iaq = u16le(b, 8);
  d.temperature = (b[10] & 0x7f) - 32;
  return { data: d };
}
