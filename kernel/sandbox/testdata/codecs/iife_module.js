// A module pattern: an immediately invoked function keeps the helpers private.
var SensorCodec = (function () {
  "use strict";
  var VERSION = "2.3";
  function parseHeader(b) {
    return { version: b[0] >> 4, count: b[0] & 0x0f };
  }
  function parseBody(b, count) {
    var out = [];
    for (var i = 0; i < count; i++) out.push(b[1 + i]);
    return out;
  }
  return {
    decode: function (b) {
      var h = parseHeader(b);
      return { codec: VERSION, header: h, values: parseBody(b, h.count) };
    },
    strict: (function () { return this === undefined; })()
  };
})();

function decodeUplink(input) {
  var d = SensorCodec.decode(input.bytes);
  d.strict_inside = SensorCodec.strict;
  return { data: d };
}
