// @key milesight_em500_pt100
// @name Milesight EM500-PT100
// @devices EM500-PT100
// @source Milesight EM500-PT100 payload definition (Milesight-IoT SensorDecoders, EM500-PT100 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  "83d7": { len: 5, read: function (b, i, d) {
    d.temperature = i16(b, i) / 10;
    d.temperature_change = i16(b, i + 2) / 10;
    d.temperature_alarm = ["threshold alarm", "threshold alarm release", "mutation alarm"][u8(b, i + 4)] || "unknown";
  } },
  "20ce": { len: 6, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.temperature = i16(b, i + 4) / 10;
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
