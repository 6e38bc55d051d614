// @key milesight_em500_co2
// @name Milesight EM500-CO2
// @devices EM500-CO2
// @source Milesight EM500-CO2 payload definition (Milesight-IoT SensorDecoders, EM500-CO2 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  "0468": { len: 1, read: function (b, i, d) { d.humidity = u8(b, i) / 2; } },
  "057d": { len: 2, read: function (b, i, d) { d.co2 = u16(b, i); } },
  "0673": { len: 2, read: function (b, i, d) { d.pressure = u16(b, i) / 10; } },
  "83d7": { len: 5, read: function (b, i, d) {
    d.temperature = i16(b, i) / 10;
    d.temperature_change = i16(b, i + 2) / 10;
    d.temperature_alarm = ["threshold alarm", "threshold alarm release", "mutation alarm"][u8(b, i + 4)] || "unknown";
  } },
  "20ce": { len: 11, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.co2 = u16(b, i + 4);
    h.pressure = u16(b, i + 6) / 10;
    h.temperature = i16(b, i + 8) / 10;
    h.humidity = u8(b, i + 10) / 2;
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
