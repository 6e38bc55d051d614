function decodeUplink(input) {
  return { data: { open: input.bytes[0] === 1 } };
}

function encodeDownlink(input) {
  if (typeof input.data.seconds !== "number" || input.data.seconds < 0 || input.data.seconds > 255) {
    return { errors: ["seconds must be a number from 0 to 255"] };
  }
  return { bytes: [input.data.buzzer ? 1 : 0, input.data.seconds], fPort: 10, warnings: [], errors: [] };
}

function decodeDownlink(input) {
  return { data: { buzzer: input.bytes[0] === 1, seconds: input.bytes[1] } };
}
