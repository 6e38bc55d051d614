// @key milesight_am300_v1
// @name Milesight AM307 / AM319 (indoor air quality, first firmware)
// @devices AM307, AM319 (firmware before v2)
// @source Milesight AM300 series payload definition (Milesight-IoT SensorDecoders, AM_Series/AM300_Series README and AM300_TTN.js), https://github.com/Milesight-IoT/SensorDecoders; Milesight's codec TheThingsNetwork/lorawan-devices vendor/milesight-iot/am319.js
// @include milesight
// @include milesight_am300
//
// The frames of milesight_am300, with the tVOC level (0x08 0x7D) sent as a whole
// number: tvoc is that level unscaled (37 for 0x0025), as the first firmware's
// decoder reads it. Devices on firmware v2 send hundredths: use milesight_am300.
// Units: battery %, temperature °C, humidity %RH, pressure hPa, hcho mg/m3,
// o3 ppm, pm µg/m3, tvoc_ugm3 ug/m3.

var CHANNELS = amChannels(1);

function decodeUplink(input) {
  return msDecode(input);
}
