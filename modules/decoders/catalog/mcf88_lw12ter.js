// @key mcf88_lw12ter
// @name MCF88 MCF-LW12TER / LW12TERWP (temperature, humidity, pressure)
// @devices MCF-LW12TER, MCF-LW12TERWP
// @source MCF88 LoRaWAN payload description for the environmental sensors (uplink ids 0x04, 0x0B, 0x0C, 0x0E, 0x12, 0x13; little-endian fields, packed date) as implemented by MCF88's own decoder (decoder-environmental.js in TheThingsNetwork/lorawan-devices vendor/mcf88), https://www.mcf88.it
// @include mcf88
//
// Byte 0 is the uplink id. Measurements are little endian: packed date (4 bytes), temperature
// (signed, 0.01 °C), humidity (0.5 %RH), pressure (3 bytes, 0.01 hPa), then by id light (lux), VOC
// (IAQ / ppb; 2 bytes in the older firmware's ids 0x0C/0x0E, 3 bytes in 0x12/0x13) and CO2 (ppm,
// signed). TER uplinks (0x04) carry three measurements, VOC and CO2 uplinks two, then the battery
// (%). Output: measurements (a list, oldest first as sent), the newest measurement's values at the
// top level (time, temperature, humidity, pressure, light, voc, co2), battery (%), uplink_id.
// 0x0B TERPM (kind 3, subtype 0): one measurement with pm1, pm2_5, pm10 (µg/m³) and the battery;
// 0x0B PM (kind 2, subtype 1): time, pm1, pm2_5, pm10.
// This key accepts only the uplink ids of its devices; the mcf88 key accepts them all.

var MCF_ACCEPT = [0x04];

function decodeUplink(input) {
  return mcfDecode(input);
}
