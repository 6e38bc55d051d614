function decodeUplink(input) {
  var b = input.bytes;
  return { data: { pulses: ((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3] }, warnings: ["low battery"] };
}
