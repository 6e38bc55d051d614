// @key milesight_em500_smtc
// @name Milesight EM500-SMTC (soil moisture, temperature, EC)
// @devices EM500-SMTC
// @source Milesight EM500-SMTC payload definition (Milesight-IoT SensorDecoders, EM500-SMTC README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  // Moisture in %: older firmware sends half percent steps, newer 0.01 %.
  "0468": { len: 1, read: function (b, i, d) { d.moisture = u8(b, i) / 2; } },
  "04ca": { len: 2, read: function (b, i, d) { d.moisture = u16(b, i) / 100; } },
  "057f": { len: 2, read: function (b, i, d) { d.ec = u16(b, i); } },
  "83d7": { len: 5, read: function (b, i, d) {
    d.temperature = i16(b, i) / 10;
    d.temperature_change = i16(b, i + 2) / 10;
    d.temperature_alarm = ["threshold alarm", "threshold alarm release", "mutation alarm"][u8(b, i + 4)] || "unknown";
  } },
  "20ce": { len: 10, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.ec = u16(b, i + 4);
    h.temperature = i16(b, i + 6) / 10;
    h.moisture = u16(b, i + 8) / 100;
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
