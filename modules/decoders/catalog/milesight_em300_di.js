// @key milesight_em300_di
// @name Milesight EM300-DI (pulse / digital input)
// @devices EM300-DI
// @source Milesight EM300-DI payload definition (Milesight-IoT SensorDecoders, EM300-DI README), https://github.com/Milesight-IoT/SensorDecoders
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

function f32(b, i) {
  var view = new DataView(new ArrayBuffer(4));
  for (var k = 0; k < 4; k++) view.setUint8(k, b[i + k]);
  return view.getFloat32(0, true);
}

var WATER_ALARMS = { 1: "water outage timeout alarm", 2: "water outage timeout alarm release", 3: "water flow timeout alarm", 4: "water flow timeout alarm release" };
var HISTORY_ALARMS = { 0: "none", 1: "water outage timeout alarm", 2: "water outage timeout alarm release", 3: "water flow timeout alarm", 4: "water flow timeout alarm release", 5: "gpio alarm", 6: "gpio alarm release" };
// water = counter * water_conv / pulse_conv, as the device reports it.
function readWater(b, i, d) {
  d.water_conv = u16(b, i) / 10;
  d.pulse_conv = u16(b, i + 2) / 10;
  d.water = f32(b, i + 4);
}
function readWaterAlarm(b, i, d) {
  readWater(b, i, d);
  d.water_alarm = WATER_ALARMS[u8(b, i + 8)] || "unknown";
}

var CHANNELS = {
  "0175": { len: 1, read: function (b, i, d) { d.battery = u8(b, i); } },
  "0367": { len: 2, read: function (b, i, d) { d.temperature = i16(b, i) / 10; } },
  "0468": { len: 1, read: function (b, i, d) { d.humidity = u8(b, i) / 2; } },
  "0500": { len: 1, read: function (b, i, d) { d.gpio = u8(b, i) === 1; } },
  "05c8": { len: 4, read: function (b, i, d) { d.pulse = u32(b, i); } },
  // Water meter mode: the document lists channel 0x06, firmware v1.3+ sends 0x05.
  "05e1": { len: 8, read: readWater },
  "06e1": { len: 8, read: readWater },
  "8500": { len: 2, read: function (b, i, d) { d.gpio = u8(b, i) === 1; d.gpio_alarm = u8(b, i + 1) === 1; } },
  "85e1": { len: 9, read: readWaterAlarm },
  "86e1": { len: 9, read: readWaterAlarm },
  "20ce": { len: 13, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.temperature = i16(b, i + 4) / 10;
    h.humidity = u8(b, i + 6) / 2;
    if (u8(b, i + 7) === 1) h.gpio = u8(b, i + 8) === 1;
    else h.pulse = u32(b, i + 9);
    (d.history = d.history || []).push(h);
  } },
  "21ce": { len: 18, read: function (b, i, d) {
    var h = { timestamp: u32(b, i) };
    h.temperature = i16(b, i + 4) / 10;
    h.humidity = u8(b, i + 6) / 2;
    h.alarm = HISTORY_ALARMS[u8(b, i + 7)] || "unknown";
    if (u8(b, i + 8) === 1) h.gpio = u8(b, i + 9) === 1;
    else {
      h.water_conv = u16(b, i + 10) / 10;
      h.pulse_conv = u16(b, i + 12) / 10;
      h.water = f32(b, i + 14);
    }
    (d.history = d.history || []).push(h);
  } },
};

function decodeUplink(input) {
  return msDecode(input);
}
