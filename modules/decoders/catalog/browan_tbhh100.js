// @key browan_tbhh100
// @name Browan Tabs TBHH100 (temperature & humidity)
// @devices TBHH100
// @source Browan Tabs Healthy Home Sensor TBHH100 LoRaWAN payload description (fPort 103), as published with the vendor's codec in TheThingsNetwork/lorawan-devices
//
// fPort 103: status(1) battery(1: bits 3..0, (25 + v) / 10 V) temperature
// (1: bits 6..0, v - 32 °C) humidity(1: bits 6..0, %RH).

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 103) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 4) return { data: d, errors: ["payload is " + b.length + " bytes, want at least 4"] };
  d.battery_voltage = (25 + (b[1] & 0x0f)) / 10;
  d.temperature = (b[2] & 0x7f) - 32;
  d.humidity = b[3] & 0x7f;
  return { data: d };
}
