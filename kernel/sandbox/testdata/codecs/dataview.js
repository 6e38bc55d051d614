// DataView for floats and wide integers, big and little endian.
function decodeUplink(input) {
  var buf = new ArrayBuffer(input.bytes.length);
  var u8 = new Uint8Array(buf);
  for (var i = 0; i < input.bytes.length; i++) u8[i] = input.bytes[i];
  var v = new DataView(buf);
  if (v.byteLength < 16) {
    return { errors: ["need 16 bytes, got " + v.byteLength] };
  }
  return {
    data: {
      pressure_be: v.getFloat32(0, false),
      pressure_le: v.getFloat32(0, true),
      energy: Number(v.getBigUint64(4, false)),
      energy_text: v.getBigUint64(4, false).toString(),
      current: v.getInt32(12, true) / 1000,
      rounded: Math.round(v.getFloat32(0) * 100) / 100
    }
  };
}
