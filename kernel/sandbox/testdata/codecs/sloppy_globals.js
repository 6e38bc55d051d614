// Sloppy mode, as published codecs often are: undeclared variables, a
// leaked loop counter, legacy octal literals, with, arguments.callee.
function Decoder(bytes, port) {
  decoded = {};
  for (i = 0; i < bytes.length; i++) {
    total = (typeof total === "number" ? total : 0) + bytes[i];
  }
  decoded.sum = total;
  decoded.last_index = i;
  decoded.octal = 010 + 0o10;
  var point = { x: bytes[0], y: bytes[1] };
  with (point) {
    decoded.distance = Math.round(Math.sqrt(x * x + y * y) * 100) / 100;
  }
  decoded.depth = (function (n) { return n <= 1 ? 1 : n * arguments.callee(n - 1); })(5);
  decoded.this_is_global = this === globalThis || this === undefined;
  decoded.port = port;
  return decoded;
}
