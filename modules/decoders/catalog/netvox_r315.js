// @key netvox_r315
// @name Netvox R315 (multi-sensor: PIR, shock, contact, temperature, humidity, light)
// @devices R315
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); Netvox's codec TheThingsNetwork/lorawan-devices vendor/netvox/payload/r315.js and its examples (r315-codec.yaml)
// @include netvox
// @include netvox_r315
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
// Device fields: report 1: function_enable and binary_sensor_report (16-bit bitmaps, as numbers),
//   temperature °C (0.01) and humidity %RH (0.5) when the sensor is on; report 2: illuminance;
//   configuration: temperature_change °C, humidity_change %RH, illuminance_change
// More configuration responses: Set...Rsp (success); GetPIREnableRsp (pir_enable),
//   GetShockSensorSensitivityRsp (internal_shock_sensitivity, external_shock_sensitivity),
//   GetIRDisableTimeRsp (ir_disable_time, ir_detection_time), GetAlarmOnTimeRsp (alarm_on_time),
//   GetDryContactPointOutTypeRsp (dry_contact_out_type), GetRestoreReportRsp (restore_report)

function decodeUplink(input) {
  return nvDecode(input, [NV_R315]);
}
