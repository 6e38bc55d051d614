// @key decentlab_dl_smtp
// @name Decentlab DL-SMTP: soil moisture and temperature profile (8 depths)
// @devices DL-SMTP
// @source Decentlab DL-SMTP datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/soil-moisture-and-temperature-profile-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   soil_moisture_at_depth_0     -
//   soil_temperature_at_depth_0  °C
//   soil_moisture_at_depth_1     -
//   soil_temperature_at_depth_1  °C
//   soil_moisture_at_depth_2     -
//   soil_temperature_at_depth_2  °C
//   soil_moisture_at_depth_3     -
//   soil_temperature_at_depth_3  °C
//   soil_moisture_at_depth_4     -
//   soil_temperature_at_depth_4  °C
//   soil_moisture_at_depth_5     -
//   soil_temperature_at_depth_5  °C
//   soil_moisture_at_depth_6     -
//   soil_temperature_at_depth_6  °C
//   soil_moisture_at_depth_7     -
//   soil_temperature_at_depth_7  °C
//   battery_voltage              V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 16,
    values: [
      ["soil_moisture_at_depth_0", function (x) { return (x[0] - 2500) / 500; }],
      ["soil_temperature_at_depth_0", function (x) { return (x[1] - 32768) / 100; }],
      ["soil_moisture_at_depth_1", function (x) { return (x[2] - 2500) / 500; }],
      ["soil_temperature_at_depth_1", function (x) { return (x[3] - 32768) / 100; }],
      ["soil_moisture_at_depth_2", function (x) { return (x[4] - 2500) / 500; }],
      ["soil_temperature_at_depth_2", function (x) { return (x[5] - 32768) / 100; }],
      ["soil_moisture_at_depth_3", function (x) { return (x[6] - 2500) / 500; }],
      ["soil_temperature_at_depth_3", function (x) { return (x[7] - 32768) / 100; }],
      ["soil_moisture_at_depth_4", function (x) { return (x[8] - 2500) / 500; }],
      ["soil_temperature_at_depth_4", function (x) { return (x[9] - 32768) / 100; }],
      ["soil_moisture_at_depth_5", function (x) { return (x[10] - 2500) / 500; }],
      ["soil_temperature_at_depth_5", function (x) { return (x[11] - 32768) / 100; }],
      ["soil_moisture_at_depth_6", function (x) { return (x[12] - 2500) / 500; }],
      ["soil_temperature_at_depth_6", function (x) { return (x[13] - 32768) / 100; }],
      ["soil_moisture_at_depth_7", function (x) { return (x[14] - 2500) / 500; }],
      ["soil_temperature_at_depth_7", function (x) { return (x[15] - 32768) / 100; }]
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
