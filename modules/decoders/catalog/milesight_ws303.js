// @key milesight_ws303
// @name Milesight WS303 (mini leak sensor)
// @devices WS303
// @source Milesight WS303 payload definition (Milesight-IoT SensorDecoders, WS303 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0300": { len: 1, read: function (b, i, d) { d.leak = u8(b, i) === 1; } },
};

function decodeUplink(input) {
  return msDecode(input);
}
