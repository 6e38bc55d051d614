// @key netvox_150
// @name Netvox (common report format, every device type of the Netvox keys)
// @devices R711, R311A, RA07 series, R311W, R726 series, R718A, RA07xxY series, R718AB, R718DA, R718DB, R718F, R718IA, R718J, R718LB, R718MBA, R718IB, R718N1, R718N3, R311FA, R718PA, R718PB, R718Q, R720A, R730IA, R730IB, R730F, R730MBA, R730DA, R730DB, R730LB, R718CJ, R718CK, R718CT, R718CR, R718CE, R718B, R718QA, R311DA, R311DB, R720F
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); examples from Netvox's codecs in TheThingsNetwork/lorawan-devices vendor/netvox
// @include netvox
//
// Netvox frames are 11 bytes. fPort 6 (ReportDataCmd): version (1 byte), device type, report type,
// then 8 bytes of NetvoxPayLoadData. Report type 0 is the startup version report (software version
// in tenths, hardware version, date code); otherwise byte 3 is the battery (bits 0-6 in 0.1 V, bit 7
// the low-battery flag) and the rest depends on the device. fPort 7 (ConfigureCmd) carries the answers
// to configuration requests: 0x81 ConfigReportRsp (status), 0x82 ReadConfigReportRsp (min_time and
// max_time in s, battery_change in V, and the device's reportable changes).
//
// Common output: device_type (number), device (model name), report_type, battery_voltage (V),
// low_battery; version reports: software_version, hardware_version, date_code.
// Device fields: as the family keys: netvox_r718a, netvox_r311a, netvox_r718b, netvox_r311w, netvox_r718n1,
//   netvox_r718n3, netvox_ra0715, netvox_r718da, netvox_r718ib; the device type byte picks the family

var NV_DEVICES = {
  1: "R711",
  2: "R311A",
  5: "RA07 series",
  6: "R311W",
  9: "R726 series",
  11: "R718A",
  13: "RA07xxY series",
  19: "R718AB",
  26: "R718DA",
  27: "R718DB",
  29: "R718F",
  32: "R718IA",
  33: "R718J",
  37: "R718LB",
  39: "R718MBA",
  42: "R718IB",
  73: "R718N1",
  74: "R718N3",
  79: "R311FA",
  87: "R718PA",
  88: "R718PB",
  91: "R718Q",
  110: "R720A",
  116: "R730IA",
  117: "R730IB",
  125: "R730F",
  130: "R730MBA",
  137: "R730DA",
  139: "R730DB",
  141: "R730LB",
  144: "R718CJ",
  145: "R718CK",
  146: "R718CT",
  147: "R718CR",
  148: "R718CE",
  149: "R718B",
  151: "R718QA",
  168: "R311DA",
  169: "R311DB",
  183: "R720F"
};

// The family of each device type: an index into NV_REPORTS and NV_CONFIGS.
var NV_FAMILY = {
  1: 0,
  11: 0,
  19: 0,
  110: 0,
  2: 1,
  29: 1,
  125: 1,
  144: 2,
  145: 2,
  146: 2,
  147: 2,
  148: 2,
  149: 2,
  6: 3,
  73: 4,
  74: 5,
  5: 6,
  9: 6,
  13: 6,
  87: 6,
  88: 6,
  26: 7,
  27: 7,
  33: 7,
  37: 7,
  39: 7,
  79: 7,
  91: 7,
  130: 7,
  137: 7,
  139: 7,
  141: 7,
  151: 7,
  168: 7,
  169: 7,
  183: 7,
  32: 8,
  42: 8,
  116: 8,
  117: 8
};

var NV_REPORTS = [
  // netvox_r718a
  function (b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.temperature = nvInt16(b, 4) / 100;
    d.humidity = nvUint16(b, 6) / 100;
  },
  // netvox_r311a
  function (b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.contact_on = b[4] === 1;
  },
  // netvox_r718b
  function (b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.temperature = nvInt16(b, 4) / 10;
  },
  // netvox_r311w
  function (b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.water_leak_1 = b[4] === 1;
    d.water_leak_2 = b[5] === 1;
  },
  // netvox_r718n1
  function (b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.current = nvUint16(b, 4);
    d.multiplier = b[6];
  },
  // netvox_r718n3
  function (b, rt, d) {
    if (rt === 1) {
      d.current1 = nvUint16(b, 4);
      d.current2 = nvUint16(b, 6);
      d.current3 = nvUint16(b, 8);
      d.multiplier1 = b[10];
    } else if (rt === 2) {
      d.multiplier2 = b[4];
      d.multiplier3 = b[5];
    } else if (rt === 3) {
      var steps = [1, 5, 10, 100];
      d.current1 = nvUint16(b, 4);
      d.current2 = nvUint16(b, 6);
      d.current3 = nvUint16(b, 8);
      d.multiplier1 = steps[b[10] & 3];
      d.multiplier2 = steps[(b[10] >> 2) & 3];
      d.multiplier3 = steps[(b[10] >> 4) & 3];
    } else if (rt === 4) {
      d.low_current1_alarm = (b[4] & 1) !== 0;
      d.high_current1_alarm = (b[4] & 2) !== 0;
      d.low_current2_alarm = (b[4] & 4) !== 0;
      d.high_current2_alarm = (b[4] & 8) !== 0;
      d.low_current3_alarm = (b[4] & 16) !== 0;
      d.high_current3_alarm = (b[4] & 32) !== 0;
    } else {
      return "report type " + rt + " is not documented for this device";
    }
  },
  // netvox_ra0715
  function (b, rt, d) {
    var s1 = nvUint16(b, 4), s2 = nvUint16(b, 6), s3 = nvUint16(b, 8);
    var some = function (raw, key, value) { if (raw !== 0xffff) d[key] = value; };
    var signed = function (raw) { return raw >= 0x8000 ? raw - 0x10000 : raw; };
    switch (rt) {
      case 1:
      case 2: some(s1, "pm1_0", s1); some(s2, "pm2_5", s2); some(s3, "pm10", s3); break;
      case 3: some(s1, "particles_0_3um", s1); some(s2, "particles_0_5um", s2); some(s3, "particles_1_0um", s3); break;
      case 4: some(s1, "particles_2_5um", s1); some(s2, "particles_5_0um", s2); some(s3, "particles_10um", s3); break;
      case 5: some(s1, "o3", s1 / 10); some(s2, "co", s2 / 10); some(s3, "no", s3 / 10); break;
      case 6: some(s1, "no2", s1 / 10); some(s2, "so2", s2 / 10); some(s3, "h2s", s3 / 10); break;
      case 7: some(s1, "co2", s1 / 10); some(s2, "nh3", s2 / 10); some(s3, "noise", s3 / 10); break;
      case 8: some(s1, "ph", s1 / 100); some(s2, "ph_temperature", signed(s2) / 100); some(s3, "orp", signed(s3)); break;
      case 9: some(s1, "turbidity", s1 / 10); some(s2, "turbidity_temperature", signed(s2) / 100); some(s3, "soil_moisture_ec5", s3 / 100); break;
      case 10:
        some(s1, "soil_moisture_5te", s1 / 100); some(s2, "soil_temperature_5te", signed(s2) / 100); some(s3, "water_level", s3);
        if (b[10] !== 0xff) d.soil_ec_5te = b[10] / 10;
        break;
      case 11: some(s1, "ldo_temperature", signed(s1) / 100); some(s2, "ldo_dissolved_oxygen", s2 / 100); some(s3, "ldo_saturation", s3 / 10); break;
      case 12: some(s1, "temperature", signed(s1) / 100); some(s2, "humidity", s2 / 100); some(s3, "wind_speed", s3 / 100); break;
      case 13:
        some(s1, "wind_direction", s1);
        var p = nvUint16(b, 6) * 65536 + nvUint16(b, 8);
        if (p !== 0xffffffff) d.atmospheric_pressure = p / 100;
        break;
      case 14: some(s1, "voc", s1 / 10); break;
      default: return "report type " + rt + " is not documented for this device";
    }
  },
  // netvox_r718da
  function (b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.status = b[4];
  },
  // netvox_r718ib
  function (b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.adc_raw = nvUint16(b, 4);
  }
];

var NV_CONFIGS = [
  // netvox_r718a
  function (b, d) {
    d.temperature_change = nvUint16(b, 7) / 100;
    d.humidity_change = nvUint16(b, 9) / 100;
  },
  // netvox_r311a
  function (b, d) {
  },
  // netvox_r718b
  function (b, d) {
    d.temperature_change = nvUint16(b, 7) / 10;
  },
  // netvox_r311w
  function (b, d) {
  },
  // netvox_r718n1
  function (b, d) {
    delete d.battery_change;
    d.current_change = nvUint16(b, 6);
  },
  // netvox_r718n3
  function (b, d) {
    delete d.battery_change;
    d.current_change = nvUint16(b, 6);
  },
  // netvox_ra0715
  function (b, d) {
    delete d.battery_change;
  },
  // netvox_r718da
  function (b, d) {
  },
  // netvox_r718ib
  function (b, d) {
  }
];

function nvReport(type, b, rt, d) {
  return NV_REPORTS[NV_FAMILY[type]](b, rt, d);
}

function nvConfig(type, b, d) {
  NV_CONFIGS[NV_FAMILY[type]](b, d);
}

function decodeUplink(input) {
  return nvDecode(input);
}
