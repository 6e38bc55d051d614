// @key milesight_em320_th
// @name Milesight EM320-TH
// @devices EM320-TH
// @source Milesight EM320-TH payload definition (Milesight-IoT SensorDecoders, EM320-TH README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  "0468": { len: 1, read: function (b, i, d) { d.humidity = u8(b, i) / 2; } },
  "20ce": { len: 7, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.temperature = i16(b, i + 4) / 10;
    h.humidity = u8(b, i + 6) / 2;
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
