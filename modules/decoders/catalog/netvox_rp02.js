// @key netvox_rp02
// @name Netvox RP02 (RS485 circuit breaker interface)
// @devices RP02
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); Netvox's codec TheThingsNetwork/lorawan-devices vendor/netvox/payload/rp02.js and its examples (rp02-codec.yaml)
// @include netvox
// @include netvox_rp02
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
// Mains powered: no battery fields; every report gives breaker_rs485_address. Device fields, the
//   breaker's own numbers (Netvox states no units): single phase, reports 1-4: breaker_type,
//   protect_status_bits, alarm_status_bits, pre_trip_status_bits, trip_status_bits,
//   hand_auto_self_test_status; current, voltage, power, temperature; energy, frequency,
//   power_factor; leakage_current, on_off_total_count. Three phase, reports 0x11-0x18: the same
//   with _a, _b, _c per phase (current_a.. as Netvox's codec gives them, ×10), switch_on (or
//   on_off_status when neither 0 nor 1), hand_auto_control_status
// More configuration responses: SetPassThroughModeRsp, SetProtectionRsp (success);
//   GetPassThroughModeRsp (pass_through_mode), GetTripCntRsp (over_load_trips, short_circuit_trips,
//   leakage_current_trips, under_voltage_trips, over_voltage_trips, temperature_trips,
//   remote_self_test_trips, leaking_phase_trips), GetAlarmInfoRsp (alarm_current,
//   alarm_leakage_current, alarm_voltage, alarm_temperature), GetAlarmInfoRsp1 (alarm_current_a, _b,
//   _c, _h), GetAlarmInfoRsp2 (alarm_leakage_current, alarm_voltage_a, _b, _c), GetAlarmInfoRsp3
//   (alarm_temperature); the answers to Off, On, OffLocked, ClearEnergy, ResetToFactory,
//   LeakageCurrentSelfTest, ClearErrorAlarmLog give breaker_rs485_address

function decodeUplink(input) {
  return nvDecode(input, [NV_RP02]);
}
