// Elsys uplink decoder in the style of Elsys' simple payload decoder
// (lorawan-devices vendor/elsys/elsys.js): type-value records, the type
// byte fixing the size; a repeated type keeps its last value and an
// unknown type ends the frame. Reduced to the types the examples use.
function signed(v, bits) {
  return v & (1 << (bits - 1)) ? v - (1 << bits) : v;
}

function DecodeElsysPayload(b) {
  var obj = {};
  var i = 0;
  while (i < b.length) {
    var t = b[i];
    var u16 = (b[i + 1] << 8) | b[i + 2];
    if (t === 0x01) { obj.temperature = signed(u16, 16) / 10; i += 3; }
    else if (t === 0x02) { obj.humidity = b[i + 1]; i += 2; }
    else if (t === 0x03) { obj.x = signed(b[i + 1], 8); obj.y = signed(b[i + 2], 8); obj.z = signed(b[i + 3], 8); i += 4; }
    else if (t === 0x04) { obj.light = u16; i += 3; }
    else if (t === 0x05) { obj.motion = b[i + 1]; i += 2; }
    else if (t === 0x06) { obj.co2 = u16; i += 3; }
    else if (t === 0x0a) { obj.pulse1 = u16; i += 3; }
    else if (t === 0x0b) { obj.pulseAbs = (b[i + 1] << 24) | (b[i + 2] << 16) | (b[i + 3] << 8) | b[i + 4]; i += 5; }
    else if (t === 0x11) { obj.occupancy = b[i + 1]; i += 2; }
    else if (t === 0x12) { obj.waterleak = b[i + 1]; i += 2; }
    else if (t === 0x15) { obj.soundPeak = b[i + 1]; obj.soundAvg = b[i + 2]; i += 3; }
    else break;
  }
  return obj;
}

function decodeUplink(input) {
  return { data: DecodeElsysPayload(input.bytes) };
}
