// ChirpStack v3 codec functions.
function Decode(fPort, bytes, variables) {
  var obj = {};
  obj.port = fPort;
  obj.voltage = ((bytes[0] << 8) + bytes[1]) / 1000;
  obj.relay = bytes[2] === 1 ? "on" : "off";
  if (variables && variables.calibration) {
    obj.voltage = obj.voltage + parseFloat(variables.calibration);
  }
  return obj;
}

function Encode(fPort, obj, variables) {
  var bytes = [];
  bytes.push(obj.relay === "on" ? 1 : 0);
  if (obj.interval) {
    bytes.push((obj.interval >> 8) & 0xff, obj.interval & 0xff);
  }
  return bytes;
}
