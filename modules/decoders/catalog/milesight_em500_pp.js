// @key milesight_em500_pp
// @name Milesight EM500-PP (pipe pressure)
// @devices EM500-PP
// @source Milesight EM500-PP payload definition (Milesight-IoT SensorDecoders, EM500-PP README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "037b": { len: 2, read: function (b, i, d) { d.pressure_kpa = u16(b, i); } },
};

function decodeUplink(input) {
  return msDecode(input);
}
