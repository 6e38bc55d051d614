// @key dragino_lwl02
// @name Dragino LWL02 (water leak sensor)
// @devices LWL02
// @source Dragino LWL02 LoRaWAN Water Leak Sensor User Manual (wiki.dragino.com), section 2.3 "Uplink Payload"
//
// fPort 10, big endian: status & BAT(2) MOD(1) leak count(3) last leak duration
// in minutes(3) alarm(1). Bit 6 of byte 0 is the leak state, bit 7 the door
// state (the format is shared with the LDS02), bits 13..0 the battery in mV.

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function u24(b, i) { return (b[i] << 16) | (b[i + 1] << 8) | b[i + 2]; }

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 10) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 10) return { data: d, errors: ["payload is " + b.length + " bytes, want 10"] };
  d.battery_voltage = (u16(b, 0) & 0x3fff) / 1000;
  d.mode = b[2];
  switch (b[2]) {
    case 1: // door sensor
      d.door_open = (b[0] & 0x80) !== 0;
      d.door_open_times = u24(b, 3);
      d.last_door_open_duration_min = u24(b, 6);
      d.alarm = (b[9] & 0x01) !== 0;
      break;
    case 2: // water leak sensor
      d.water_leak = (b[0] & 0x40) !== 0;
      d.water_leak_times = u24(b, 3);
      d.last_water_leak_duration_min = u24(b, 6);
      break;
    case 3: // both status bits, no counters
      d.door_open = (b[0] & 0x80) !== 0;
      d.water_leak = (b[0] & 0x40) !== 0;
      d.alarm = (b[9] & 0x01) !== 0;
      break;
    default:
      return { data: d, warnings: ["mode " + b[2] + " carries no documented fields"] };
  }
  return { data: d };
}
