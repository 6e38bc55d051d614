// @key netvox_ra0715
// @name Netvox RA0715 / RA07 series / R72615 / R718PA / R718PB (air quality, water quality, weather)
// @devices RA07 series, R726 series, RA07xxY series, R718PA, R718PB
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); examples from Netvox's codecs in TheThingsNetwork/lorawan-devices vendor/netvox (payload/ra0715_r72615_ra0715y_r72615a.js; the R718PA's own payload/r718pa.js and r718pa-codec.yaml)
// @include netvox
// @include netvox_ra0715
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
//   voc ppm (0.1). A reading of all ones (0xFF.., no sensor fitted) is left out.
// R718PA, as Netvox's R718PA codec reads it: report 1 is pm1_0_cf, pm2_5_cf, pm10_cf µg/m³ (CF=1);
//   report 3 counts particles_0_3um in 24 bits (bytes 4-6), then particles_0_5um and particles_1_0um;
//   so2 ppm is whole (not 0.1); report 15: nitrogen, phosphorus, potassium; report 17: velocity,
//   displacement, surface (0.1; Netvox states no units)
// R718PA configuration responses (command, as Netvox names it): SetLDOSettingRsp, ORPCalibrateRsp,
//   PHCalibrateRsp, NTUCalibrateRsp, SetWireLengthRsp, SetSoilTypeRsp, SoilCalibrateRsp (success);
//   GetLDOSettingRsp (ldo_altitude, ldo_psu), GetWireLengthRsp (wire_length), GetSoilTypeRsp (soil_type)

function decodeUplink(input) {
  return nvDecode(input, [NV_RA0715]);
}
