// Decentlab protocol v2, the core of the decentlab_* codecs (// @include decentlab).
// A codec defines DL_PARAMETERS (its parameters' defaults, which the node's variables
// may override) and DL_SENSORS (per flag bit: how many 16-bit words, and the values made
// of them), and its decodeUplink returns dlDecode(input).

function dlParameters(variables) {
  // Most nodes set no variables: the defaults then serve as they are (the
  // conversions only read them), which spares an interpreter a copy per uplink.
  if (!variables) return DL_PARAMETERS;
  var any = false;
  for (var k in variables) {
    any = true;
    break;
  }
  if (!any) return DL_PARAMETERS;
  var p = {};
  for (var name in DL_PARAMETERS) {
    p[name] = DL_PARAMETERS[name];
    if (variables && variables[name] !== undefined && variables[name] !== null && variables[name] !== "") {
      var v = Number(variables[name]);
      if (isFinite(v)) p[name] = v;
    }
  }
  return p;
}

function dlDecode(input) {
  var bytes = (input && input.bytes) || [];
  var data = {};
  var warnings = [];
  if (bytes.length < 5) {
    return { data: data, errors: ["payload too short: " + bytes.length + " bytes, the Decentlab header needs 5"] };
  }
  if (bytes[0] !== 2) {
    return { data: data, errors: ["Decentlab protocol version " + bytes[0] + " is not supported (expected 2)"] };
  }
  var p = dlParameters(input.variables);
  data.protocol_version = 2;
  data.device_id = ((bytes[1] & 0xff) << 8) | (bytes[2] & 0xff);
  var flags = ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff);
  var pos = 5;
  for (var i = 0; i < DL_SENSORS.length; i++) {
    if ((flags & (1 << i)) === 0) continue;
    var sensor = DL_SENSORS[i];
    if (pos + 2 * sensor.length > bytes.length) {
      return {
        data: data,
        errors: ["payload too short: sensor " + i + " needs " + 2 * sensor.length + " bytes at offset " + pos + ", " + (bytes.length - pos) + " left"]
      };
    }
    var x = [];
    for (var j = 0; j < sensor.length; j++) {
      x.push(((bytes[pos] & 0xff) << 8) | (bytes[pos + 1] & 0xff));
      pos += 2;
    }
    for (j = 0; j < sensor.values.length; j++) {
      var value = sensor.values[j][1](x, p);
      // A reading the conversion cannot express (a zero divisor, say) is
      // reported as null rather than as Infinity or NaN.
      data[sensor.values[j][0]] = isFinite(value) ? value : null;
    }
  }
  if (flags >> DL_SENSORS.length) {
    warnings.push("sensor flags 0x" + flags.toString(16) + " name sensors this decoder does not know; their data is ignored");
  } else if (pos < bytes.length) {
    warnings.push((bytes.length - pos) + " bytes after the last sensor ignored");
  }
  var result = { data: data };
  if (warnings.length) result.warnings = warnings;
  return result;
}
