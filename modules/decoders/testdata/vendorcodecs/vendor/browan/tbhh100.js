// Browan Tabs TBHH100 uplink decoder in the style of Browan's published
// codec (lorawan-devices vendor/browan/tbhh100.js): one frame on fPort 103,
// output named as Browan names it, any other port refused. Browan's
// `status` is the first byte's upper five bits.
function decodeUplink(input) {
  if (input.fPort !== 103) {
    return { errors: ['unknown FPort'] };
  }
  var b = input.bytes;
  return {
    data: {
      status: b[0] >> 3,
      battery: (25 + (b[1] & 0x0f)) / 10,
      temperature: (b[2] & 0x7f) - 32,
      humidity: b[3] & 0x7f,
    },
  };
}
