// @key milesight_ws301
// @name Milesight WS301 (door / window)
// @devices WS301
// @source Milesight WS301 payload definition (Milesight-IoT SensorDecoders, WS301 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0300": { len: 1, read: function (b, i, d) { d.open = u8(b, i) === 1; } },
  // 1 means the sensor was taken off its mounting.
  "0400": { len: 1, read: function (b, i, d) { d.installed = u8(b, i) !== 1; } },
};

function decodeUplink(input) {
  return msDecode(input);
}
