function decodeUplink(input) {
  if (input.fPort !== 3) return { errors: ["unknown fPort " + input.fPort] };
  return { data: { lux: (input.bytes[0] << 8) | input.bytes[1] } };
}
