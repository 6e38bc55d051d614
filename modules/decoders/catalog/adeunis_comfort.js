// @key adeunis_comfort
// @name Adeunis COMFORT / COMFORT CO2 (temperature, humidity, CO2)
// @devices ARF8171BA COMFORT, COMFORT 2, COMFORT CO2
// @source Adeunis COMFORT LoRaWAN Technical Reference Manual (data frame 0x4C), Adeunis codec library https://codec-adeunis.com and its published examples; COMFORT CO2 data frame 0x6A from Adeunis' codec in TheThingsNetwork/lorawan-devices vendor/adeunis/comfort_co2_lib.js (ComfortCo20x6aParser) and its example in comfort-co2-codec.yaml
//
// 0x4C (COMFORT): records of temperature (int16, 0.1 °C) and humidity (uint8,
// %RH); 0x6A (COMFORT CO2): records of temperature, humidity and CO2 (uint16,
// ppm). Newest record first, then the timestamp when status bit 2 is set. Big
// endian. The newest values are temperature, humidity (and co2); every record's
// are in temperature_history, humidity_history (and co2_history).

function u16(b, i) { return ((b[i] << 8) | b[i + 1]) & 0xffff; }
function i16(b, i) { var v = u16(b, i); return v > 0x7fff ? v - 0x10000 : v; }
function u32(b, i) { return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]); }

// Adeunis timestamps count seconds from 2013-01-01T00:00:00Z.
var ADEUNIS_EPOCH = 1356998400;

// status reads byte 1, common to every Adeunis frame: a 3-bit frame counter,
// configuration done (bit 0) and low battery (bit 1). Bit 2 is the hardware
// error flag on the legacy data frames and the "timestamp appended" flag on
// the current ones (timestamped frames end with 4 bytes of time).
function status(d, b, timestamped) {
  d.frame_counter = (b[1] & 0xe0) >> 5;
  d.configuration_done = (b[1] & 0x01) !== 0;
  d.low_battery = (b[1] & 0x02) !== 0;
  if (!timestamped) d.hardware_error = (b[1] & 0x04) !== 0;
  return timestamped && (b[1] & 0x04) !== 0;
}

function frameName(code) { return "0x" + (code < 16 ? "0" : "") + code.toString(16); }

// otherFrame handles the frames every product shares (configuration, network
// configuration, keep alive, ...), whose content is not measurement data.
function otherFrame(d, b) {
  status(d, b, false);
  if (b[0] === 0x30) { d.keep_alive = true; return { data: d }; }
  return { data: d, warnings: ["frame " + frameName(b[0]) + " carries no measurement and is not decoded"] };
}

// RECORDS: the data frames, each a run of records of the given size after the
// status byte, and what a record holds.
var RECORDS = {
  0x4c: { size: 3, co2: false },
  0x6a: { size: 5, co2: true },
};

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (b.length < 2) return { data: d, errors: ["payload is " + b.length + " bytes, want at least 2"] };
  var frame = RECORDS[b[0]];
  if (!frame) return otherFrame(d, b);
  var ts = status(d, b, true);
  var end = b.length - (ts ? 4 : 0);
  if (end < 2 + frame.size || (end - 2) % frame.size !== 0) {
    return { data: d, errors: ["frame " + frameName(b[0]) + " is " + b.length + " bytes, not a whole number of records"] };
  }
  var temps = [], hums = [], co2 = [];
  for (var i = 2; i < end; i += frame.size) {
    temps.push(i16(b, i) / 10);
    hums.push(b[i + 2]);
    if (frame.co2) co2.push(u16(b, i + 3));
  }
  d.temperature = temps[0];
  d.humidity = hums[0];
  if (frame.co2) d.co2 = co2[0];
  d.temperature_history = temps;
  d.humidity_history = hums;
  if (frame.co2) d.co2_history = co2;
  if (ts) d.timestamp = ADEUNIS_EPOCH + u32(b, end);
  return { data: d };
}
