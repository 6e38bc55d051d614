// @key browan_tbms100
// @name Browan Tabs TBMS100 (PIR motion)
// @devices TBMS100
// @source Browan Tabs Motion Sensor TBMS100 LoRaWAN payload description (fPort 102), as published with the vendor's codec in TheThingsNetwork/lorawan-devices
//
// fPort 102: status(1: bit 0 occupied) battery(1: bits 3..0, (25 + v) / 10 V)
// board temperature(1: bits 6..0, v - 32 °C) minutes since the last event
// (2, little endian) event count(3, little endian).

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 102) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 8) return { data: d, errors: ["payload is " + b.length + " bytes, want 8"] };
  d.occupied = (b[0] & 0x01) !== 0;
  d.battery_voltage = (25 + (b[1] & 0x0f)) / 10;
  d.temperature = (b[2] & 0x7f) - 32;
  d.time_since_last_event_min = b[3] | (b[4] << 8);
  d.event_count = b[5] | (b[6] << 8) | (b[7] << 16);
  return { data: d };
}
