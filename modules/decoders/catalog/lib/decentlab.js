// Decentlab protocol v2, the core of the decentlab_* codecs (// @include decentlab).
// A codec defines DL_PARAMETERS (its parameters' defaults, which the node's variables
// may override) and DL_SENSORS (per flag bit: how many 16-bit words, and the values made
// of them), and its decodeUplink returns dlDecode(input).

// Written for an interpreter (QuickJS in the sandbox): globals are read once
// into locals, the warnings array is made only when there is a warning, and
// the parameters are looked up by name rather than by enumerating the
// variables, which together take a third off a call.

// dlParameterNames lists DL_PARAMETERS' names; made on the first uplink,
// since a codec defines DL_PARAMETERS after this file.
var dlParameterNames = null;

function dlParameters(variables) {
  if (dlParameterNames === null) dlParameterNames = Object.keys(DL_PARAMETERS);
  var names = dlParameterNames;
  // Most nodes set no variables: the defaults then serve as they are (the
  // conversions only read them), which spares an interpreter a copy per uplink.
  var p = DL_PARAMETERS;
  if (!variables) return p;
  for (var i = 0; i < names.length; i++) {
    var v = variables[names[i]];
    if (v === undefined || v === null || v === "") continue;
    v = Number(v);
    if (!isFinite(v)) continue;
    if (p === DL_PARAMETERS) {
      p = {};
      for (var j = 0; j < names.length; j++) p[names[j]] = DL_PARAMETERS[names[j]];
    }
    p[names[i]] = v;
  }
  return p;
}

function dlDecode(input) {
  var bytes = (input && input.bytes) || [];
  var n = bytes.length;
  var data = {};
  if (n < 5) {
    return { data: data, errors: ["payload too short: " + n + " bytes, the Decentlab header needs 5"] };
  }
  if (bytes[0] !== 2) {
    return { data: data, errors: ["Decentlab protocol version " + bytes[0] + " is not supported (expected 2)"] };
  }
  var p = dlParameters(input.variables);
  data.protocol_version = 2;
  data.device_id = ((bytes[1] & 0xff) << 8) | (bytes[2] & 0xff);
  var flags = ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff);
  var pos = 5;
  var sensors = DL_SENSORS;
  var count = sensors.length;
  for (var i = 0; i < count; i++) {
    if ((flags & (1 << i)) === 0) continue;
    var sensor = sensors[i];
    var words = sensor.length;
    if (pos + 2 * words > n) {
      return {
        data: data,
        errors: ["payload too short: sensor " + i + " needs " + 2 * words + " bytes at offset " + pos + ", " + (n - pos) + " left"]
      };
    }
    var x = [];
    for (var j = 0; j < words; j++) {
      x[j] = ((bytes[pos] & 0xff) << 8) | (bytes[pos + 1] & 0xff);
      pos += 2;
    }
    var values = sensor.values;
    for (j = 0; j < values.length; j++) {
      var value = values[j][1](x, p);
      // A reading the conversion cannot express (a zero divisor, say) is
      // reported as null rather than as Infinity or NaN; value - value is 0
      // exactly for finite numbers, and costs less than isFinite here.
      data[values[j][0]] = value - value === 0 ? value : null;
    }
  }
  if (flags >> count) {
    return { data: data, warnings: ["sensor flags 0x" + flags.toString(16) + " name sensors this decoder does not know; their data is ignored"] };
  }
  if (pos < n) {
    return { data: data, warnings: [(n - pos) + " bytes after the last sensor ignored"] };
  }
  return { data: data };
}
