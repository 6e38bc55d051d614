// MCF88 LW12 family core, shared by the mcf88* codecs (// @include mcf88): the
// uplink layouts and their decoding. A codec defines MCF_ACCEPT (the uplink ids
// its devices send; empty: all) and its decodeUplink returns mcfDecode(input).

// Sizes of one measurement for each uplink id, and how many measurements the uplink carries.
var MCF_LAYOUTS = {
  0x04: { name: "TER", size: 10, count: 3 },
  0x0c: { name: "VOC", size: 14, count: 2 },
  0x12: { name: "VOC", size: 15, count: 2 },
  0x0e: { name: "CO2", size: 16, count: 2 },
  0x13: { name: "CO2", size: 17, count: 2 }
};

function mcfUint(b, at, size) {
  // little endian
  var v = 0;
  for (var i = size - 1; i >= 0; i--) v = v * 256 + (b[at + i] & 0xff);
  return v;
}

function mcfInt16(b, at) {
  var v = mcfUint(b, at, 2);
  return v >= 0x8000 ? v - 0x10000 : v;
}

function mcfPad(n) {
  return (n < 10 ? "0" : "") + n;
}

// The packed date: a little-endian 32-bit word, from the top bit down: year - 2000 (7 bits), month
// (4), day (5), hour (5), minute (6), seconds / 2 (5). The device's clock has no time zone, so the
// time is given without one.
function mcfDate(b, at) {
  var v = mcfUint(b, at, 4);
  var year = 2000 + Math.floor(v / 33554432);
  var month = Math.floor(v / 2097152) % 16;
  var day = Math.floor(v / 65536) % 32;
  var hour = Math.floor(v / 2048) % 32;
  var minute = Math.floor(v / 32) % 64;
  var second = (v % 32) * 2;
  return { raw: v, text: year + "-" + mcfPad(month) + "-" + mcfPad(day) + "T" + mcfPad(hour) + ":" + mcfPad(minute) + ":" + mcfPad(second) };
}

function mcfClimate(b, at, m) {
  var date = mcfDate(b, at);
  m.time = date.text;
  m.temperature = mcfInt16(b, at + 4) / 100;
  m.humidity = (b[at + 6] & 0xff) / 2;
  m.pressure = mcfUint(b, at + 7, 3) / 100;
  return date.raw;
}

function mcfMeasurement(id, b, at) {
  var m = {};
  mcfClimate(b, at, m);
  if (id === 0x0c || id === 0x0e) {
    m.light = mcfUint(b, at + 10, 2);
    m.voc = mcfUint(b, at + 12, 2);
    if (id === 0x0e) m.co2 = mcfInt16(b, at + 14);
  } else if (id === 0x12 || id === 0x13) {
    m.light = mcfUint(b, at + 10, 2);
    m.voc = mcfUint(b, at + 12, 3);
    if (id === 0x13) m.co2 = mcfInt16(b, at + 15);
  }
  return m;
}

function mcfLatest(data) {
  // The newest measurement's values at the top level: the ISO times sort as text.
  var best = 0;
  for (var i = 1; i < data.measurements.length; i++) {
    if (data.measurements[i].time > data.measurements[best].time) best = i;
  }
  var m = data.measurements[best];
  for (var k in m) data[k] = m[k];
}

function mcfDecode(input) {
  var b = (input && input.bytes) || [];
  var data = {};
  if (b.length === 0) return { data: data, errors: ["empty payload"] };
  var id = b[0] & 0xff;
  data.uplink_id = id;
  if (MCF_ACCEPT.length && MCF_ACCEPT.indexOf(id) < 0) {
    return { data: data, errors: ["uplink id 0x" + mcfPad(id.toString(16)) + " is not one this device sends (expected " + MCF_ACCEPT.map(function (a) { return "0x" + mcfPad(a.toString(16)); }).join(" or ") + ")"] };
  }
  var layout = MCF_LAYOUTS[id];
  if (layout) {
    var need = 1 + layout.size * layout.count + 1;
    if (b.length < need) {
      return { data: data, errors: ["payload too short: " + b.length + " bytes, a " + layout.name + " uplink has " + need] };
    }
    data.uplink = layout.name;
    data.measurements = [];
    for (var i = 0; i < layout.count; i++) data.measurements.push(mcfMeasurement(id, b, 1 + i * layout.size));
    mcfLatest(data);
    data.battery = b[1 + layout.size * layout.count] & 0xff;
    return { data: data };
  }
  if (id === 0x0b) {
    var kind = (b[1] & 0xf0) >> 4;
    if (kind === 3 && b[2] === 0x00) {
      if (b.length < 19) return { data: data, errors: ["payload too short: " + b.length + " bytes, a TERPM uplink has at least 19"] };
      data.uplink = "TERPM";
      mcfClimate(b, 3, data);
      data.pm1 = mcfUint(b, 13, 2);
      data.pm2_5 = mcfUint(b, 15, 2);
      data.pm10 = mcfUint(b, 17, 2);
      if (b.length > 19) data.battery = b[19] & 0xff;
      return { data: data };
    }
    if (kind === 2 && b[2] === 0x01) {
      if (b.length < 13) return { data: data, errors: ["payload too short: " + b.length + " bytes, a PM uplink has 13"] };
      data.uplink = "PM";
      data.time = mcfDate(b, 3).text;
      data.pm1 = mcfUint(b, 7, 2);
      data.pm2_5 = mcfUint(b, 9, 2);
      data.pm10 = mcfUint(b, 11, 2);
      return { data: data };
    }
    return { data: data, errors: ["report 0x0b of kind " + kind + "/0x" + mcfPad((b[2] & 0xff).toString(16)) + " (Modbus or weather station data) is not decoded"] };
  }
  return { data: data, errors: ["uplink id 0x" + mcfPad(id.toString(16)) + " is not decoded"] };
}
