// Getters, Object.defineProperty and frozen tables.
var TABLE = Object.freeze({ low: 10, high: 90 });

function decodeUplink(input) {
  var level = input.bytes[0];
  var data = {
    get state() {
      return level < TABLE.low ? "low" : level > TABLE.high ? "high" : "normal";
    },
    level: level
  };
  Object.defineProperty(data, "percent", { get: function () { return level / 2.55; }, enumerable: true });
  Object.defineProperty(data, "secret", { value: "not in JSON", enumerable: false });
  TABLE.low = 50; // ignored: the table is frozen (sloppy mode does not throw)
  data.low_after = TABLE.low;
  data.frozen = Object.isFrozen(TABLE);
  return { data: data };
}
