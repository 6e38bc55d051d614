// Acrios ACR-CV-101L-M-X uplink decoder in the style of Acrios' codec
// (lorawan-devices vendor/acrios/acr-cv-101l-m-x.js): two bytes of the
// converter's framing, then the meter's M-Bus long frame (68 L L 68 C A CI
// ... checksum 16). Reduced to the fixed data structure (CI 0x73) of the
// example: identification number, access number, status, the medium and
// units of the two counters, and the counters as BCD.
var MEDIA = { 7: "Water meter" };
var UNITS = { 0x29: "l" };

function bcd(b, at, n) {
  var v = 0;
  for (var i = n - 1; i >= 0; i--) v = v * 100 + (b[at + i] >> 4) * 10 + (b[at + i] & 15);
  return v;
}

function decodeUplink(input) {
  var f = input.bytes.slice(2);
  var u1 = f[13], u2 = f[14];
  var unit1 = UNITS[u1 & 0x3f];
  // 0x3e: the second counter is a historic value in the first one's unit.
  var unit2 = (u2 & 0x3f) === 0x3e ? unit1 : UNITS[u2 & 0x3f];
  var data = {
    l: f[1],
    c: f[4],
    a: f[5],
    ci: f[6],
    len: f.length,
    type: "Data",
    fixed: f[6] === 0x73,
    id: bcd(f, 7, 4),
    accessN: f[11],
    status: f[12],
    cStored: f[12] & 0x80 ? "Stored" : "Actual",
    deviceCode: (u1 >> 6) | ((u2 >> 6) << 2),
    data: [
      { id: 0, storage: 0, func: "Instantaneous", unit: unit1, value: bcd(f, 15, 4) },
      { id: 1, storage: 1, func: "Instantaneous", unit: unit2, value: bcd(f, 19, 4) },
    ],
    errors: [],
  };
  data.deviceType = MEDIA[data.deviceCode];
  return { data: data, errors: [], warnings: [] };
}
