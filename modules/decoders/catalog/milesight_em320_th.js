// @key milesight_em320_th
// @name Milesight EM320-TH
// @devices EM320-TH
// @source Milesight EM320-TH payload definition (Milesight-IoT SensorDecoders, EM320-TH README), https://github.com/Milesight-IoT/SensorDecoders
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise.

function u8(b, i) { return b[i] & 0xff; }
function u16(b, i) { return (b[i] | (b[i + 1] << 8)) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)) + b[i + 3] * 0x1000000; }
function hex2(n) { return (n < 16 ? "0" : "") + n.toString(16); }

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

  // Device attributes (channel 0xFF), common to Milesight devices.
  "ff01": { len: 1, read: function (b, i, d) { d.protocol_version = u8(b, i); } },
  "ff09": { len: 2, read: function (b, i, d) { d.hardware_version = "v" + u8(b, i) + "." + (u8(b, i + 1) >> 4); } },
  "ff0a": { len: 2, read: function (b, i, d) { d.firmware_version = "v" + u8(b, i) + "." + u8(b, i + 1); } },
  "ff0b": { len: 1, read: function (b, i, d) { d.power_on = true; } },
  "ff0f": { len: 1, read: function (b, i, d) { d.lorawan_class = ["A", "B", "C", "CtoB"][u8(b, i)] || "unknown"; } },
  "ff16": { len: 8, read: function (b, i, d) { var s = ""; for (var k = 0; k < 8; k++) s += hex2(u8(b, i + k)); d.sn = s; } },
  "fffe": { len: 1, read: function (b, i, d) { d.reset = true; } },
  "ffff": { len: 2, read: function (b, i, d) { d.tsl_version = "v" + u8(b, i) + "." + u8(b, i + 1); } },
};

// decodeUplink walks the channel list: each entry is channel id, channel type
// and a value whose length the type fixes. An unknown pair or a short value
// stops the walk with an error and keeps what was read before it.
function decodeUplink(input) {
  var b = input.bytes || [];
  var data = {};
  var errors = [];
  var i = 0;
  while (i < b.length) {
    if (i + 2 > b.length) {
      errors.push("truncated channel header at byte " + i);
      break;
    }
    var key = hex2(u8(b, i)) + hex2(u8(b, i + 1));
    var ch = Object.prototype.hasOwnProperty.call(CHANNELS, key) ? CHANNELS[key] : null;
    if (!ch) {
      errors.push("unknown channel 0x" + key.slice(0, 2) + " type 0x" + key.slice(2) + " at byte " + i);
      break;
    }
    var len = typeof ch.len === "function" ? ch.len(b, i + 2) : ch.len;
    if (len < 0 || i + 2 + len > b.length) {
      errors.push("channel 0x" + key.slice(0, 2) + " type 0x" + key.slice(2) + " at byte " + i + " is truncated");
      break;
    }
    ch.read(b, i + 2, data, len);
    i += 2 + len;
  }
  var out = { data: data };
  if (errors.length) out.errors = errors;
  return out;
}
