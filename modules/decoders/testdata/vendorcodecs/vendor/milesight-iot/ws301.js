// Milesight WS301 uplink decoder in the style of Milesight's published codec
// (lorawan-devices vendor/milesight-iot/ws301.js): a walk over channel id and
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
    } else if (channel_id === 0x03 && channel_type === 0x00) {
      decoded.door = bytes[i] === 0 ? "close" : "open";
      i += 1;
    } else if (channel_id === 0x04 && channel_type === 0x00) {
      decoded.install = bytes[i] === 0 ? "yes" : "no";
      i += 1;
    } else {
      break;
    }
  }
  return decoded;
}
