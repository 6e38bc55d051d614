// Netvox RS485 circuit breaker interface family (RP02), for netvox_rp02 and netvox_150
// (// @include netvox first), as Netvox's codec TTN vendor/netvox/payload/rp02.js reads it. Mains
// powered: byte 3 is the breaker's RS485 address. Reports 1-4 come from a single-phase breaker,
// 0x11-0x18 from a three-phase one; values are the breaker's own numbers (Netvox states no units;
// the three-phase currents are multiplied by 10 as Netvox's codec does).

var NV_RP02 = {
  devices: { 156: "RP02" },
  noBattery: function () { return true; },
  report: function (type, b, rt, d) {
    d.breaker_rs485_address = b[3];
    switch (rt) {
      case 0x01:
        d.breaker_type = b[4];
        d.protect_status_bits = b[5];
        d.alarm_status_bits = b[6];
        d.pre_trip_status_bits = b[7];
        d.trip_status_bits = b[8];
        d.hand_auto_self_test_status = b[9];
        break;
      case 0x02:
        d.current = nvUint16(b, 4);
        d.voltage = nvUint16(b, 6);
        d.power = nvUint16(b, 8);
        d.temperature = b[10];
        break;
      case 0x03:
        d.energy = nvUint32(b, 4);
        d.frequency = b[8];
        d.power_factor = b[9];
        break;
      case 0x04:
      case 0x18:
        d.leakage_current = nvUint16(b, 4);
        d.on_off_total_count = nvUint32(b, 6);
        break;
      case 0x11:
        d.breaker_type = b[4];
        d.protect_status_bits = nvUint16(b, 5);
        d.alarm_status_bits = nvUint16(b, 7);
        d.pre_trip_status_bits = nvUint16(b, 9);
        break;
      case 0x12:
        d.trip_status_bits = nvUint16(b, 4);
        d.current_a = nvUint16(b, 6) * 10;
        d.current_b = nvUint16(b, 8) * 10;
        break;
      case 0x13:
        d.current_c = nvUint16(b, 4) * 10;
        d.voltage_a = nvUint16(b, 6);
        d.voltage_b = nvUint16(b, 8);
        d.temperature = b[10];
        break;
      case 0x14:
        d.voltage_c = nvUint16(b, 4);
        d.power_a = nvUint16(b, 6);
        d.power_b = nvUint16(b, 8);
        d.frequency = b[10];
        break;
      case 0x15:
        d.power_c = nvUint16(b, 4);
        d.energy_a = nvUint32(b, 6);
        break;
      case 0x16:
        d.energy_b = nvUint32(b, 4);
        d.power_factor_a = b[8];
        d.power_factor_c = b[9];
        d.power_factor_b = b[10];
        break;
      case 0x17:
        d.energy_c = nvUint32(b, 4);
        d.hand_auto_control_status = b[8];
        if (b[9] === 0 || b[9] === 1) d.switch_on = b[9] === 1;
        else d.on_off_status = b[9];
        break;
      default:
        return "report type " + rt + " is not documented for this device";
    }
  },
  // The breaker's settings, trip counts and alarm records, and the answers to the switching
  // commands (0x90-0x96, each giving the breaker's RS485 address), as Netvox's codec reads them.
  command: function (type, cmd, b, d) {
    var switching = { 0x90: "Off", 0x91: "On", 0x92: "OffLocked", 0x93: "ClearEnergy", 0x94: "ResetToFactory",
      0x95: "LeakageCurrentSelfTest", 0x96: "ClearErrorAlarmLog" };
    if (switching[cmd]) {
      d.command = switching[cmd];
      d.breaker_rs485_address = b[2];
      return true;
    }
    switch (cmd) {
      case 0x83: return nvStatus(d, "SetPassThroughModeRsp", b);
      case 0x84: d.command = "GetPassThroughModeRsp"; d.pass_through_mode = b[2]; return true;
      case 0x85: return nvStatus(d, "SetProtectionRsp", b);
      case 0x86:
        d.command = "GetTripCntRsp";
        d.over_load_trips = b[2];
        d.short_circuit_trips = b[3];
        d.leakage_current_trips = b[4];
        d.under_voltage_trips = b[5];
        d.over_voltage_trips = b[6];
        d.temperature_trips = b[7];
        d.remote_self_test_trips = b[8];
        d.leaking_phase_trips = b[9];
        return true;
      case 0x87:
        d.command = "GetAlarmInfoRsp";
        d.alarm_current = nvUint16(b, 2);
        d.alarm_leakage_current = nvUint16(b, 4);
        d.alarm_voltage = nvUint16(b, 6);
        d.alarm_temperature = b[8];
        return true;
      case 0x88:
        d.command = "GetAlarmInfoRsp1";
        d.alarm_current_a = nvUint16(b, 2);
        d.alarm_current_b = nvUint16(b, 4);
        d.alarm_current_c = nvUint16(b, 6);
        d.alarm_current_h = nvUint16(b, 8);
        return true;
      case 0x89:
        d.command = "GetAlarmInfoRsp2";
        d.alarm_leakage_current = nvUint16(b, 2);
        d.alarm_voltage_a = nvUint16(b, 4);
        d.alarm_voltage_b = nvUint16(b, 6);
        d.alarm_voltage_c = nvUint16(b, 8);
        return true;
      case 0x8a: d.command = "GetAlarmInfoRsp3"; d.alarm_temperature = b[2]; return true;
    }
    return false;
  },
  config: function (type, b, d) {
    delete d.battery_change;
  },
};
