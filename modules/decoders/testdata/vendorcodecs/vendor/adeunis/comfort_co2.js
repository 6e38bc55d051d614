// Adeunis COMFORT CO2 uplink decoder in the style of Adeunis' codec library
// (lorawan-devices vendor/adeunis/comfort_co2_lib.js, codec-adeunis.com):
// the decoded frame under data.bytes with its type, its status byte and
// each quantity's unit and values (newest first). Reduced to the data
// frame 0x6A without timestamp, which the example uses.
function decodeUplink(input) {
  var bytes = input.bytes;
  if (bytes[0] !== 0x6a) {
    return { errors: ["unsupported frame type"] };
  }
  var status = bytes[1];
  var frame = {
    type: "0x6a Comfort CO2 data",
    status: {
      frameCounter: (status & 0xe0) >> 5,
      // bits 3 and 4 as we read Adeunis' status byte; the example sets neither
      hardwareError: (status & 0x08) !== 0,
      lowBattery: (status & 0x02) !== 0,
      configurationDone: (status & 0x01) !== 0,
      configurationInconsistency: (status & 0x10) !== 0,
      timestamp: (status & 0x04) !== 0,
    },
    decodingInfo: "values: [t=0, t-1, t-2, ...]",
    temperature: { unit: "\u00b0C", values: [] },
    humidity: { unit: "%", values: [] },
    co2: { unit: "ppm", values: [] },
  };
  for (var i = 2; i + 5 <= bytes.length; i += 5) {
    var t = (bytes[i] << 8) | bytes[i + 1];
    if (t > 0x7fff) t -= 0x10000;
    frame.temperature.values.push(t / 10);
    frame.humidity.values.push(bytes[i + 2]);
    frame.co2.values.push((bytes[i + 3] << 8) | bytes[i + 4]);
  }
  return { data: { bytes: frame }, warnings: [], errors: [] };
}
