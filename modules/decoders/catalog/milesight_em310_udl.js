// @key milesight_em310_udl
// @name Milesight EM310-UDL (ultrasonic distance)
// @devices EM310-UDL
// @source Milesight EM310-UDL payload definition (Milesight-IoT SensorDecoders, EM310-UDL README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0382": { len: 2, read: function (b, i, d) { d.distance_mm = u16(b, i); } },
  "0400": { len: 1, read: function (b, i, d) { d.tilt = u8(b, i) === 1; } },
};

function decodeUplink(input) {
  return msDecode(input);
}
