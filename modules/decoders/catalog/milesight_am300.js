// @key milesight_am300
// @name Milesight AM307 / AM308 / AM319 (indoor air quality)
// @devices AM307, AM308, AM319, AM307L, AM319L
// @source Milesight AM300 series (v2) payload definition (Milesight-IoT SensorDecoders, AM300_v2 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  "0468": { len: 1, read: function (b, i, d) { d.humidity = u8(b, i) / 2; } },
  "0500": { len: 1, read: function (b, i, d) { d.pir = u8(b, i) === 1; } },
  "06cb": { len: 1, read: function (b, i, d) { d.light_level = u8(b, i); } },
  "077d": { len: 2, read: function (b, i, d) { d.co2 = u16(b, i); } },
  // tVOC as the sensor's level (0x7D) or as a mass concentration in ug/m3 (0xE6).
  "087d": { len: 2, read: function (b, i, d) { d.tvoc = u16(b, i); } },
  "08e6": { len: 2, read: function (b, i, d) { d.tvoc_ugm3 = u16(b, i); } },
  "0973": { len: 2, read: function (b, i, d) { d.pressure = u16(b, i) / 10; } },
  "0a7d": { len: 2, read: function (b, i, d) { d.hcho = u16(b, i) / 100; } },
  "0b7d": { len: 2, read: function (b, i, d) { d.pm2_5 = u16(b, i); } },
  "0c7d": { len: 2, read: function (b, i, d) { d.pm10 = u16(b, i); } },
  "0d7d": { len: 2, read: function (b, i, d) { d.o3 = u16(b, i) / 100; } },
  "0e01": { len: 1, read: function (b, i, d) { d.beep = u8(b, i) === 1; } },
  // History records are 16 (AM307), 20 (AM308) or 22 bytes (AM319) long;
  // a record is sent on its own, so the bytes left tell the model.
  "20ce": {
    len: function (b, i) { var left = b.length - i; return left === 16 || left === 20 || left === 22 ? left : -1; },
    read: function (b, i, d, len) {
      var h = { timestamp: u32(b, i) };
      h.temperature = i16(b, i + 4) / 10;
      h.humidity = u16(b, i + 6) / 2;
      h.pir = u8(b, i + 8) === 1;
      h.light_level = u8(b, i + 9);
      h.co2 = u16(b, i + 10);
      h.tvoc = u16(b, i + 12);
      h.pressure = u16(b, i + 14) / 10;
      if (len >= 20) { h.pm2_5 = u16(b, i + 16); h.pm10 = u16(b, i + 18); }
      if (len === 22) h.hcho_or_o3 = u16(b, i + 20) / 100;
      (d.history = d.history || []).push(h);
    },
  },
};

function decodeUplink(input) {
  return msDecode(input);
}
