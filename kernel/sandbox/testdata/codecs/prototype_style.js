// Constructor functions and prototype methods.
function Parser(bytes) {
  this.bytes = bytes;
  this.offset = 0;
}
Parser.prototype.u8 = function () {
  return this.bytes[this.offset++];
};
Parser.prototype.u16le = function () {
  return this.u8() | (this.u8() << 8);
};
Parser.prototype.done = function () {
  return this.offset >= this.bytes.length;
};

function Measurement(kind, value) {
  this.kind = kind;
  this.value = value;
}
Measurement.prototype.describe = function () {
  return this.kind + "=" + this.value;
};

function decodeUplink(input) {
  var p = new Parser(input.bytes);
  var list = [];
  while (!p.done()) {
    var kind = p.u8();
    if (p.done()) break;
    list.push(new Measurement(kind === 1 ? "temp" : "other", p.u16le()));
  }
  return {
    data: {
      measurements: list,
      described: list.map(function (m) { return m.describe(); }),
      is_parser: p instanceof Parser,
      proto_name: Object.getPrototypeOf(list[0] || {}).constructor.name
    }
  };
}
