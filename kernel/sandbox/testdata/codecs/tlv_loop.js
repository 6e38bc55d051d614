// A type-length-value loop in the style of the Elsys codec: constants for the
// types, a loop with an index the cases advance.
var TYPE_TEMP = 0x01; // temp 2 bytes -3276.8°C -->3276.7°C
var TYPE_RH = 0x02; // Humidity 1 byte 0-100%
var TYPE_ACC = 0x03; // acceleration 3 bytes X,Y,Z -128 --> 127 +/-63=1G
var TYPE_LIGHT = 0x04; // Light 2 bytes 0-->65535 Lux
var TYPE_MOTION = 0x05; // No of motion 1 byte 0-255
var TYPE_CO2 = 0x06; // Co2 2 bytes 0-65535 ppm
var TYPE_VDD = 0x07; // VDD 2byte 0-65535mV
var TYPE_PULSE1 = 0x0e; // 2bytes relative pulse count

function bin16dec(bin) {
  var num = bin & 0xffff;
  if (0x8000 & num) num = -(0x010000 - num);
  return num;
}

function bin8dec(bin) {
  var num = bin & 0xff;
  if (0x80 & num) num = -(0x0100 - num);
  return num;
}

function DecodeTLV(data) {
  var obj = new Object();
  for (i = 0; i < data.length; i++) {
    switch (data[i]) {
      case TYPE_TEMP:
        var temp = (data[i + 1] << 8) | data[i + 2];
        temp = bin16dec(temp);
        obj.temperature = temp / 10;
        i += 2;
        break;
      case TYPE_RH:
        obj.humidity = data[i + 1];
        i += 1;
        break;
      case TYPE_ACC:
        obj.x = bin8dec(data[i + 1]);
        obj.y = bin8dec(data[i + 2]);
        obj.z = bin8dec(data[i + 3]);
        i += 3;
        break;
      case TYPE_LIGHT:
        obj.light = (data[i + 1] << 8) | data[i + 2];
        i += 2;
        break;
      case TYPE_MOTION:
        obj.motion = data[i + 1];
        i += 1;
        break;
      case TYPE_CO2:
        obj.co2 = (data[i + 1] << 8) | data[i + 2];
        i += 2;
        break;
      case TYPE_VDD:
        obj.vdd = (data[i + 1] << 8) | data[i + 2];
        i += 2;
        break;
      case TYPE_PULSE1:
        obj.pulse1 = (data[i + 1] << 8) | data[i + 2];
        i += 2;
        break;
      default:
        // an unknown type ends the frame
        i = data.length;
        break;
    }
  }
  return obj;
}

function decodeUplink(input) {
  return { data: DecodeTLV(input.bytes) };
}
