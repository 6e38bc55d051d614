// @key ellenex_pdt2
// @name Ellenex PDT2-L and other dual-reading transmitters (reading and temperature)
// @devices PDT2-L, PDS2-L (multi-sense firmware before v6)
// @source Ellenex LoRaWAN transmitter datasheets and Ellenex's uplink decoders (pts2-l.js, pls2-l.js, uplinkdecoder-singlesense.js, uplinkdecoder-multisense.js, uplinkdecoder-t2.js in TheThingsNetwork/lorawan-devices vendor/ellenex), https://www.ellenex.com/ellenex-lorawan-products
//
// Ellenex's 8-byte uplink: bytes 0-2 a header, bytes 3-4 the primary reading and bytes 5-6 the
// secondary reading (big-endian signed 16-bit), byte 7 the battery voltage in 0.1 V. The readings are
// the transmitter's values in the engineering unit its range was ordered with (see the device's
// datasheet and calibration sheet); the vendor's decoder passes them on unscaled, and so does this one.
// Optional variables scale and offset (numbers or strings) give a linear calibration of the primary
// reading: sensor_value = reading × scale + offset.
// Output: sensor_reading (bytes 3-4), temperature_reading (bytes 5-6), both in the transmitter's units,
// battery_voltage (V), and sensor_value when the scale variable is set.

function ellInt16(b, i) {
  var v = ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
  return v >= 0x8000 ? v - 0x10000 : v;
}

function ellNumber(variables, name, fallback) {
  if (!variables || variables[name] === undefined || variables[name] === null || variables[name] === "") return fallback;
  var v = Number(variables[name]);
  return isFinite(v) ? v : fallback;
}

function decodeUplink(input) {
  var b = (input && input.bytes) || [];
  var data = {};
  if (b.length !== 8) {
    return { data: data, errors: ["Ellenex uplinks are 8 bytes, this one has " + b.length] };
  }
  data.sensor_reading = ellInt16(b, 3);
  data.temperature_reading = ellInt16(b, 5);
  data.battery_voltage = (b[7] & 0xff) / 10;
  var scale = ellNumber(input.variables, "scale", null);
  if (scale !== null) {
    data.sensor_value = data.sensor_reading * scale + ellNumber(input.variables, "offset", 0);
  }
  return { data: data };
}
