// Decentlab protocol v2, the core of the decentlab_* codecs (// @include decentlab).
// A codec defines DL_PARAMETERS (its parameters' defaults, which the node's variables
// may override) and DL_SENSORS (per flag bit: how many 16-bit words, and the values made
// of them), compiles them once when it is loaded, as
//
//   var dlSensors = dlCompile(DL_PARAMETERS, DL_SENSORS);
//
// and its decodeUplink returns dlDecode(input, dlSensors).

// Written for an interpreter (QuickJS in the sandbox). dlCompile turns the
// tables into one function whose code names every parameter and value:
// QuickJS hashes a property name held in a variable at every read or write
// (about 0.4 µs each in the sandbox), where a name written in the code is
// resolved when the code is compiled. Compiled when the codec is loaded, the
// function is part of the sandbox's image of the codec, which every restore
// brings back.

// dlDecode decodes input with the function dlCompile made of a codec's tables.
function dlDecode(input, sensors) {
  var bytes = (input && input.bytes) || [];
  var n = bytes.length;
  var data = {};
  if (n < 5) {
    return { data: data, errors: ["payload too short: " + n + " bytes, the Decentlab header needs 5"] };
  }
  if (bytes[0] !== 2) {
    return { data: data, errors: ["Decentlab protocol version " + bytes[0] + " is not supported (expected 2)"] };
  }
  data.protocol_version = 2;
  data.device_id = ((bytes[1] & 0xff) << 8) | (bytes[2] & 0xff);
  return sensors(bytes, n, ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff), input.variables, data);
}

// dlCompile returns function (bytes, n, flags, variables, data), which puts
// the readings of the sensors that flags names into data and returns the
// codec's result.
function dlCompile(parameters, sensors) {
  var conversions = [];
  var code = ["var p = P, v, x, pos = 5;"];
  var names = Object.keys(parameters);
  if (names.length > 0) {
    // Most nodes set no variables: the defaults then serve as they are (the
    // conversions only read them), which spares a copy per uplink.
    var copy = [];
    for (var i = 0; i < names.length; i++) copy.push(JSON.stringify(names[i]) + ": P" + dlMember(names[i]));
    code.push("if (variables) {");
    for (i = 0; i < names.length; i++) {
      code.push(
        "v = variables" + dlMember(names[i]) + ";",
        'if (v !== undefined && v !== null && v !== "") {',
        "v = Number(v);",
        "if (isFinite(v)) { if (p === P) p = {" + copy.join(", ") + "}; p" + dlMember(names[i]) + " = v; }",
        "}"
      );
    }
    code.push("}");
  }
  for (i = 0; i < sensors.length; i++) {
    var sensor = sensors[i];
    var size = 2 * sensor.length;
    var words = [];
    for (var j = 0; j < size; j += 2) {
      words.push("((bytes[pos + " + j + "] & 0xff) << 8) | (bytes[pos + " + (j + 1) + "] & 0xff)");
    }
    code.push(
      "if (flags & " + (1 << i) + ") {",
      "if (pos + " + size + " > n) return dlTooShort(data, " + i + ", " + size + ", pos, n);",
      "x = [" + words.join(", ") + "];",
      "pos += " + size + ";"
    );
    for (j = 0; j < sensor.values.length; j++) {
      // A reading the conversion cannot express (a zero divisor, say) is
      // reported as null rather than as Infinity or NaN; v - v is 0 exactly
      // for finite numbers, and costs less than isFinite.
      var conversion = sensor.values[j][1];
      var expression = dlReturned(conversion);
      if (expression === null) {
        expression = "C[" + conversions.length + "](x, p)";
        conversions.push(conversion);
      }
      code.push("v = (" + expression + ");", "data" + dlMember(sensor.values[j][0]) + " = v - v === 0 ? v : null;");
    }
    code.push("}");
  }
  code.push(
    "if (flags >> " + sensors.length + ") return dlUnknownSensors(data, flags);",
    "if (pos < n) return dlTrailing(data, n - pos);",
    "return { data: data };"
  );
  var make = new Function("P", "C", "return function (bytes, n, flags, variables, data) {\n" + code.join("\n") + "\n};");
  return make(parameters, conversions);
}

// dlReturned is the expression a conversion returns, when it is written as
// function (x) { return expression; } or function (x, p) { ... }, and
// otherwise null. The compiled code computes such an expression in place,
// which spares QuickJS a call per value (V8 makes that saving by itself); the
// expression sees x and p as the conversion did, and the same globals. One
// that names this, arguments or a variable of the compiled code (other than
// x, and p where the conversion takes it) would see something else there,
// and is called instead.
function dlReturned(conversion) {
  var m = /^function\s*\(\s*x\s*(,\s*p\s*)?\)\s*\{\s*return\s+([^;{}]+?);?\s*\}$/.exec(String(conversion));
  if (m === null) return null;
  var taken = "this|arguments|bytes|n|flags|variables|data|v|pos|P|C" + (m[1] ? "" : "|p");
  return new RegExp("(?:^|[^.\\w$])(?:" + taken + ")(?![\\w$])").test(m[2]) ? null : m[2];
}

// dlMember is name as a JavaScript member expression: .name, or ["name"]
// where name is no identifier.
function dlMember(name) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? "." + name : "[" + JSON.stringify(name) + "]";
}

function dlTooShort(data, sensor, size, pos, n) {
  return { data: data, errors: ["payload too short: sensor " + sensor + " needs " + size + " bytes at offset " + pos + ", " + (n - pos) + " left"] };
}

function dlUnknownSensors(data, flags) {
  return { data: data, warnings: ["sensor flags 0x" + flags.toString(16) + " name sensors this decoder does not know; their data is ignored"] };
}

function dlTrailing(data, left) {
  return { data: data, warnings: [left + " bytes after the last sensor ignored"] };
}
