// Bit fields, unsigned shifts and sign extension.
function u32(b, i) {
  return ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
}

function decodeUplink(input) {
  var b = input.bytes;
  var flags = b[0];
  var data = {
    door_open: (flags & 0x01) !== 0,
    tamper: !!(flags & 0x02),
    mode: (flags >> 2) & 0x03,
    low_battery: (flags & 0x80) === 0x80,
    counter: u32(b, 1),
    counter_signed: u32(b, 1) | 0,
    delta: ((b[5] << 24) >> 24),
    wide: ((b[6] << 8 | b[7]) << 16) >> 16,
    inverted: ~b[8] & 0xff,
    xor: b[8] ^ 0x5a,
    hex: u32(b, 1).toString(16),
    bits: ("00000000" + flags.toString(2)).slice(-8)
  };
  return { data: data };
}
