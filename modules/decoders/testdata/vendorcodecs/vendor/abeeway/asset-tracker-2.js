// Abeeway Asset Tracker 2 uplink decoder in the style of Abeeway's codec
// (lorawan-devices vendor/abeeway/asset-tracker-2.js): the common header
// (message type, status, battery, temperature, ack token) in the codec's
// camelCase names and upper-case states, the payload as hex, then the GPS
// fix of a position message or the type of an event. Reduced to what the
// examples use.
var MODES = ["STAND_BY", "MOTION_TRACKING", "PERMANENT_TRACKING", "MOTION_START_END_TRACKING", "ACTIVITY_TRACKING", "OFF"];
var EVENT_TYPES = ["GEOLOC_START", "MOTION_START", "MOTION_END"];

function step(v, lo, hi) {
  return (v * (hi - lo)) / 255 + lo;
}

function fixed(v, digits) {
  return Number(v.toFixed(digits));
}

function decodeUplink(input) {
  var b = input.bytes;
  var hex = "";
  for (var i = 0; i < b.length; i++) hex += (b[i] < 16 ? "0" : "") + b[i].toString(16);
  var mode = MODES[b[1] >> 5];
  var data = {
    payload: hex,
    ackToken: b[4] >> 4,
    appState: (b[1] >> 3) & 1,
    batteryLevel: b[2],
    batteryStatus: "OPERATING",
    deviceConfiguration: { mode: mode },
    trackingMode: mode,
    dynamicMotionState: b[1] & 4 ? "MOVING" : "STATIC",
    onDemand: (b[1] & 1) === 1,
    periodicPosition: (b[1] & 2) === 2,
    sosFlag: (b[1] >> 4) & 1,
    temperatureMeasure: fixed(step(b[3], -44, 85), 1),
  };
  if (b[0] === 0x03) {
    data.messageType = "POSITION_MESSAGE";
    data.rawPositionType = "GPS";
    data.age = Math.round(step(b[5], 0, 2040));
    data.gpsLatitude = ((b[6] << 24) | (b[7] << 16) | (b[8] << 8)) / 1e7;
    data.gpsLongitude = ((b[9] << 24) | (b[10] << 16) | (b[11] << 8)) / 1e7;
    data.horizontalAccuracy = fixed(step(b[12], 0, 1000), 2);
  } else if (b[0] === 0x0a) {
    data.messageType = "EVENT";
    data.eventType = EVENT_TYPES[b[5]];
  }
  return { data: data, errors: [], warnings: [] };
}
