function decodeUplink(input) {
  var b = input.bytes, data = {};
  for (var i = 0; i + 3 < b.length + 0; i += 4) {
    var v = b[i + 2] | (b[i + 3] << 8);
    if (b[i] === 0x07) data.co2 = v;
    if (b[i] === 0x08) data.tvoc = v * 0.01;
  }
  return { data: data };
}
