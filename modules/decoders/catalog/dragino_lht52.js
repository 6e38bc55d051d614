// @key dragino_lht52
// @name Dragino LHT52 (temperature & humidity)
// @devices LHT52
// @source Dragino LHT52 LoRaWAN Temperature & Humidity Sensor User Manual (wiki.dragino.com), sections 2.4 "Uplink Payload" and 2.4.1 "Device Status"
//
// fPort 2: temperature(2) humidity(2) external temperature(2) Ext#(1) unix time(4),
// big endian. fPort 5: device status.

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]); }

var BANDS = { 1: "EU868", 2: "US915", 3: "IN865", 4: "AU915", 5: "KZ865", 6: "RU864", 7: "AS923", 8: "AS923_1", 9: "AS923_2", 10: "AS923_3", 11: "CN470", 12: "EU433", 13: "KR920", 14: "MA869", 15: "AS923_4" };

function decodeUplink(input) {
  var b = input.bytes || [];
  var data = {};
  if (input.fPort === 2) {
    if (b.length !== 11) return { data: data, errors: ["payload is " + b.length + " bytes, want 11"] };
    data.temperature = i16(b, 0) / 100;
    data.humidity = u16(b, 2) / 10;
    // 0x7FFF: no external probe connected.
    if (u16(b, 4) !== 0x7fff) data.external_temperature = i16(b, 4) / 100;
    data.ext = b[6];
    data.timestamp = u32(b, 7);
    return { data: data };
  }
  if (input.fPort === 5) {
    if (b.length < 7) return { data: data, errors: ["device status is " + b.length + " bytes, want 7"] };
    data.sensor_model = b[0];
    data.firmware_version = "v" + (b[1] & 0x0f) + "." + (b[2] >> 4) + "." + (b[2] & 0x0f);
    data.frequency_band = BANDS[b[3]] || "unknown";
    if (b[4] !== 0xff) data.sub_band = b[4];
    data.battery_voltage = u16(b, 5) / 1000;
    return { data: data };
  }
  return { data: data, errors: ["unknown fPort " + input.fPort] };
}
