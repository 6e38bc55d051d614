// Milesight AM307 / AM308 / AM319 channels, shared by milesight_am300 (firmware v2) and
// milesight_am300_v1 (first firmware) (// @include milesight, then // @include milesight_am300).
// The two generations send the same frames and differ in one value only: the tVOC level of
// channel 0x08 type 0x7D (and of the 0x20 0xCE history record), which v2 sends in hundredths
// (Milesight's AM307_v2/AM308_v2/AM319_v2 decoders divide it by 100) and v1 as a whole number
// (Milesight's AM300 series decoder, TTN vendor/milesight-iot/am319.js). The frame does not tell
// the generation, so the codec says it: amChannels(levelDivisor).

function amChannels(levelDivisor) {
  function level(b, i) { return u16(b, i) / levelDivisor; }
  // History record: 16 (AM307), 20 (AM308) or 22 bytes (AM319), sent on its own, so the
  // bytes left tell the model. tvocKey names the tVOC value: a level (0x20) or ug/m3 (0x21).
  function history(tvocKey, tvocRead) {
    return {
      len: function (b, i) { var left = b.length - i; return left === 16 || left === 20 || left === 22 ? left : -1; },
      read: function (b, i, d, len) {
        var h = { timestamp: u32(b, i) };
        h.temperature = i16(b, i + 4) / 10;
        h.humidity = u16(b, i + 6) / 2;
        h.pir = u8(b, i + 8) === 1;
        h.light_level = u8(b, i + 9);
        h.co2 = u16(b, i + 10);
        h[tvocKey] = tvocRead(b, i + 12);
        h.pressure = u16(b, i + 14) / 10;
        if (len >= 20) { h.pm2_5 = u16(b, i + 16); h.pm10 = u16(b, i + 18); }
        if (len === 22) h.hcho_or_o3 = u16(b, i + 20) / 100;
        (d.history = d.history || []).push(h);
      },
    };
  }
  return {
    "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
    "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
    "0468": { len: 1, read: function (b, i, d) { d.humidity = u8(b, i) / 2; } },
    "0500": { len: 1, read: function (b, i, d) { d.pir = u8(b, i) === 1; } },
    // PIR activity count (2 bytes), as the AM100 series defines channel 0x05 type 0x6A;
    // Milesight's AM308 example frame (TTN am308-codec.yaml, example 1) ends with it.
    "056a": { len: 2, read: function (b, i, d) { d.activity = u16(b, i); } },
    "06cb": { len: 1, read: function (b, i, d) { d.light_level = u8(b, i); } },
    "077d": { len: 2, read: function (b, i, d) { d.co2 = u16(b, i); } },
    // tVOC as the sensor's level (0x7D) or as a mass concentration in ug/m3 (0xE6).
    "087d": { len: 2, read: function (b, i, d) { d.tvoc = level(b, i); } },
    "08e6": { len: 2, read: function (b, i, d) { d.tvoc_ugm3 = u16(b, i); } },
    "0973": { len: 2, read: function (b, i, d) { d.pressure = u16(b, i) / 10; } },
    "0a7d": { len: 2, read: function (b, i, d) { d.hcho = u16(b, i) / 100; } },
    "0b7d": { len: 2, read: function (b, i, d) { d.pm2_5 = u16(b, i); } },
    "0c7d": { len: 2, read: function (b, i, d) { d.pm10 = u16(b, i); } },
    "0d7d": { len: 2, read: function (b, i, d) { d.o3 = u16(b, i) / 100; } },
    "0e01": { len: 1, read: function (b, i, d) { d.beep = u8(b, i) === 1; } },
    "20ce": history("tvoc", level),
    "21ce": history("tvoc_ugm3", u16),
  };
}
