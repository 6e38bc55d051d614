// Milesight UC300 uplink decoder in the style of Milesight's codec of 2022
// (lorawan-devices vendor/milesight-iot/uc300.js): digital inputs and outputs
// as "on"/"off", the pulse counter, and the older Modbus packing (channel,
// then data type and size in one byte, then the value), each reading listed
// under modbus_channels with its channel index counted from 1. Reduced to the
// channels the examples use.
function decodeUplink(input) {
  var decoded = milesight(input.bytes);
  return { data: decoded };
}

function milesight(bytes) {
  var decoded = {};
  for (var i = 0; i < bytes.length; ) {
    var channel_id = bytes[i++];
    var channel_type = bytes[i++];
    if (channel_id >= 0x03 && channel_id <= 0x06 && channel_type === 0x00) {
      decoded["digital_input_" + (channel_id - 0x02)] = bytes[i] === 0 ? "off" : "on";
      i += 1;
    } else if (channel_id === 0x03 && channel_type === 0xc8) {
      decoded["pulse_count_" + (channel_id - 0x02)] = readUInt32LE(bytes.slice(i, i + 4));
      i += 4;
    } else if ((channel_id === 0x07 || channel_id === 0x08) && channel_type === 0x01) {
      decoded["digital_output_" + (channel_id - 0x06)] = bytes[i] === 0 ? "off" : "on";
      i += 1;
    } else if (channel_id === 0xff && channel_type === 0x19) {
      var index = bytes[i++] + 1;
      var packed = bytes[i++]; // data type and size in one byte
      var size = (packed >> 4) + 2;
      var reading = size === 2 ? readUInt16LE(bytes.slice(i, i + 2)) : readUInt32LE(bytes.slice(i, i + 4));
      i += size;
      decoded.modbus_channels = decoded.modbus_channels || [];
      decoded.modbus_channels.push({ index: index, reading: reading });
    } else {
      break;
    }
  }
  return decoded;
}

function readUInt16LE(bytes) {
  return ((bytes[1] << 8) + bytes[0]) & 0xffff;
}

function readUInt32LE(bytes) {
  return ((bytes[3] << 24) + (bytes[2] << 16) + (bytes[1] << 8) + bytes[0]) >>> 0;
}
