// Milesight EM500-PT100 uplink decoder in the style of Milesight's published codec
// (lorawan-devices vendor/milesight-iot/em500-pt100.js): a walk over channel id and
// type, output named as Milesight names it. Reduced to the channels of the
// device's periodic frame; like Milesight's, it stops at a channel it does
// not know.
function decodeUplink(input) {
  return { data: milesight(input.bytes) };
}

function milesight(bytes) {
  var decoded = {};
  for (var i = 0; i < bytes.length; ) {
    var channel_id = bytes[i++];
    var channel_type = bytes[i++];
    if (channel_id === 0x01 && channel_type === 0x75) {
      decoded.battery = bytes[i];
      i += 1;
    } else if (channel_id === 0x03 && channel_type === 0x67) {
      decoded.temperature = readInt16LE(bytes.slice(i, i + 2)) / 10;
      i += 2;
    } else {
      break;
    }
  }
  return decoded;
}

function readUInt16LE(bytes) {
  return ((bytes[1] << 8) | bytes[0]) & 0xffff;
}

function readInt16LE(bytes) {
  var v = readUInt16LE(bytes);
  return v > 0x7fff ? v - 0x10000 : v;
}
