// Array methods and property order.
function decodeUplink(input) {
  var b = input.bytes;
  var values = Array.from(b, function (x, i) { return { i: i, v: x }; });
  var sorted = values.slice().sort(function (a, c) { return c.v - a.v || a.i - c.i; });
  var byKey = {};
  b.forEach(function (x) { byKey[x % 3 === 0 ? "b" + x : x] = x; });
  var seen = {};
  var unique = b.filter(function (x) { return seen[x] ? false : (seen[x] = true); });
  return {
    data: {
      sorted: sorted.map(function (o) { return o.i; }),
      default_sort: b.slice().sort(),
      sum: b.reduce(function (a, x) { return a + x; }, 0),
      max_index: b.indexOf(Math.max.apply(null, b)),
      evens: b.filter(function (x) { return x % 2 === 0; }),
      some: b.some(function (x) { return x > 200; }),
      every: b.every(function (x) { return x < 256; }),
      found: b.find(function (x) { return x > 10; }),
      last: b.findLast(function (x) { return x < 10; }),
      includes: b.includes(0),
      flat: [[1, [2]], [3]].flat(Infinity),
      flatmap: b.slice(0, 2).flatMap(function (x) { return [x, x * 2]; }),
      keys_order: Object.keys(byKey),
      unique: unique,
      fill: new Array(3).fill(b[0]),
      filled_holes: Array.apply(null, Array(2)),
      joined: b.join(),
      entries: Object.entries({ z: 1, a: 2, 5: 3, 1: 4 }),
      to_sorted: b.toSorted(function (x, y) { return x - y; }),
      spliced: (function () { var c = b.slice(); c.splice(1, 1, "x", "y"); return c; })()
    }
  };
}
