// Milesight AM308 (firmware v2) uplink decoder in the style of Milesight's
// published codec (lorawan-devices vendor/milesight-iot/am308.js, Milesight-IoT
// SensorDecoders AM300 series): a walk over channel id and type, output named
// as Milesight names it. Reduced to the channels the examples use; like
// Milesight's, it stops at a channel it does not know (0x05 0x6A).
function decodeUplink(input) {
  var decoded = milesight(input.bytes);
  return { data: decoded };
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
    } else if (channel_id === 0x04 && channel_type === 0x68) {
      decoded.humidity = bytes[i] / 2;
      i += 1;
    } else if (channel_id === 0x07 && channel_type === 0x7d) {
      decoded.co2 = readUInt16LE(bytes.slice(i, i + 2));
      i += 2;
    } else if (channel_id === 0x08 && channel_type === 0x7d) {
      // tVOC level, in hundredths
      decoded.tvoc = readUInt16LE(bytes.slice(i, i + 2)) / 100;
      i += 2;
    } else if (channel_id === 0x09 && channel_type === 0x73) {
      decoded.pressure = readUInt16LE(bytes.slice(i, i + 2)) / 10;
      i += 2;
    } else if (channel_id === 0x0b && channel_type === 0x7d) {
      decoded.pm2_5 = readUInt16LE(bytes.slice(i, i + 2));
      i += 2;
    } else if (channel_id === 0x0c && channel_type === 0x7d) {
      decoded.pm10 = readUInt16LE(bytes.slice(i, i + 2));
      i += 2;
    } else {
      break;
    }
  }
  return decoded;
}

function readUInt16LE(bytes) {
  var value = (bytes[1] << 8) + bytes[0];
  return value & 0xffff;
}

function readInt16LE(bytes) {
  var ref = readUInt16LE(bytes);
  return ref > 0x7fff ? ref - 0x10000 : ref;
}
