// What JSON.stringify does to values JSON cannot carry.
function decodeUplink(input) {
  var b = input.bytes;
  function Reading(v) { this.v = v; }
  Reading.prototype.toJSON = function () { return "reading:" + this.v; };
  var sym = Symbol("hidden");
  var data = {
    nan: NaN,
    inf: b[0] / 0,
    neg_inf: -Infinity,
    neg_zero: -0,
    undef: undefined,
    fn: function () { return 1; },
    arr: [undefined, function () {}, NaN, null, 1],
    date: new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)),
    invalid_date: new Date(NaN),
    custom: new Reading(b[1]),
    map: new Map([["a", 1]]),
    set: new Set([1, 2]),
    big: 1e21,
    small: 1e-7,
    float: 0.1 + 0.2,
    max: Number.MAX_VALUE,
    min: Number.MIN_VALUE,
    beyond_safe: 9007199254740993,
    boxed: [new Number(3), new String("s"), new Boolean(false)],
    text: "quote \" backslash \\ newline \n tab \t nul \u0000 e\u0301 😀 \ud800",
    "": "empty key",
    "10": "numeric key first",
    "2": "and sorted"
  };
  data[sym] = "dropped";
  Object.defineProperty(data, "hidden", { value: 1, enumerable: false });
  return { data: data };
}
