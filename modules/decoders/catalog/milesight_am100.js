// @key milesight_am100
// @name Milesight AM100 series (AM102 / AM103 / AM104 / AM107)
// @devices AM102, AM102L, AM103, AM103L, AM104, AM107
// @source Milesight AM100 series payload definition (Milesight-IoT SensorDecoders, AM100_Series README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  "0468": { len: 1, read: function (b, i, d) { d.humidity = u8(b, i) / 2; } },
  "056a": { len: 2, read: function (b, i, d) { d.activity = u16(b, i); } },
  "0665": { len: 6, read: function (b, i, d) {
    d.illumination = u16(b, i);
    d.infrared_and_visible = u16(b, i + 2);
    d.infrared = u16(b, i + 4);
  } },
  "077d": { len: 2, read: function (b, i, d) { d.co2 = u16(b, i); } },
  "087d": { len: 2, read: function (b, i, d) { d.tvoc = u16(b, i); } },
  "0973": { len: 2, read: function (b, i, d) { d.pressure = u16(b, i) / 10; } },
};

function decodeUplink(input) {
  return msDecode(input);
}
