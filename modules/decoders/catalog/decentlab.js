// @key decentlab
// @name Decentlab (generic protocol v2: header and raw sensor words)
// @devices any Decentlab DL-* device speaking protocol v2 (for the sensor values pick the decentlab_dl_* key of the model)
// @source Decentlab uplink protocol v2, as described in Decentlab's device datasheets and payload decoders (https://www.decentlab.com/support)
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian, then the readings of the sensors whose flag bit is set, as big-endian
// unsigned 16-bit words. How many words each sensor sends, and how they convert to physical values,
// depends on the model; this decoder does not know the model, so it returns the header, the flags as a
// list of set bits, and the raw words. The model keys (decentlab_dl_pr26, ...) convert the words.
//
// Output: protocol_version, device_id, sensor_flags (number), sensors_present (bit indexes), words
// (unsigned 16-bit integers in payload order).

function decodeUplink(input) {
  var bytes = (input && input.bytes) || [];
  var data = {};
  if (bytes.length < 5) {
    return { data: data, errors: ["payload too short: " + bytes.length + " bytes, the Decentlab header needs 5"] };
  }
  if (bytes[0] !== 2) {
    return { data: data, errors: ["Decentlab protocol version " + bytes[0] + " is not supported (expected 2)"] };
  }
  data.protocol_version = 2;
  data.device_id = ((bytes[1] & 0xff) << 8) | (bytes[2] & 0xff);
  var flags = ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff);
  data.sensor_flags = flags;
  data.sensors_present = [];
  for (var i = 0; i < 16; i++) {
    if (flags & (1 << i)) data.sensors_present.push(i);
  }
  data.words = [];
  for (var pos = 5; pos + 1 < bytes.length; pos += 2) {
    data.words.push(((bytes[pos] & 0xff) << 8) | (bytes[pos + 1] & 0xff));
  }
  if ((bytes.length - 5) % 2 !== 0) {
    return { data: data, errors: ["payload has an odd number of data bytes; the last byte is not a whole 16-bit word"] };
  }
  if (flags !== 0 && data.words.length === 0) {
    return { data: data, errors: ["sensor flags are set but the payload carries no sensor data"] };
  }
  return { data: data };
}
