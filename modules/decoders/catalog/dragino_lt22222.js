// @key dragino_lt22222
// @name Dragino LT-22222-L / LT-33222-L (I/O controller)
// @devices LT-22222-L, LT-33222-L
// @source Dragino LT-22222-L LoRa IO Controller User Manual (wiki.dragino.com), section 3.3 "Uplink Payload" (AT+MOD=1 to 6)
//
// fPort 2, 11 bytes, big endian. Byte 8 holds the relay, output and input
// bits, byte 10 the hardware type (bits 7..6) and the work mode (bits 5..0).

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]); }

var EXIT_FLAGS = ["avi1_low", "avi1_high", "avi2_low", "avi2_high", "aci1_low", "aci1_high", "aci2_low", "aci2_high"];

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 2) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 11) return { data: d, errors: ["payload is " + b.length + " bytes, want 11"] };
  var hardware = b[10] >> 6;
  var mode = b[10] & 0x3f;
  d.hardware = hardware === 0 ? "LT33222" : hardware === 1 ? "LT22222" : "unknown";
  d.work_mode = mode;
  var io = b[8];
  if (mode !== 6) {
    // Outputs are open collector: a set bit means the output is pulled low.
    d.do1_high = (io & 0x01) === 0;
    d.do2_high = (io & 0x02) === 0;
    if (hardware === 0) d.do3_high = (io & 0x04) === 0;
    d.ro1_on = (io & 0x80) !== 0;
    d.ro2_on = (io & 0x40) !== 0;
  }
  switch (mode) {
    case 1: // 2ACI + 2AVI
      d.avi1_voltage = i16(b, 0) / 1000;
      d.avi2_voltage = i16(b, 2) / 1000;
      d.aci1_current_ma = i16(b, 4) / 1000;
      d.aci2_current_ma = i16(b, 6) / 1000;
      d.di1_high = (io & 0x08) !== 0;
      d.di2_high = (io & 0x10) !== 0;
      if (hardware === 0) d.di3_high = (io & 0x20) !== 0;
      break;
    case 2: // count mode 1
      d.count1 = u32(b, 0);
      d.count2 = u32(b, 4);
      d.first_status = (io & 0x20) !== 0;
      break;
    case 3: // 2ACI + 1 count
      d.count1 = u32(b, 0);
      d.aci1_current_ma = i16(b, 4) / 1000;
      d.aci2_current_ma = i16(b, 6) / 1000;
      d.first_status = (io & 0x20) !== 0;
      break;
    case 4: // count mode 2
      d.count1 = u32(b, 0);
      d.acount = u32(b, 4);
      d.first_status = (io & 0x20) !== 0;
      break;
    case 5: // 1ACI + 2AVI + 1 count
      d.avi1_voltage = i16(b, 0) / 1000;
      d.avi2_voltage = i16(b, 2) / 1000;
      d.aci1_current_ma = i16(b, 4) / 1000;
      d.count1 = u16(b, 6);
      d.first_status = (io & 0x20) !== 0;
      break;
    case 6: // exit mode: which trigger fired (byte 0) and the trigger states (byte 1)
      for (var k = 0; k < 8; k++) {
        d[EXIT_FLAGS[k] + "_flag"] = (b[0] & (0x80 >> k)) !== 0;
        d[EXIT_FLAGS[k] + "_status"] = (b[1] & (0x80 >> k)) !== 0;
      }
      d.di2_status = (b[2] & 0x08) !== 0;
      d.di2_flag = (b[2] & 0x04) !== 0;
      d.di1_status = (b[2] & 0x02) !== 0;
      d.di1_flag = (b[2] & 0x01) !== 0;
      d.mode_status = b[9] !== 0;
      break;
    default:
      return { data: d, errors: ["work mode " + mode + " is not documented"] };
  }
  return { data: d };
}
