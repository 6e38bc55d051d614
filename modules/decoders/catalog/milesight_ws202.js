// @key milesight_ws202
// @name Milesight WS202 (PIR and light)
// @devices WS202
// @source Milesight WS202 payload definition (Milesight-IoT SensorDecoders, WS202 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0300": { len: 1, read: function (b, i, d) { d.pir = u8(b, i) === 1; } },
  "0400": { len: 1, read: function (b, i, d) { d.daylight = u8(b, i) === 1; } },
};

function decodeUplink(input) {
  return msDecode(input);
}
