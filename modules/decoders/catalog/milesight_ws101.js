// @key milesight_ws101
// @name Milesight WS101 (smart button)
// @devices WS101
// @source Milesight WS101 payload definition (Milesight-IoT SensorDecoders, WS101 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "ff2e": { len: 1, read: function (b, i, d) { d.press = { 1: "short", 2: "long", 3: "double" }[u8(b, i)] || "unknown"; } },
};

function decodeUplink(input) {
  return msDecode(input);
}
