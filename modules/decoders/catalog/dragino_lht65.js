// @key dragino_lht65
// @name Dragino LHT65 / LHT65N (temperature & humidity)
// @devices LHT65, LHT65N
// @source Dragino LHT65 Temperature & Humidity Sensor User Manual v1.8 and LHT65N LoRaWAN Temperature & Humidity Sensor Manual (wiki.dragino.com), sections 2.4 "Uplink Payload" and 2.6 "Datalog"
//
// fPort 2: BAT(2) built-in temperature(2) built-in humidity(2) Ext#(1) Ext value(4),
// big endian. fPort 3: datalog poll replies, 11-byte records.

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]); }

var BATTERY_STATUS = ["ultra low", "low", "ok", "good"];
var EXT_SENSORS = { 0: "none", 1: "temperature", 4: "interrupt", 5: "illumination", 6: "adc", 7: "counter16", 8: "counter32" };

function decodeUplink(input) {
  var b = input.bytes || [];
  var data = {};
  if (input.fPort === 3) return datalog(b);
  if (input.fPort !== 2) return { data: data, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 7) return { data: data, errors: ["payload too short: " + b.length + " bytes, want 7 or 11"] };
  data.battery_voltage = (u16(b, 0) & 0x3fff) / 1000;
  data.battery_status = BATTERY_STATUS[b[0] >> 6];
  data.temperature = i16(b, 2) / 100;
  data.humidity = u16(b, 4) / 10;
  var ext = b[6] & 0x7f;
  data.external_sensor = EXT_SENSORS[ext] || "unknown";
  if (ext === 0) return { data: data };
  if (b.length < 11) return { data: data, errors: ["external sensor value missing: " + b.length + " bytes, want 11"] };
  var warnings = [];
  // The top bit of Ext# flags a disconnected probe cable.
  data.external_sensor_disconnected = (b[6] & 0x80) !== 0;
  switch (ext) {
    case 1:
      if (u16(b, 7) === 0x7fff) warnings.push("external temperature probe gives no reading (0x7FFF)");
      else data.external_temperature = i16(b, 7) / 100;
      break;
    case 4:
      data.exti_level = b[7] === 1;
      data.exti_trigger = b[8] === 1;
      break;
    case 5:
      data.illumination = u16(b, 7);
      break;
    case 6:
      data.adc_voltage = u16(b, 7) / 1000;
      break;
    case 7:
      data.count = u16(b, 7);
      break;
    case 8:
      data.count = u32(b, 7);
      break;
    default:
      warnings.push("external sensor type " + ext + " is not decoded");
  }
  var out = { data: data };
  if (warnings.length) out.warnings = warnings;
  return out;
}

// Datalog records: external value(2) temperature(2) humidity(2) poll flag & Ext#(1) unix time(4).
function datalog(b) {
  var history = [];
  var errors = [];
  for (var i = 0; i < b.length; i += 11) {
    if (i + 11 > b.length) {
      errors.push("datalog record at byte " + i + " is truncated");
      break;
    }
    var r = { timestamp: u32(b, i + 7), temperature: i16(b, i + 2) / 100, humidity: u16(b, i + 4) / 10 };
    if ((b[i + 6] & 0x0f) === 1 && u16(b, i) !== 0x7fff) r.external_temperature = i16(b, i) / 100;
    history.push(r);
  }
  var out = { data: { history: history } };
  if (errors.length) out.errors = errors;
  return out;
}
