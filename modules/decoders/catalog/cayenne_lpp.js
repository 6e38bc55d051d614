// @key cayenne_lpp
// @name Cayenne LPP (IPSO types, with the extended types)
// @devices any device sending Cayenne Low Power Payload: RAK, Arduino/TTN CayenneLPP library, ElectronicCats CayenneLPP (extended types), Pycom, Sodaq, Seeed and others
// @source myDevices Cayenne Docs "Cayenne Low Power Payload" (https://docs.mydevices.com/docs/lorawan/cayenne-lpp); extended types from ElectronicCats CayenneLPP (https://github.com/ElectronicCats/CayenneLPP, CayenneLPP.h / API.md)
//
// The payload is a sequence of records: channel (1 byte), type (1 byte), value (size by type, big
// endian). Each value is reported under "<type name>_<channel>", as The Things Stack's own Cayenne
// decoder names them. A second record with the same type and channel overwrites the first, with a
// warning.
//
//  type  name                 size  value
//     0  digital_in              1  unsigned
//     1  digital_out             1  unsigned
//     2  analog_in               2  signed, 0.01
//     3  analog_out              2  signed, 0.01
//   100  generic_sensor          4  unsigned
//   101  luminosity              2  unsigned, lux
//   102  presence                1  unsigned (0 or 1)
//   103  temperature             2  signed, 0.1 °C
//   104  relative_humidity       1  unsigned, 0.5 %
//   113  accelerometer           6  {x, y, z} signed, 0.001 G
//   115  barometric_pressure     2  unsigned, 0.1 hPa
//   116  voltage                 2  unsigned, 0.01 V
//   117  current                 2  unsigned, 0.001 A
//   118  frequency               4  unsigned, Hz
//   120  percentage              1  unsigned, %
//   121  altitude                2  signed, m
//   125  concentration           2  unsigned, ppm
//   128  power                   2  unsigned, W
//   130  distance                4  unsigned, 0.001 m
//   131  energy                  4  unsigned, 0.001 kWh
//   132  direction               2  unsigned, degrees
//   133  unixtime                4  unsigned, seconds since 1970-01-01 UTC
//   134  gyrometer               6  {x, y, z} signed, 0.01 °/s
//   135  colour                  3  {r, g, b} unsigned
//   136  gps                     9  {latitude, longitude} signed 3 bytes each, 0.0001 °; {altitude} signed 3 bytes, 0.01 m
//   142  switch                  1  unsigned (0 or 1)
// The variable-length polyline type (240) of some forks is not decoded: it stops decoding with an error.

function lppUint(bytes, at, size) {
  var v = 0;
  for (var i = 0; i < size; i++) v = v * 256 + (bytes[at + i] & 0xff);
  return v;
}

function lppInt(bytes, at, size) {
  var v = lppUint(bytes, at, size);
  var half = Math.pow(2, 8 * size - 1);
  return v >= half ? v - 2 * half : v;
}

function lppScaled(div, signed) {
  return function (bytes, at, size) {
    var raw = signed ? lppInt(bytes, at, size) : lppUint(bytes, at, size);
    return div === 1 ? raw : raw / div;
  };
}

function lppAxes(div) {
  return function (bytes, at) {
    return { x: lppInt(bytes, at, 2) / div, y: lppInt(bytes, at + 2, 2) / div, z: lppInt(bytes, at + 4, 2) / div };
  };
}

var LPP_TYPES = {
  0: ["digital_in", 1, lppScaled(1, false)],
  1: ["digital_out", 1, lppScaled(1, false)],
  2: ["analog_in", 2, lppScaled(100, true)],
  3: ["analog_out", 2, lppScaled(100, true)],
  100: ["generic_sensor", 4, lppScaled(1, false)],
  101: ["luminosity", 2, lppScaled(1, false)],
  102: ["presence", 1, lppScaled(1, false)],
  103: ["temperature", 2, lppScaled(10, true)],
  104: ["relative_humidity", 1, lppScaled(2, false)],
  113: ["accelerometer", 6, lppAxes(1000)],
  115: ["barometric_pressure", 2, lppScaled(10, false)],
  116: ["voltage", 2, lppScaled(100, false)],
  117: ["current", 2, lppScaled(1000, false)],
  118: ["frequency", 4, lppScaled(1, false)],
  120: ["percentage", 1, lppScaled(1, false)],
  121: ["altitude", 2, lppScaled(1, true)],
  125: ["concentration", 2, lppScaled(1, false)],
  128: ["power", 2, lppScaled(1, false)],
  130: ["distance", 4, lppScaled(1000, false)],
  131: ["energy", 4, lppScaled(1000, false)],
  132: ["direction", 2, lppScaled(1, false)],
  133: ["unixtime", 4, lppScaled(1, false)],
  134: ["gyrometer", 6, lppAxes(100)],
  135: ["colour", 3, function (bytes, at) {
    return { r: bytes[at] & 0xff, g: bytes[at + 1] & 0xff, b: bytes[at + 2] & 0xff };
  }],
  136: ["gps", 9, function (bytes, at) {
    return { latitude: lppInt(bytes, at, 3) / 10000, longitude: lppInt(bytes, at + 3, 3) / 10000, altitude: lppInt(bytes, at + 6, 3) / 100 };
  }],
  142: ["switch", 1, lppScaled(1, false)]
};

function decodeUplink(input) {
  var bytes = (input && input.bytes) || [];
  var data = {};
  var warnings = [];
  var errors = [];
  if (bytes.length === 0) {
    return { data: data, errors: ["empty payload"] };
  }
  var at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) {
      errors.push("record at offset " + at + " is cut short: channel without a type");
      break;
    }
    var channel = bytes[at] & 0xff;
    var type = bytes[at + 1] & 0xff;
    var spec = Object.prototype.hasOwnProperty.call(LPP_TYPES, type) ? LPP_TYPES[type] : null;
    if (spec === null) {
      errors.push("unknown Cayenne LPP type " + type + " at offset " + (at + 1) + "; the rest of the payload is not decoded");
      break;
    }
    if (at + 2 + spec[1] > bytes.length) {
      errors.push(spec[0] + " on channel " + channel + " needs " + spec[1] + " bytes at offset " + (at + 2) + ", " + (bytes.length - at - 2) + " left");
      break;
    }
    var name = spec[0] + "_" + channel;
    if (Object.prototype.hasOwnProperty.call(data, name)) {
      warnings.push(name + " appears more than once; the last value is kept");
    }
    data[name] = spec[2](bytes, at + 2, spec[1]);
    at += 2 + spec[1];
  }
  var result = { data: data };
  if (warnings.length) result.warnings = warnings;
  if (errors.length) result.errors = errors;
  return result;
}
