// A Cayenne LPP subset, keyed the way many LPP decoders name their fields.
var TYPES = {
  0: { name: "digital_in", size: 1, scale: 1, signed: false },
  1: { name: "digital_out", size: 1, scale: 1, signed: false },
  2: { name: "analog_in", size: 2, scale: 100, signed: true },
  101: { name: "illuminance", size: 2, scale: 1, signed: false },
  102: { name: "presence", size: 1, scale: 1, signed: false },
  103: { name: "temperature", size: 2, scale: 10, signed: true },
  104: { name: "humidity", size: 1, scale: 2, signed: false },
  115: { name: "barometer", size: 2, scale: 10, signed: false },
  136: { name: "gps", size: 9, scale: 1, signed: true }
};

function int(bytes, offset, size, signed) {
  var v = 0;
  for (var i = 0; i < size; i++) v = v * 256 + bytes[offset + i];
  if (signed && v >= Math.pow(2, 8 * size - 1)) v -= Math.pow(2, 8 * size);
  return v;
}

function decodeUplink(input) {
  var bytes = input.bytes;
  var data = {};
  var i = 0;
  while (i + 2 <= bytes.length) {
    var channel = bytes[i];
    var type = TYPES[bytes[i + 1]];
    if (!type) {
      return { data: data, errors: ["unknown LPP type " + bytes[i + 1] + " on channel " + channel] };
    }
    i += 2;
    if (i + type.size > bytes.length) {
      return { data: data, errors: ["truncated " + type.name] };
    }
    var key = type.name + "_" + channel;
    if (type.name === "gps") {
      data[key] = {
        latitude: int(bytes, i, 3, true) / 10000,
        longitude: int(bytes, i + 3, 3, true) / 10000,
        altitude: int(bytes, i + 6, 3, true) / 100
      };
    } else {
      data[key] = int(bytes, i, type.size, type.signed) / type.scale;
    }
    i += type.size;
  }
  return { data: data };
}
