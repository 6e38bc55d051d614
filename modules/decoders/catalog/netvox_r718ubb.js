// @key netvox_r718ubb
// @name Netvox R718UBB (multifunctional: temperature, humidity, CO2, pressure, light, PM, TVOC)
// @devices R718UBB
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); examples of Netvox's codec in TheThingsNetwork/lorawan-devices vendor/netvox/r718ubb-codec.yaml (payload/r718ub.js)
// @include netvox
// @include netvox_r718ubb
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
// Device fields: report 1: temperature °C (0.01), humidity %RH (0.01), co2 ppm, shock_event; report 2:
//   air_pressure hPa (0.01), illuminance lux; report 3: pm2_5, pm10 µg/m³, tvoc
// More configuration responses: CalibrateCO2Rsp, SetShockSensorSensitivityRsp (success);
//   GetShockSensorSensitivityRsp (shock_sensor_sensitivity)

function decodeUplink(input) {
  return nvDecode(input, [NV_R718UBB]);
}
