// Codecs that throw instead of returning errors: the caller sees a failed
// decode.
function decodeUplink(input) {
  if (input.fPort === 0) {
    throw new Error("port 0 carries MAC commands only");
  }
  if (input.fPort === 7) {
    throw "a string, not an Error";
  }
  var header = input.bytes[0];
  var body = input.bytes.slice(1);
  var lookup = { 1: { scale: 10 }, 2: { scale: 100 } };
  // A header the table lacks makes lookup[header] undefined: a TypeError.
  return { data: { value: body[0] / lookup[header].scale } };
}
