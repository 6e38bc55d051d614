// @key browan_tbdw100
// @name Browan Tabs TBDW100 (door / window)
// @devices TBDW100
// @source Browan Tabs Door & Window Sensor TBDW100 LoRaWAN payload description (fPort 100), as published with the vendor's codec in TheThingsNetwork/lorawan-devices
//
// fPort 100: status(1: bit 0 open) battery(1: bits 3..0, (25 + v) / 10 V)
// board temperature(1: bits 6..0, v - 32 °C) minutes since the last event
// (2, little endian) open count(3, little endian).

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 100) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 8) return { data: d, errors: ["payload is " + b.length + " bytes, want 8"] };
  d.open = (b[0] & 0x01) !== 0;
  d.battery_voltage = (25 + (b[1] & 0x0f)) / 10;
  d.temperature = (b[2] & 0x7f) - 32;
  d.time_since_last_event_min = b[3] | (b[4] << 8);
  d.open_count = b[5] | (b[6] << 8) | (b[7] << 16);
  return { data: d };
}
