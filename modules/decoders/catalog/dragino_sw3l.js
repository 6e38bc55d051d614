// @key dragino_sw3l
// @name Dragino SW3L (water flow sensor)
// @devices SW3L
// @source Dragino SW3L LoRaWAN Outdoor Flow Sensor User Manual (wiki.dragino.com), sections 2.3 "Uplink Payload" and 2.3.1 "Device Status"; fPort 4 from Dragino's codecs TTN vendor/dragino/sw3l.js (and its example in sw3l-codec.yaml) and github.com/dragino/dragino-end-node-decoder "SW3L/SW3L Decoder TTN.txt"
//
// fPort 2, big endian: calculate flag & alarm(1) pulse count(4) MOD(1)
// reserved(1) unix time(4). fPort 4: the device's configuration, sent when
// asked for: TDC(3) reserved(1) stop timer(1) alarm timer(2), as Dragino's
// decoders read it (tdc, stop_timer, alarm_timer, the configured numbers; the
// decoders state no unit). fPort 5: device status.

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function u32(b, i) { return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]); }

var BANDS = { 1: "EU868", 2: "US915", 3: "IN865", 4: "AU915", 5: "KZ865", 6: "RU864", 7: "AS923", 8: "AS923_1", 9: "AS923_2", 10: "AS923_3", 11: "CN470", 12: "EU433", 13: "KR920", 14: "MA869", 15: "AS923_4" };
// Pulses per litre of the flow meter named by the calculate flag.
var PULSES_PER_LITRE = { 0: 450, 1: 360, 2: 60 };

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort === 2) {
    if (b.length < 11) return { data: d, errors: ["payload is " + b.length + " bytes, want 11"] };
    var flag = (b[0] & 0xfc) >> 2;
    var pulses = u32(b, 1);
    d.calculate_flag = flag;
    d.alarm = (b[0] & 0x02) !== 0;
    d.mode = b[5];
    // MOD 1 counts the pulses since the last uplink, otherwise the total.
    if (b[5] === 1) d.last_pulse = pulses;
    else d.total_pulse = pulses;
    if (PULSES_PER_LITRE[flag]) d.water_flow_l = Math.round((pulses / PULSES_PER_LITRE[flag]) * 1000) / 1000;
    d.timestamp = u32(b, 7);
    return { data: d };
  }
  if (input.fPort === 4) {
    if (b.length < 7) return { data: d, errors: ["configuration is " + b.length + " bytes, want 7"] };
    d.tdc = (b[0] << 16) | (b[1] << 8) | b[2];
    d.stop_timer = b[4];
    d.alarm_timer = u16(b, 5);
    return { data: d };
  }
  if (input.fPort === 5) {
    if (b.length < 7) return { data: d, errors: ["device status is " + b.length + " bytes, want 7"] };
    d.sensor_model = b[0];
    d.firmware_version = "v" + (b[1] & 0x0f) + "." + (b[2] >> 4) + "." + (b[2] & 0x0f);
    d.frequency_band = BANDS[b[3]] || "unknown";
    if (b[4] !== 0xff) d.sub_band = b[4];
    d.battery_voltage = u16(b, 5) / 1000;
    return { data: d };
  }
  return { data: d, errors: ["unknown fPort " + input.fPort] };
}
