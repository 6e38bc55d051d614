// @key dragino_lsn50v2
// @name Dragino LSN50v2 (generic node, work modes 1-8)
// @devices LSN50v2, LSN50v2-D20, LSN50-v2-S31 in MOD 1
// @source Dragino LSN50v2 LoRaWAN Sensor Node User Manual (wiki.dragino.com), section 2.3 "Uplink Payload" (MOD=1 to MOD=8)
//
// fPort 2, big endian. Byte 6 carries the work mode in bits 6..2 (MOD = value + 1),
// the door/PA4 level in bit 7, the digital input in bit 1 and the interrupt flag
// in bit 0; the other bytes depend on the mode.

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]); }

var LENGTHS = { 1: 11, 2: 11, 3: 12, 4: 11, 5: 11, 6: 11, 7: 11, 8: 11 };

// ds18b20 reads a probe temperature in 0.1 °C; 0x7FFF means no probe.
function ds18b20(d, key, b, i) {
  if (u16(b, i) !== 0x7fff) d[key] = i16(b, i) / 10;
}

// sht reads the I2C sensor: SHT temperature and humidity, or a BH1750
// illumination when the humidity word is zero.
function sht(d, b) {
  if (u16(b, 9) === 0) {
    d.illumination = u16(b, 7);
    return;
  }
  if (u16(b, 7) !== 0x7fff && u16(b, 7) !== 0xffff) d.sht_temperature = i16(b, 7) / 10;
  if (u16(b, 9) !== 0xffff) d.sht_humidity = u16(b, 9) / 10;
}

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (input.fPort !== 2) return { data: d, errors: ["unknown fPort " + input.fPort] };
  if (b.length < 7) return { data: d, errors: ["payload is " + b.length + " bytes, want 11 or 12"] };
  var mode = ((b[6] & 0x7c) >> 2) + 1;
  d.work_mode = mode;
  if (!LENGTHS[mode]) return { data: d, errors: ["work mode " + mode + " is not decoded"] };
  if (b.length < LENGTHS[mode]) return { data: d, errors: ["MOD=" + mode + " payload is " + b.length + " bytes, want " + LENGTHS[mode]] };
  d.digital_in = (b[6] & 0x02) !== 0;
  if (mode !== 6 && mode !== 7) {
    d.exti_trigger = (b[6] & 0x01) !== 0;
    d.door_open = (b[6] & 0x80) === 0;
  }
  if (mode === 3) {
    d.adc_ch0_voltage = u16(b, 0) / 1000;
    d.adc_ch1_voltage = u16(b, 2) / 1000;
    d.adc_ch4_voltage = u16(b, 4) / 1000;
    sht(d, b);
    d.battery_voltage = b[11] / 10;
    return { data: d };
  }
  d.battery_voltage = u16(b, 0) / 1000;
  ds18b20(d, "temperature_1", b, 2);
  d.adc_ch0_voltage = u16(b, 4) / 1000;
  switch (mode) {
    case 1:
      sht(d, b);
      break;
    case 2:
      if (u16(b, 7) !== 0) d.distance_mm = u16(b, 7);
      if (u16(b, 9) !== 0xffff) d.distance_signal_strength = u16(b, 9);
      break;
    case 4:
      ds18b20(d, "temperature_2", b, 7);
      ds18b20(d, "temperature_3", b, 9);
      break;
    case 5:
      // HX711 weight in grams, sent as bytes 9,10,7,8 from high to low.
      d.weight = ((b[9] << 24) | (b[10] << 16) | (b[7] << 8) | b[8]) | 0;
      break;
    case 6:
      d.count = u32(b, 7);
      break;
    case 7:
      d.exti1_trigger = (b[6] & 0x01) !== 0;
      d.exti1_closed = (b[6] & 0x80) !== 0;
      d.exti2_trigger = (b[7] & 0x10) !== 0;
      d.exti2_closed = (b[7] & 0x01) !== 0;
      d.exti3_trigger = (b[8] & 0x10) !== 0;
      d.exti3_closed = (b[8] & 0x01) !== 0;
      break;
    case 8:
      d.adc_ch1_voltage = u16(b, 7) / 1000;
      d.adc_ch4_voltage = u16(b, 9) / 1000;
      break;
  }
  return { data: d };
}
