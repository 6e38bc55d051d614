// The Things Network v2 payload functions.
function Decoder(bytes, port) {
  var decoded = {};
  if (port === 1) {
    decoded.led = bytes[0] === 1;
    decoded.temperature = ((bytes[1] << 24 >> 16) | bytes[2]) / 100;
  }
  return decoded;
}

function Encoder(object, port) {
  var bytes = [];
  if (port === 1) {
    bytes[0] = object.led ? 1 : 0;
  }
  return bytes;
}
