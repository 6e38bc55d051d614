// @key adeunis_temp
// @name Adeunis TEMP (v3 and v4)
// @devices ARF8180BA TEMP, TEMP 3, TEMP 4
// @source Adeunis TEMP LoRaWAN Technical Reference Manual (data frames 0x43 and 0x57), Adeunis codec library https://codec-adeunis.com and its published examples
//
// Big endian. Byte 0 is the frame code, byte 1 the status byte.
// 0x43: probe 1 id/state(1) temperature(2) probe 2 id/state(1) temperature(2), 0.1 °C.
// 0x57: temperatures in 0.1 °C, newest first, interleaved channel 1 / channel 2
// when status bit 4 says both channels are active, then the timestamp if flagged.

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

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (b.length < 2) return { data: d, errors: ["payload is " + b.length + " bytes, want at least 2"] };
  var warnings = [];
  if (b[0] === 0x43) {
    status(d, b, false);
    if (b.length < 8) return { data: d, errors: ["frame 0x43 is " + b.length + " bytes, want 8"] };
    // Firmware before 1.3.8 sends 2 in the low nibble of byte 5 and no probe state.
    var stateKnown = (b[5] & 0x0f) !== 2;
    var probes = [[2, 3], [5, 6]];
    for (var p = 0; p < 2; p++) {
      var n = p + 1;
      var active = !stateKnown || (b[probes[p][0]] & 0x01) !== 0;
      if (stateKnown) d["probe_" + n + "_active"] = active;
      if (!active) continue;
      var raw = i16(b, probes[p][1]);
      // -3276.8 °C marks an invalid measure, e.g. a disconnected probe.
      if (raw === -32768) warnings.push("probe " + n + " gives no reading");
      else d["temperature_" + n] = raw / 10;
    }
  } else if (b[0] === 0x57) {
    var ts = status(d, b, true);
    var end = b.length - (ts ? 4 : 0);
    if (end < 4 || (end - 2) % 2 !== 0) return { data: d, errors: ["frame 0x57 is " + b.length + " bytes, not a whole number of values"] };
    var two = (b[1] & 0x10) !== 0;
    var h1 = [], h2 = [];
    for (var i = 2, k = 0; i + 1 < end; i += 2, k++) {
      var v = i16(b, i) / 10;
      if (two && k % 2 === 1) h2.push(v);
      else h1.push(v);
    }
    d.temperature_1 = h1[0];
    d.temperature_1_history = h1;
    if (two && h2.length) {
      d.temperature_2 = h2[0];
      d.temperature_2_history = h2;
    }
    if (ts) d.timestamp = ADEUNIS_EPOCH + u32(b, end);
  } else {
    return otherFrame(d, b);
  }
  var out = { data: d };
  if (warnings.length) out.warnings = warnings;
  return out;
}
