// @key dragino_ldds75
// @name Dragino LDDS75 (ultrasonic distance)
// @devices LDDS75, LDDS20, LDDS45
// @source Dragino LDDS75 LoRaWAN Distance Detection Sensor User Manual (wiki.dragino.com), section 2.3 "Uplink Payload"; Dragino's decoders (github.com/dragino/dragino-end-node-decoder LDDS75/LDDS75_Decoder_V1.1.4.js for 8-byte frames, "LDDS75 decoder--Chirpstack.txt" and TTN vendor/dragino/ldds75.js for the first firmware's frames)
//
// fPort 2, big endian: BAT(2) distance in mm(2) interrupt flag(1)
// DS18B20 temperature(2) sensor flag(1). The first firmware sent BAT(2)
// distance(2) interrupt flag(1), and a frame of any other length when no
// ultrasonic sensor answered (Dragino's decoders for it read "No Sensor");
// a 4-byte frame is read so: the battery, and a warning.

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 2) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length === 4) {
    d.battery_voltage = (u16(b, 0) & 0x3fff) / 1000;
    return { data: d, warnings: ["no ultrasonic sensor detected (a 4-byte frame of the first firmware carries no distance)"] };
  }
  if (b.length === 5) {
    // First firmware: BAT, distance, interrupt flag; below 20 mm is no valid reading.
    d.battery_voltage = (u16(b, 0) & 0x3fff) / 1000;
    var first = u16(b, 2);
    d.interrupt = b[4] === 1;
    if (first < 20) return { data: d, warnings: ["distance below 20 mm is not a valid reading"] };
    d.distance_mm = first;
    return { data: d };
  }
  if (b.length < 8) return { data: d, errors: ["payload is " + b.length + " bytes, want 8 (or 5 or 4 from the first firmware)"] };
  var warnings = [];
  d.battery_voltage = (u16(b, 0) & 0x3fff) / 1000;
  var distance = u16(b, 2);
  // 0 means no ultrasonic sensor answered; below 280 mm is out of the sensor's range.
  if (distance === 0) warnings.push("no ultrasonic sensor detected");
  else {
    d.distance_mm = distance;
    if (distance < 280) warnings.push("distance below 280 mm is not a valid reading");
  }
  d.interrupt = b[4] === 1;
  if (u16(b, 5) !== 0x7fff) d.temperature = i16(b, 5) / 10;
  d.sensor_detected = b[7] === 1;
  var out = { data: d };
  if (warnings.length) out.warnings = warnings;
  return out;
}
