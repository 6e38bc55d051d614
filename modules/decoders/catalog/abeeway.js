// @key abeeway
// @name Abeeway trackers (firmware 2.x)
// @devices Abeeway Micro Tracker, Smart Badge, Industrial Tracker, Compact Tracker, Asset Tracker 2
// @source Abeeway Trackers Reference Guide FW 2.1 (uplink common header, position, heartbeat, event and frame pending messages)
//
// Common header (every message but frame pending): type(1) status(1)
// battery(1) temperature(1) ack token & optional data(1). The status byte holds
// the operating mode (bits 7..5), SOS (4), tracking/idle (3), moving (2),
// periodic position (1) and on-demand position (0). Scaled values follow the
// guide's encoding: value = x * (hi - lo) / (2^bits - 1) + lo.

var MESSAGE_TYPES = { 0x00: "frame_pending", 0x03: "position", 0x04: "energy_status", 0x05: "heartbeat", 0x07: "activity_status", 0x09: "shutdown", 0x0a: "event", 0x0b: "collection_scan", 0x0e: "extended_position", 0x0f: "debug" };
var MODES = ["standby", "motion_tracking", "permanent_tracking", "motion_start_end_tracking", "activity_tracking", "off"];
var POSITION_TYPES = { 0: "gps", 1: "gps_timeout", 2: "no_data", 3: "wifi_timeout", 4: "wifi_failure", 5: "lp_gps", 6: "lp_gps_timeout", 7: "ble_scan", 8: "ble_failure", 9: "wifi_bssid" };
var EVENTS = ["geoloc_start", "motion_start", "motion_end", "ble_connected", "ble_disconnected", "temperature_alert", "ble_bond_deleted", "sos_start", "sos_stop", "proximity_alert", "proximity_warning", "proximity_release"];

function scaled(v, lo, hi) { return (v * (hi - lo)) / 255 + lo; }
function round(v, d) { var p = Math.pow(10, d); return Math.round(v * p) / p; }
function hex2(n) { return (n < 16 ? "0" : "") + n.toString(16); }

// macList reads records of a 6-byte MAC address and a signed RSSI in dBm.
function macList(b, i) {
  var list = [];
  for (; i + 7 <= b.length; i += 7) {
    var mac = [];
    for (var k = 0; k < 6; k++) mac.push(hex2(b[i + k]));
    list.push({ mac: mac.join(":"), rssi: (b[i + 6] << 24) >> 24 });
  }
  return list;
}

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (b.length < 1) return { data: d, errors: ["empty payload"] };
  d.message_type = MESSAGE_TYPES[b[0]] || "unknown";
  if (b[0] === 0x00) {
    if (b.length < 2) return { data: d, errors: ["frame pending needs 2 bytes, got 1"] };
    d.token = b[1];
    return { data: d };
  }
  if (b.length < 5) return { data: d, errors: ["header needs 5 bytes, got " + b.length] };
  d.operating_mode = MODES[b[1] >> 5] || "unknown";
  d.sos = (b[1] & 0x10) !== 0;
  d.tracking_active = (b[1] & 0x08) !== 0;
  d.moving = (b[1] & 0x04) !== 0;
  d.periodic_position = (b[1] & 0x02) !== 0;
  d.on_demand = (b[1] & 0x01) !== 0;
  // 0: on charge, 255: level unknown, else the level as the guide scales it (1-254).
  if (b[2] === 0) d.battery_status = "charging";
  else if (b[2] === 255) d.battery_status = "unknown";
  else { d.battery_status = "operating"; d.battery_level = b[2]; }
  d.temperature = round(scaled(b[3], -44, 85), 1);
  d.ack_token = b[4] >> 4;
  var warnings = [];
  switch (b[0]) {
    case 0x03: {
      var type = b[4] & 0x0f;
      d.position_type = POSITION_TYPES[type] || "unknown";
      if (type === 0) {
        if (b.length < 13) return { data: d, errors: ["GPS fix position needs 13 bytes, got " + b.length] };
        d.age_s = round(scaled(b[5], 0, 2040), 0);
        // 24-bit latitude and longitude, the low byte of the 32-bit value omitted.
        d.latitude = ((b[6] << 24) | (b[7] << 16) | (b[8] << 8)) / 1e7;
        d.longitude = ((b[9] << 24) | (b[10] << 16) | (b[11] << 8)) / 1e7;
        d.ehpe_m = round(scaled(b[12], 0, 1000), 2);
      } else if (type === 1) {
        if (b.length < 10) return { data: d, errors: ["GPS timeout position needs 10 bytes, got " + b.length] };
        d.gps_timeout_cause = b[5];
        d.satellites_cn0 = [b[6], b[7], b[8], b[9]];
      } else if (type === 7 || type === 9) {
        if (b.length < 6) return { data: d, errors: ["scan position needs at least 6 bytes, got " + b.length] };
        d.age_s = round(scaled(b[5], 0, 2040), 0);
        d[type === 7 ? "ble_beacons" : "wifi_bssids"] = macList(b, 6);
        if ((b.length - 6) % 7 !== 0) warnings.push("trailing bytes after the last scan record");
      } else if (type !== 2 && type !== 3 && type !== 4 && type !== 8) {
        warnings.push("position type " + type + " is not decoded");
      }
      break;
    }
    case 0x05:
      if (b.length >= 12) {
        d.last_reset_cause = b[5];
        d.firmware_version = b[6] + "." + b[7] + "." + b[8];
        d.ble_firmware_version = b[9] + "." + b[10] + "." + b[11];
      }
      break;
    case 0x0a:
      if (b.length < 6) return { data: d, errors: ["event needs 6 bytes, got " + b.length] };
      d.event_type = EVENTS[b[5]] || "unknown";
      break;
    case 0x04:
    case 0x09:
      break;
    default:
      warnings.push("message type 0x" + hex2(b[0]) + ": only the common header is decoded");
  }
  var out = { data: d };
  if (warnings.length) out.warnings = warnings;
  return out;
}
