// Typed arrays over the payload's bytes.
function decodeUplink(input) {
  var u8 = new Uint8Array(input.bytes);
  var data = {};
  if (u8.length % 2 !== 0) {
    return { data: { length: u8.length }, errors: ["odd payload length"] };
  }
  var i16 = new Int16Array(u8.buffer);
  var samples = Array.from(i16);
  data.samples = samples;
  data.min = Math.min.apply(null, samples);
  data.max = Math.max.apply(null, samples);
  data.sum = samples.reduce(function (a, b) { return a + b; }, 0);
  data.as_object = new Uint8Array(u8.buffer, 0, 2);
  var f = new Float32Array(1);
  f[0] = samples[0] / 3;
  data.third = f[0];
  data.clamped = Array.from(new Uint8ClampedArray([300, -5, 12.5, 127.5]));
  data.joined = u8.join("-");
  return { data: data };
}
