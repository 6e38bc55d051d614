// @key milesight_em300_mcs
// @name Milesight EM300-MCS (magnetic contact)
// @devices EM300-MCS
// @source Milesight EM300-MCS payload definition (Milesight-IoT SensorDecoders, EM300-MCS README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  "0468": { len: 1, read: function (b, i, d) { d.humidity = u8(b, i) / 2; } },
  "0600": { len: 1, read: function (b, i, d) { d.magnet_open = u8(b, i) === 1; } },
  "20ce": { len: 8, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.temperature = i16(b, i + 4) / 10;
    h.humidity = u8(b, i + 6) / 2;
    h.magnet_open = u8(b, i + 7) === 1;
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
