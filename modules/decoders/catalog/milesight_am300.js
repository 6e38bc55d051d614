// @key milesight_am300
// @name Milesight AM307 / AM308 / AM319 (indoor air quality, firmware v2)
// @devices AM307(v2), AM308(v2), AM319(v2), AM307L, AM308L, AM319L
// @source Milesight AM300 series (v2) payload definition (Milesight-IoT SensorDecoders, AM_Series/AM300_v2 README) and Milesight's decoders AM307_v2_Decoder.js, AM308_v2_Decoder.js, AM319_hcho_v2_Decoder.js, AM319_o3_v2_Decoder.js, https://github.com/Milesight-IoT/SensorDecoders; examples from TheThingsNetwork/lorawan-devices vendor/milesight-iot/am308-codec.yaml
// @include milesight
// @include milesight_am300
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa, hcho mg/m3, o3 ppm, pm µg/m3. The tVOC level
// (0x08 0x7D) comes in hundredths: tvoc is that level (an IAQ index, 0.07 for
// 0x0007); tvoc_ugm3 is tVOC in ug/m3 (0x08 0xE6). History records: 0x20 0xCE
// with the tVOC level, 0x21 0xCE with tVOC in ug/m3. Devices on the first
// firmware send the level as a whole number: use milesight_am300_v1.

var CHANNELS = amChannels(100);

function decodeUplink(input) {
  return msDecode(input);
}
