// @key milesight_em500_udl
// @name Milesight EM500-UDL (ultrasonic distance)
// @devices EM500-UDL
// @source Milesight EM500-UDL payload definition (Milesight-IoT SensorDecoders, EM500-UDL README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0382": { len: 2, read: function (b, i, d) { d.distance_mm = u16(b, i); } },
  "20ce": { len: 6, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.distance_mm = u16(b, i + 4);
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
