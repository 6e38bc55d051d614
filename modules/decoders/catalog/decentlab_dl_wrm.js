// @key decentlab_dl_wrm
// @name Decentlab DL-WRM: winter road maintenance sensor (air and road surface temperature)
// @devices DL-WRM
// @source Decentlab DL-WRM datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/winter-road-maintenance-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   air_temperature      °C
//   air_humidity         %
//   surface_temperature  °C
//   head_temperature     °C
//   battery_voltage      V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["air_temperature", function (x) { return 175 * x[0] / 65535 - 45; }],
      ["air_humidity", function (x) { return 100 * x[1] / 65535; }]
    ]
  },
  {
    length: 2,
    values: [
      ["surface_temperature", function (x) { return (x[0] - 1000) / 10; }],
      ["head_temperature", function (x) { return (x[1] - 1000) / 10; }]
    ]
  },
  {
    length: 1,
    values: [
      ["battery_voltage", function (x) { return x[0] / 1000; }]
    ]
  }
];

function dlParameters(variables) {
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

function decodeUplink(input) {
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
