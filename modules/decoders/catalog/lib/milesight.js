// Milesight channel/type payloads, the core of the milesight_* codecs (// @include milesight).
// A codec defines CHANNELS, its device's "<channel><type>" pairs (hex) with the value's length
// and a reader, and its decodeUplink returns msDecode(input). The device attributes of
// channel 0xFF below are common to Milesight devices and take precedence over CHANNELS.

function u8(b, i) { return b[i] & 0xff; }
function u16(b, i) { return (b[i] | (b[i + 1] << 8)) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)) + b[i + 3] * 0x1000000; }
function hex2(n) { return (n < 16 ? "0" : "") + n.toString(16); }

var MS_ATTRIBUTES = {
  "ff01": { len: 1, read: function (b, i, d) { d.protocol_version = u8(b, i); } },
  "ff09": { len: 2, read: function (b, i, d) { d.hardware_version = "v" + u8(b, i) + "." + (u8(b, i + 1) >> 4); } },
  "ff0a": { len: 2, read: function (b, i, d) { d.firmware_version = "v" + u8(b, i) + "." + u8(b, i + 1); } },
  "ff0b": { len: 1, read: function (b, i, d) { d.power_on = true; } },
  "ff0f": { len: 1, read: function (b, i, d) { d.lorawan_class = ["A", "B", "C", "CtoB"][u8(b, i)] || "unknown"; } },
  "ff16": { len: 8, read: function (b, i, d) { var s = ""; for (var k = 0; k < 8; k++) s += hex2(u8(b, i + k)); d.sn = s; } },
  "fffe": { len: 1, read: function (b, i, d) { d.reset = true; } },
  "ffff": { len: 2, read: function (b, i, d) { d.tsl_version = "v" + u8(b, i) + "." + u8(b, i + 1); } }
};

// msDecode walks the channel list: each entry is channel id, channel type
// and a value whose length the type fixes. An unknown pair or a short value
// stops the walk with an error and keeps what was read before it.
function msDecode(input) {
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
    var ch = Object.prototype.hasOwnProperty.call(MS_ATTRIBUTES, key) ? MS_ATTRIBUTES[key]
      : Object.prototype.hasOwnProperty.call(CHANNELS, key) ? CHANNELS[key] : null;
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
