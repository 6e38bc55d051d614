// ES5 with small helper functions, the most common style of vendor codecs.
function readUInt16BE(bytes, i) {
  return (bytes[i] << 8) | bytes[i + 1];
}

function readInt16BE(bytes, i) {
  var value = readUInt16BE(bytes, i);
  return value > 0x7fff ? value - 0x10000 : value;
}

function round(value, decimals) {
  var m = Math.pow(10, decimals);
  return Math.round(value * m) / m;
}

function decodeUplink(input) {
  var bytes = input.bytes;
  if (bytes.length < 6) {
    return { errors: ["payload too short: " + bytes.length + " bytes"] };
  }
  var data = {};
  data.temperature = round(readInt16BE(bytes, 0) / 10, 1);
  data.humidity = bytes[2] / 2;
  data.battery = round(readUInt16BE(bytes, 3) / 1000, 3);
  data.status = bytes[5] === 0 ? "ok" : "fault";
  return { data: data, warnings: [], errors: [] };
}
