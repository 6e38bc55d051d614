// @key milesight_uc300
// @name Milesight UC300 (IoT controller)
// @devices UC300
// @source Milesight UC300 payload definition and decoder (Milesight-IoT SensorDecoders, UC_Series/UC300 README and UC300_Decoder.js), https://github.com/Milesight-IoT/SensorDecoders; the older Modbus packing and its example from Milesight's codec in TheThingsNetwork/lorawan-devices vendor/milesight-iot/uc300.js
// @include milesight
//
// Milesight channel/type format: a sequence of [channel id][channel type][value],
// multi-byte values little endian. Units as documented: battery %, temperature
// °C, humidity %RH, pressure hPa unless the key says otherwise. Modbus channels
// come as modbus_chn_<n> (n = channel id + 1), a read error as modbus_chn_<n>_alarm.
// Decoder variable modbus_header: "packed" reads Modbus values in the older packing
// of Milesight's 2022 codec (see ff19); by default the README's layout.

function i32(b, i) { var v = u32(b, i); return v > 0x7fffffff ? v - 0x100000000 : v; }
function f32(b, i) {
  var view = new DataView(new ArrayBuffer(4));
  for (var k = 0; k < 4; k++) view.setUint8(k, b[i + k]);
  return view.getFloat32(0, true);
}
// IEEE 754 half precision, little endian.
function f16(b, i) {
  var h = u16(b, i);
  var sign = h & 0x8000 ? -1 : 1;
  var exp = (h >> 10) & 0x1f;
  var frac = h & 0x3ff;
  if (exp === 0) return sign * Math.pow(2, -14) * (frac / 1024);
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * Math.pow(2, exp - 15) * (1 + frac / 1024);
}

function stats(d, name, b, i, read) {
  d[name] = read(b, i);
  d[name + "_max"] = read(b, i + 2);
  d[name + "_min"] = read(b, i + 4);
  d[name + "_avg"] = read(b, i + 6);
}

// UC_PACKED: this uplink's Modbus values use the older one-byte header (see ff19).
var UC_PACKED = false;

// ucPackedSize: the value's length for a type of the older packing, as Milesight's
// 2022 codec steps over it.
function ucPackedSize(type) {
  return type <= 1 ? 1 : type <= 3 ? 2 : 4;
}

// ucModbusValue reads a Modbus register value of the register type (MB_COIL 0,
// MB_DISCRETE 1, INT16 2-3, INT32 4 and 6, FLOAT 5 and 7, the high (AB, 8 and 10)
// or low (CD, 9 and 11) word of an INT32) as Milesight's UC300_Decoder.js does;
// a value shorter than its type leaves the channel out.
function ucModbusValue(d, name, type, signed, b, at, size) {
  switch (type) {
    case 0x00:
      if (size >= 1) d[name] = u8(b, at) === 1;
      break;
    case 0x01:
      if (size >= 1) d[name] = signed && u8(b, at) > 0x7f ? u8(b, at) - 0x100 : u8(b, at);
      break;
    case 0x02: case 0x03: case 0x08: case 0x0a:
      if (size >= 2) d[name] = signed ? i16(b, at) : u16(b, at);
      break;
    case 0x09: case 0x0b:
      if (size >= 4) d[name] = signed ? i16(b, at + 2) : u16(b, at + 2);
      break;
    case 0x05: case 0x07:
      if (size >= 4) d[name] = f32(b, at);
      break;
    default:
      if (size >= 4) d[name] = signed ? i32(b, at) : u32(b, at);
  }
}

var CHANNELS = {
  "0300": { len: 1, read: function (b, i, d) { d.gpio_in_1 = u8(b, i) === 1; } },
  "03c8": { len: 4, read: function (b, i, d) { d.counter_1 = u32(b, i); } },
  "0400": { len: 1, read: function (b, i, d) { d.gpio_in_2 = u8(b, i) === 1; } },
  "04c8": { len: 4, read: function (b, i, d) { d.counter_2 = u32(b, i); } },
  "0500": { len: 1, read: function (b, i, d) { d.gpio_in_3 = u8(b, i) === 1; } },
  "05c8": { len: 4, read: function (b, i, d) { d.counter_3 = u32(b, i); } },
  "0600": { len: 1, read: function (b, i, d) { d.gpio_in_4 = u8(b, i) === 1; } },
  "06c8": { len: 4, read: function (b, i, d) { d.counter_4 = u32(b, i); } },
  "0701": { len: 1, read: function (b, i, d) { d.gpio_out_1 = u8(b, i) === 1; } },
  "0801": { len: 1, read: function (b, i, d) { d.gpio_out_2 = u8(b, i) === 1; } },
  "0967": { len: 2, read: function (b, i, d) { d.pt100_1 = i16(b, i) / 10; } },
  "0a67": { len: 2, read: function (b, i, d) { d.pt100_2 = i16(b, i) / 10; } },
  // Analog inputs: current in mA and voltage in V, both in hundredths.
  "0b02": { len: 4, read: function (b, i, d) { d.adc_1 = i32(b, i) / 100; } },
  "0c02": { len: 4, read: function (b, i, d) { d.adc_2 = i32(b, i) / 100; } },
  "0d02": { len: 4, read: function (b, i, d) { d.adv_1 = i32(b, i) / 100; } },
  "0e02": { len: 4, read: function (b, i, d) { d.adv_2 = i32(b, i) / 100; } },
  // Statistics: current, max, min, average.
  "09e2": { len: 8, read: function (b, i, d) { stats(d, "pt100_1", b, i, function (b, i) { return i16(b, i) / 10; }); } },
  "0ae2": { len: 8, read: function (b, i, d) { stats(d, "pt100_2", b, i, function (b, i) { return i16(b, i) / 10; }); } },
  "0be2": { len: 8, read: function (b, i, d) { stats(d, "adc_1", b, i, f16); } },
  "0ce2": { len: 8, read: function (b, i, d) { stats(d, "adc_2", b, i, f16); } },
  "0de2": { len: 8, read: function (b, i, d) { stats(d, "adv_1", b, i, f16); } },
  "0ee2": { len: 8, read: function (b, i, d) { stats(d, "adv_2", b, i, f16); } },
  // Modbus channel. The UC300 README (and Milesight's current UC300_Decoder.js) lay it
  // out as channel id, value size, data type (bit 7 signed, bits 0-6 the register
  // type), value. Milesight's 2022 codec (TTN vendor/milesight-iot/uc300.js) reads an
  // older packing: channel id, one byte with the type in bits 0-2 and the size in
  // bits 3-7, value; a node whose decoder variable modbus_header is "packed" is read so.
  "ff19": {
    len: function (b, i) {
      if (i + 2 > b.length) return -1;
      if (UC_PACKED) return 2 + ucPackedSize(u8(b, i + 1) & 0x07);
      return 3 + u8(b, i + 1);
    },
    read: function (b, i, d, len) {
      var name = "modbus_chn_" + (u8(b, i) + 1);
      if (UC_PACKED) {
        ucModbusValue(d, name, u8(b, i + 1) & 0x07, false, b, i + 2, len - 2);
        return;
      }
      var type = u8(b, i + 2);
      ucModbusValue(d, name, type & 0x7f, (type & 0x80) !== 0, b, i + 3, u8(b, i + 1));
    },
  },
  "ff15": { len: 1, read: function (b, i, d) { d["modbus_chn_" + (u8(b, i) + 1) + "_alarm"] = "read error"; } },
};

function decodeUplink(input) {
  UC_PACKED = !!(input && input.variables && input.variables.modbus_header === "packed");
  return msDecode(input);
}
