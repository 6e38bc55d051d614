// Netvox air quality, water quality and weather family (RA07 series, R726 series, RA07xxY series,
// R718PA, R718PB), for netvox_ra0715 and netvox_150 (// @include netvox first). The readings are
// the RA0715 codec's (TTN vendor/netvox/payload/ra0715_r72615_ra0715y_r72615a.js), except where
// Netvox's R718PA codec (TTN vendor/netvox/payload/r718pa.js) reads the R718PA otherwise: report 1
// is the CF=1 particulate matter, report 3 counts 0.3 µm particles in 24 bits, SO2 is whole ppm,
// and reports 15 and 17 exist.

var NV_R718PA = 87;

var NV_RA0715 = {
  devices: { 5: "RA07 series", 9: "R726 series", 13: "RA07xxY series", 87: "R718PA", 88: "R718PB" },
  report: function (type, b, rt, d) {
    var s1 = nvUint16(b, 4), s2 = nvUint16(b, 6), s3 = nvUint16(b, 8);
    var some = function (raw, key, value) { if (raw !== 0xffff) d[key] = value; };
    var signed = function (raw) { return raw >= 0x8000 ? raw - 0x10000 : raw; };
    var pa = type === NV_R718PA;
    switch (rt) {
      case 1:
        if (pa) { some(s1, "pm1_0_cf", s1); some(s2, "pm2_5_cf", s2); some(s3, "pm10_cf", s3); break; }
        some(s1, "pm1_0", s1); some(s2, "pm2_5", s2); some(s3, "pm10", s3); break;
      case 2: some(s1, "pm1_0", s1); some(s2, "pm2_5", s2); some(s3, "pm10", s3); break;
      case 3:
        if (pa) {
          var n03 = (b[4] << 16) | (b[5] << 8) | b[6];
          if (n03 !== 0xffffff) d.particles_0_3um = n03;
          some(nvUint16(b, 7), "particles_0_5um", nvUint16(b, 7));
          some(nvUint16(b, 9), "particles_1_0um", nvUint16(b, 9));
          break;
        }
        some(s1, "particles_0_3um", s1); some(s2, "particles_0_5um", s2); some(s3, "particles_1_0um", s3); break;
      case 4: some(s1, "particles_2_5um", s1); some(s2, "particles_5_0um", s2); some(s3, "particles_10um", s3); break;
      case 5: some(s1, "o3", s1 / 10); some(s2, "co", s2 / 10); some(s3, "no", s3 / 10); break;
      case 6: some(s1, "no2", s1 / 10); some(s2, "so2", pa ? s2 : s2 / 10); some(s3, "h2s", s3 / 10); break;
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
        var p = nvUint32(b, 6);
        if (p !== 0xffffffff) d.atmospheric_pressure = p / 100;
        break;
      case 14: some(s1, "voc", s1 / 10); break;
      case 15:
        if (!pa) return "report type " + rt + " is not documented for this device";
        some(s1, "nitrogen", s1); some(s2, "phosphorus", s2); some(s3, "potassium", s3); break;
      case 17:
        if (!pa) return "report type " + rt + " is not documented for this device";
        some(s1, "velocity", s1 / 10); some(s2, "displacement", s2 / 10); some(s3, "surface", s3 / 10); break;
      default: return "report type " + rt + " is not documented for this device";
    }
  },
  // The R718PA's sensor settings (Netvox's R718PA codec); the RA07 series has none.
  command: function (type, cmd, b, d) {
    if (type !== NV_R718PA) return false;
    switch (cmd) {
      case 0x83: return nvStatus(d, "SetLDOSettingRsp", b);
      case 0x84: d.command = "GetLDOSettingRsp"; d.ldo_altitude = nvUint16(b, 2); d.ldo_psu = nvUint16(b, 4); return true;
      case 0x85: return nvStatus(d, "ORPCalibrateRsp", b);
      case 0x86: return nvStatus(d, "PHCalibrateRsp", b);
      case 0x87: return nvStatus(d, "NTUCalibrateRsp", b);
      case 0x88: return nvStatus(d, "SetWireLengthRsp", b);
      case 0x89: d.command = "GetWireLengthRsp"; d.wire_length = nvUint16(b, 2); return true;
      case 0x8a: return nvStatus(d, "SetSoilTypeRsp", b);
      case 0x8b: d.command = "GetSoilTypeRsp"; d.soil_type = b[2]; return true;
      case 0x8c: return nvStatus(d, "SoilCalibrateRsp", b);
    }
    return false;
  },
  config: function (type, b, d) {
    delete d.battery_change;
  },
};
