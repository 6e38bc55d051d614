// @key dragino_lse01
// @name Dragino LSE01 (soil moisture & EC)
// @devices LSE01
// @source Dragino LSE01 LoRaWAN Soil Moisture & EC Sensor User Manual (wiki.dragino.com), section 2.3 "Uplink Payload"
//
// fPort 2, big endian: BAT(2) DS18B20 temperature(2) soil moisture(2)
// soil temperature(2) soil conductivity(2) digital interrupt(1).

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 2) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 10) return { data: d, errors: ["payload is " + b.length + " bytes, want 11"] };
  d.battery_voltage = (u16(b, 0) & 0x3fff) / 1000;
  // Optional DS18B20 probe; 0x7FFF when none is fitted.
  if (u16(b, 2) !== 0x7fff) d.temperature = i16(b, 2) / 10;
  d.soil_moisture = u16(b, 4) / 100;
  d.soil_temperature = i16(b, 6) / 100;
  d.soil_conductivity = u16(b, 8);
  if (b.length > 10) d.interrupt = (b[10] & 0x01) !== 0;
  return { data: d };
}
