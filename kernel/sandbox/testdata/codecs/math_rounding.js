// Number formatting and rounding, where engines could differ. (Math.hypot
// with three arguments does differ: V8 and QuickJS round its last bit
// differently, so it is left out; see docs/decisions.md.)
function decodeUplink(input) {
  var x = ((input.bytes[0] << 8) | input.bytes[1]) / 7;
  var neg = -x;
  return {
    data: {
      x: x,
      fixed2: x.toFixed(2),
      fixed0: neg.toFixed(0),
      precision: x.toPrecision(4),
      exponential: x.toExponential(3),
      parsed: parseFloat(x.toFixed(3)),
      round_half: [Math.round(2.5), Math.round(-2.5), Math.round(0.49999999999999994)],
      trunc: Math.trunc(neg),
      sign: Math.sign(neg),
      cbrt: Math.cbrt(x),
      hypot: Math.hypot(3, 4),
      pow: Math.pow(x, 1.5),
      log: [Math.log(x), Math.log10(x), Math.log2(x)],
      trig: [Math.sin(x), Math.cos(x), Math.atan2(x, 3)],
      fround: Math.fround(x),
      sqrt2: Math.SQRT2,
      radix: [parseInt("ff", 16), parseInt("777", 8), parseInt("z", 36), Number("0x1f"), Number("1e3"), Number("")],
      strings: [String(x), String(1 / 3), String(123456789012345680000), String(0.000001), String(1e-7), String(-0)],
      eps: 0.1 + 0.2 - 0.3 < Number.EPSILON,
      money: (Math.round(x * 100) / 100).toFixed(2)
    }
  };
}
