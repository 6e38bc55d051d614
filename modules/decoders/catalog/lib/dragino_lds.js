// Dragino door and water leak frames, shared by dragino_lds02 and dragino_lwl02 (// @include
// dragino_lds): fPort 10, big endian: status & BAT(2) MOD(1) count(3) last duration in minutes(3)
// alarm(1). Bit 7 of byte 0 is the door state, bit 6 the leak state, bits 13..0 the battery in mV.
// A frame cut short (3 to 9 bytes) gives the fields it holds whole and an error naming those it
// cuts; Dragino's TTN codecs (lds02.js, lwl02.js) read the missing bytes as zeros instead, which we
// do not.

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function u24(b, i) { return (b[i] << 16) | (b[i + 1] << 8) | b[i + 2]; }

// whole: whether the frame holds bytes [from, from+n).
function whole(b, from, n) { return b.length >= from + n; }

function ldsDecode(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 10) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 3) return { data: d, errors: ["payload is " + b.length + " bytes, want 10"] };
  var cut = [];
  d.battery_voltage = (u16(b, 0) & 0x3fff) / 1000;
  d.mode = b[2];
  // field puts name = read() when the frame holds its bytes, else notes it cut.
  function field(name, from, n, read) {
    if (whole(b, from, n)) d[name] = read();
    else cut.push(name);
  }
  switch (b[2]) {
    case 1: // door sensor
      d.door_open = (b[0] & 0x80) !== 0;
      field("door_open_times", 3, 3, function () { return u24(b, 3); });
      field("last_door_open_duration_min", 6, 3, function () { return u24(b, 6); });
      field("alarm", 9, 1, function () { return (b[9] & 0x01) !== 0; });
      break;
    case 2: // water leak sensor
      d.water_leak = (b[0] & 0x40) !== 0;
      field("water_leak_times", 3, 3, function () { return u24(b, 3); });
      field("last_water_leak_duration_min", 6, 3, function () { return u24(b, 6); });
      break;
    case 3: // both status bits, no counters
      d.door_open = (b[0] & 0x80) !== 0;
      d.water_leak = (b[0] & 0x40) !== 0;
      field("alarm", 9, 1, function () { return (b[9] & 0x01) !== 0; });
      break;
    default:
      return { data: d, warnings: ["mode " + b[2] + " carries no documented fields"] };
  }
  if (cut.length) return { data: d, errors: ["payload is " + b.length + " bytes, want 10: " + cut.join(", ") + " cut off"] };
  return { data: d };
}
