// Ellenex PTS2-L uplink decoder in the style of Ellenex' codec
// (lorawan-devices vendor/ellenex/pts2-l.js): fPort 15, 8 bytes, the
// reading a signed 16-bit number in bytes 3-4 and the battery in tenths of
// a volt in byte 7.
function decodeUplink(input) {
  if (input.fPort !== 15) {
    return { errors: ["Unknown FPort: please use fPort 15"] };
  }
  var b = input.bytes;
  if (b.length !== 8) {
    return { errors: ["Invalid uplink payload: length is not 8 byte"] };
  }
  var raw = (b[3] << 8) | b[4];
  return { data: { pressure: raw & 0x8000 ? raw - 0x10000 : raw, batteryVoltage: Math.round(b[7]) / 10 } };
}
