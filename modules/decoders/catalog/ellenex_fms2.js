// @key ellenex_fms2
// @name Ellenex FMS2-L (flow meter interface: pressure and pulse counter)
// @devices FMS2-L
// @source Ellenex FMS2-L datasheet and Ellenex's T2 uplink decoder (uplinkdecoder-t2.js in TheThingsNetwork/lorawan-devices vendor/ellenex), https://www.ellenex.com/ellenex-lorawan-products
//
// 8-byte uplink whose byte 0 says the frame type. Type 0x80: bytes 1-2 the pressure reading (signed
// 16-bit, big endian, the transmitter's unit), bytes 3-6 the pulse counter (unsigned 32-bit, big
// endian), byte 7 the battery voltage in 0.1 V. Ellenex documents no other frame type for this device.
//
// Output: frame_type, pressure, pulse_count, battery_voltage (V).

function decodeUplink(input) {
  var b = (input && input.bytes) || [];
  var data = {};
  if (b.length !== 8) {
    return { data: data, errors: ["Ellenex uplinks are 8 bytes, this one has " + b.length] };
  }
  data.frame_type = b[0] & 0xff;
  if (data.frame_type !== 0x80) {
    data.battery_voltage = (b[7] & 0xff) / 10;
    return { data: data, errors: ["frame type 0x" + data.frame_type.toString(16) + " is not documented for the FMS2-L"] };
  }
  var p = ((b[1] & 0xff) << 8) | (b[2] & 0xff);
  data.pressure = p >= 0x8000 ? p - 0x10000 : p;
  data.pulse_count = (b[3] & 0xff) * 16777216 + (b[4] & 0xff) * 65536 + (b[5] & 0xff) * 256 + (b[6] & 0xff);
  data.battery_voltage = (b[7] & 0xff) / 10;
  return { data: data };
}
