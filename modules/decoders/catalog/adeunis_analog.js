// @key adeunis_analog
// @name Adeunis ANALOG (0-10 V / 4-20 mA)
// @devices ARF8190BA ANALOG
// @source Adeunis ANALOG LoRaWAN Technical Reference Manual (data frame 0x42), Adeunis codec library https://codec-adeunis.com
//
// 0x42: per channel one byte whose low nibble is the input type (1: voltage,
// 2: current, else off) and a 24-bit value in µV or in 10 nA. Big endian.
// Its status byte also carries the alarm flags of channels A and B
// (alarm_channel_a, alarm_channel_b).

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]); }

// Adeunis timestamps count seconds from 2013-01-01T00:00:00Z.
var ADEUNIS_EPOCH = 1356998400;

// status reads byte 1, common to every Adeunis frame: a 3-bit frame counter,
// configuration done (bit 0) and low battery (bit 1). Bit 2 is the hardware
// error flag on the legacy data frames and the "timestamp appended" flag on
// the current ones (timestamped frames end with 4 bytes of time).
function status(d, b, timestamped) {
  d.frame_counter = (b[1] & 0xe0) >> 5;
  d.configuration_done = (b[1] & 0x01) !== 0;
  d.low_battery = (b[1] & 0x02) !== 0;
  if (!timestamped) d.hardware_error = (b[1] & 0x04) !== 0;
  return timestamped && (b[1] & 0x04) !== 0;
}

function frameName(code) { return "0x" + (code < 16 ? "0" : "") + code.toString(16); }

// otherFrame handles the frames every product shares (configuration, network
// configuration, keep alive, ...), whose content is not measurement data.
function otherFrame(d, b) {
  status(d, b, false);
  if (b[0] === 0x30) { d.keep_alive = true; return { data: d }; }
  return { data: d, warnings: ["frame " + frameName(b[0]) + " carries no measurement and is not decoded"] };
}

function channel(d, b, i, name) {
  var type = b[i] & 0x0f;
  var raw = (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3];
  if (type === 1) d[name + "_voltage"] = Math.round(raw / 1000) / 1000;
  else if (type === 2) d[name + "_current_ma"] = Math.round(raw / 100) / 1000;
  else d[name + "_active"] = false;
}

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (b.length < 2) return { data: d, errors: ["payload is " + b.length + " bytes, want at least 2"] };
  if (b[0] !== 0x42) return otherFrame(d, b);
  status(d, b, false);
  // Bits 3 and 4 of the data frame's status byte: a threshold alarm on
  // channel A or B, as Adeunis' codec reads them.
  d.alarm_channel_a = (b[1] & 0x08) !== 0;
  d.alarm_channel_b = (b[1] & 0x10) !== 0;
  if (b.length < 10) return { data: d, errors: ["frame 0x42 is " + b.length + " bytes, want 10"] };
  channel(d, b, 2, "channel_a");
  channel(d, b, 6, "channel_b");
  return { data: d };
}
