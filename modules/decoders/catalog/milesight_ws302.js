// @key milesight_ws302
// @name Milesight WS302 (sound level)
// @devices WS302
// @source Milesight WS302 payload definition (Milesight-IoT SensorDecoders, WS302 README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  // weighting byte: bits 1..0 frequency weighting, bits 3..2 time weighting;
  // then the current level, Leq and Lmax in 0.1 dB.
  "055b": { len: 7, read: function (b, i, d) {
    var w = u8(b, i);
    d.frequency_weighting = ["Z", "A", "C"][w & 0x03] || "unknown";
    d.time_weighting = ["impulse", "fast", "slow"][(w >> 2) & 0x03] || "unknown";
    d.sound_level = u16(b, i + 1) / 10;
    d.sound_leq = u16(b, i + 3) / 10;
    d.sound_lmax = u16(b, i + 5) / 10;
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
