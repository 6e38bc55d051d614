function decodeUplink(input) {
  var b = input.bytes;
  var t = (b[0] << 8) | b[1];
  if (t > 0x7fff) t -= 0x10000;
  return { data: { temperature: t / 10, humidity: b[2] }, warnings: [], errors: [] };
}
