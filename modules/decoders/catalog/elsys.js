// @key elsys
// @name Elsys ERS / ELT / EMS (TLV)
// @devices ERS, ERS Lite, ERS CO2, ERS CO2 Lite, ERS VOC, ERS Eye, ERS Sound, ERS Desk, ERS Display and Eco series, EMS, EMS Lite, EMS Door, EMS Desk, ELT-2, ELT Lite, ELT Ultrasonic, ELT Radar
// @source Elsys "Sensor payload" (https://elsys.se/public/documents/Sensor_payload.pdf) and the Elsys reference decoder (https://www.elsys.se/en/elsys-payload/); examples from Elsys' device codecs in TheThingsNetwork/lorawan-devices vendor/elsys
//
// The payload is a sequence of type-value records; the type byte fixes the value's size. Multi-byte
// values are big endian. Output keys are the names of the Elsys reference decoder, so that existing
// Elsys integrations keep their keys; units are those of the Elsys document:
//
//  type  key(s)                                        size  value
//  0x01  temperature                                      2  signed, 0.1 °C
//  0x02  humidity                                         1  %RH
//  0x03  x, y, z                                          3  acceleration, signed bytes, 63 = 1 g
//  0x04  light                                            2  lux
//  0x05  motion                                           1  PIR motion count
//  0x06  co2                                              2  ppm
//  0x07  vdd                                              2  battery voltage, mV
//  0x08  analog1                                          2  mV
//  0x09  lat, long                                        6  3 + 3 bytes, raw binary as the document gives them
//  0x0A  pulse1                                           2  pulses since the last uplink
//  0x0B  pulseAbs                                         4  absolute pulse count
//  0x0C  externalTemperature                              2  signed, 0.1 °C
//  0x0D  digital                                          1  external digital input, 0 or 1
//  0x0E  distance                                         2  mm
//  0x0F  accMotion                                        1  accelerometer motion count
//  0x10  irInternalTemperature, irExternalTemperature     4  2 + 2 bytes, signed, 0.1 °C
//  0x11  occupancy                                        1  0 free, 1 pending (motion), 2 occupied
//  0x12  waterleak                                        1  0-255
//  0x13  grideye                                         65  reference °C (1 byte) and 64 pixels: reference + pixel / 10 °C
//  0x14  pressure                                         4  0.001 hPa
//  0x15  soundPeak, soundAvg                              2  dB
//  0x16  pulse2                                           2  pulses since the last uplink
//  0x17  pulseAbs2                                        4  absolute pulse count
//  0x18  analog2                                          2  mV
//  0x19  externalTemperature2                             2  signed, 0.1 °C; several probes give a list
//  0x1A  digital2                                         1  external digital input 2, 0 or 1
//  0x1B  analogUv                                         4  signed, µV (load cell)
//  0x1C  tvoc                                             2  ppb
//  0x3D  debug                                            4  unsigned, vendor debug word
// A type repeated in one payload (queued samples) keeps the last value, as the reference decoder
// does; an unknown type stops decoding with an error, since its size is not known.

function elsysUint(bytes, at, size) {
  var v = 0;
  for (var i = 0; i < size; i++) v = v * 256 + (bytes[at + i] & 0xff);
  return v;
}

function elsysInt(bytes, at, size) {
  var v = elsysUint(bytes, at, size);
  var half = Math.pow(2, 8 * size - 1);
  return v >= half ? v - 2 * half : v;
}

var ELSYS_TYPES = {
  0x01: [2, function (b, i, d) { d.temperature = elsysInt(b, i, 2) / 10; }],
  0x02: [1, function (b, i, d) { d.humidity = b[i] & 0xff; }],
  0x03: [3, function (b, i, d) { d.x = elsysInt(b, i, 1); d.y = elsysInt(b, i + 1, 1); d.z = elsysInt(b, i + 2, 1); }],
  0x04: [2, function (b, i, d) { d.light = elsysUint(b, i, 2); }],
  0x05: [1, function (b, i, d) { d.motion = b[i] & 0xff; }],
  0x06: [2, function (b, i, d) { d.co2 = elsysUint(b, i, 2); }],
  0x07: [2, function (b, i, d) { d.vdd = elsysUint(b, i, 2); }],
  0x08: [2, function (b, i, d) { d.analog1 = elsysUint(b, i, 2); }],
  0x09: [6, function (b, i, d) { d.lat = elsysUint(b, i, 3); d.long = elsysUint(b, i + 3, 3); }],
  0x0a: [2, function (b, i, d) { d.pulse1 = elsysUint(b, i, 2); }],
  0x0b: [4, function (b, i, d) { d.pulseAbs = elsysUint(b, i, 4); }],
  0x0c: [2, function (b, i, d) { d.externalTemperature = elsysInt(b, i, 2) / 10; }],
  0x0d: [1, function (b, i, d) { d.digital = b[i] & 0xff; }],
  0x0e: [2, function (b, i, d) { d.distance = elsysUint(b, i, 2); }],
  0x0f: [1, function (b, i, d) { d.accMotion = b[i] & 0xff; }],
  0x10: [4, function (b, i, d) {
    d.irInternalTemperature = elsysInt(b, i, 2) / 10;
    d.irExternalTemperature = elsysInt(b, i + 2, 2) / 10;
  }],
  0x11: [1, function (b, i, d) { d.occupancy = b[i] & 0xff; }],
  0x12: [1, function (b, i, d) { d.waterleak = b[i] & 0xff; }],
  0x13: [65, function (b, i, d) {
    var ref = b[i] & 0xff;
    d.grideye = [];
    for (var j = 0; j < 64; j++) d.grideye.push(ref + (b[i + 1 + j] & 0xff) / 10);
  }],
  0x14: [4, function (b, i, d) { d.pressure = elsysUint(b, i, 4) / 1000; }],
  0x15: [2, function (b, i, d) { d.soundPeak = b[i] & 0xff; d.soundAvg = b[i + 1] & 0xff; }],
  0x16: [2, function (b, i, d) { d.pulse2 = elsysUint(b, i, 2); }],
  0x17: [4, function (b, i, d) { d.pulseAbs2 = elsysUint(b, i, 4); }],
  0x18: [2, function (b, i, d) { d.analog2 = elsysUint(b, i, 2); }],
  0x19: [2, function (b, i, d) {
    var t = elsysInt(b, i, 2) / 10;
    if (typeof d.externalTemperature2 === "number") d.externalTemperature2 = [d.externalTemperature2, t];
    else if (Array.isArray(d.externalTemperature2)) d.externalTemperature2.push(t);
    else d.externalTemperature2 = t;
  }],
  0x1a: [1, function (b, i, d) { d.digital2 = b[i] & 0xff; }],
  0x1b: [4, function (b, i, d) { d.analogUv = elsysInt(b, i, 4); }],
  0x1c: [2, function (b, i, d) { d.tvoc = elsysUint(b, i, 2); }],
  0x3d: [4, function (b, i, d) { d.debug = elsysUint(b, i, 4); }]
};

function decodeUplink(input) {
  var bytes = (input && input.bytes) || [];
  var data = {};
  if (bytes.length === 0) {
    return { data: data, errors: ["empty payload"] };
  }
  var at = 0;
  while (at < bytes.length) {
    var type = bytes[at] & 0xff;
    var spec = Object.prototype.hasOwnProperty.call(ELSYS_TYPES, type) ? ELSYS_TYPES[type] : null;
    if (spec === null) {
      return { data: data, errors: ["unknown Elsys type 0x" + (type < 16 ? "0" : "") + type.toString(16) + " at offset " + at + "; the rest of the payload is not decoded"] };
    }
    if (at + 1 + spec[0] > bytes.length) {
      return { data: data, errors: ["type 0x" + (type < 16 ? "0" : "") + type.toString(16) + " at offset " + at + " needs " + spec[0] + " bytes, " + (bytes.length - at - 1) + " left"] };
    }
    spec[1](bytes, at + 1, data);
    at += 1 + spec[0];
  }
  return { data: data };
}
