// @key netvox_ra0715
// @name Netvox RA0715 / RA07 series / R72615 / R718PA / R718PB (air quality, water quality, weather)
// @devices RA07 series, R726 series, RA07xxY series, R718PA, R718PB
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
// Device fields: by report type: 1-2 pm1_0, pm2_5, pm10 µg/m³; 3 particles_0_3um, particles_0_5um,
//   particles_1_0um; 4 particles_2_5um, particles_5_0um, particles_10um; 5 o3, co, no ppm (0.1); 6 no2, so2,
//   h2s ppm (0.1); 7 co2 ppm (0.1), nh3 ppm (0.1), noise dB (0.1); 8 ph (0.01), ph_temperature °C (0.01), orp
//   mV; 9 turbidity NTU (0.1), turbidity_temperature °C (0.01), soil_moisture_ec5 % (0.01); 10
//   soil_moisture_5te % (0.01), soil_temperature_5te °C (0.01), water_level, soil_ec_5te (0.1); 11
//   ldo_temperature °C (0.01), ldo_dissolved_oxygen mg/L (0.01), ldo_saturation % (0.1); 12 temperature °C
//   (0.01), humidity %RH (0.01), wind_speed m/s (0.01); 13 wind_direction °, atmospheric_pressure (0.01); 14
//   voc ppm (0.1). A reading of all ones (0xFF.., no sensor fitted) is left out

var NV_DEVICES = {
  5: "RA07 series",
  9: "R726 series",
  13: "RA07xxY series",
  87: "R718PA",
  88: "R718PB"
};

function nvReport(type, b, rt, d) {
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
}

function nvConfig(type, b, d) {
  delete d.battery_change;
}

function decodeUplink(input) {
  return nvDecode(input);
}
