// @key milesight_em500_lgt
// @name Milesight EM500-LGT (light)
// @devices EM500-LGT
// @source Milesight EM500-LGT payload definition (Milesight-IoT SensorDecoders, EM500-LGT README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0394": { len: 4, read: function (b, i, d) { d.illumination = u32(b, i); } },
  "20ce": { len: 8, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.illumination = u32(b, i + 4);
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
