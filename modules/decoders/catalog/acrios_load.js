// @key acrios_load
// @name Acrios ACR-CV M-Bus to LoRaWAN converter (meter readout, EN 13757-3)
// @devices ACR-CV-101L-M-D, ACR-CV-101L-M-EAC (default and multiframe Lua scripts), with any wired M-Bus meter behind them
// @source ACRIOS Systems "M-Bus to LoRaWAN - Integration manual" (https://wiki.acrios.com/manuals/ACR-CV-101L-M-X/), Acrios' codec acr-cv-101l-m-x.js and its example in TheThingsNetwork/lorawan-devices vendor/acrios; EN 13757-2/-3 (M-Bus link layer and application layer)
//
// The converter reads ("loads") the meter over M-Bus and forwards the meter's answer: byte 0 is the
// index of this uplink within the readout (from 1), byte 1 the number of uplinks the readout takes,
// then the M-Bus frame (EN 13757-2 long frame: 68 L L 68 C A CI data CS 16). A readout split over
// several uplinks can only be decoded once its parts are joined, which a codec that sees one uplink
// cannot do: such uplinks give frame_index, frame_count and the part as hex, with a warning.
//
// Output: frame_index, frame_count, c, a, ci; for CI 0x72/0x76 (variable data structure): id (the
// meter's 8-digit identification), manufacturer (3 letters), version, medium, medium_code,
// access_number, status, then one key per data record; for CI 0x73/0x77 (fixed data structure): id,
// access_number, status, medium, medium_code, counter1 and counter2 with counter1_unit and
// counter2_unit. A record's key is its quantity and unit (energy_wh, volume_m3, power_w,
// flow_temperature_c, on_time_s, date, date_time, fabrication_number, voltage_v, ...), with _max,
// _min or _error for those functions, _storageN, _tariffN and _subunitN when not 0, and _2, _3 for
// repeats. Values are scaled to those units (the VIF's power of ten applied). Manufacturer-specific
// data and VIFs this decoder does not know keep their raw value (hex or number) under a key naming
// the VIF (vif_7f, vif_fd_3a, ...).

var MBUS_MEDIA = ["other", "oil", "electricity", "gas", "heat (outlet)", "steam", "warm water", "water",
  "heat cost allocator", "compressed air", "cooling (outlet)", "cooling (inlet)", "heat (inlet)", "heat and cooling",
  "bus / system component", "unknown", "reserved", "reserved", "reserved", "reserved", "reserved", "hot water",
  "cold water", "dual register water", "pressure", "A/D converter", "smoke detector", "room sensor", "gas detector"];

// Units of the fixed data structure (EN 13757-3 annex on CI 0x73): index 2.. in steps of three
// decades per unit.
var MBUS_FIXED_UNITS = ["Wh", "kWh", "MWh", "kJ", "MJ", "GJ", "W", "kW", "MW", "kJ/h", "MJ/h", "GJ/h", "ml", "l", "m3", "ml/h", "l/h", "m3/h"];

var MBUS_TIME_UNITS = [["s", 1], ["min", 60], ["h", 3600], ["d", 86400]];

function MbusError(message) {
  this.message = message;
}

function mbusHex(bytes) {
  var s = "";
  for (var i = 0; i < bytes.length; i++) s += ((bytes[i] & 0xff) < 16 ? "0" : "") + (bytes[i] & 0xff).toString(16);
  return s;
}

function mbusScale(value, exponent) {
  if (typeof value !== "number") return value;
  if (exponent >= 0) return value * Math.pow(10, exponent);
  return value / Math.pow(10, -exponent);
}

function mbusInt(bytes) {
  // little endian, two's complement
  var v = 0;
  for (var i = bytes.length - 1; i >= 0; i--) v = v * 256 + (bytes[i] & 0xff);
  if (bytes.length && (bytes[bytes.length - 1] & 0x80)) v -= Math.pow(2, 8 * bytes.length);
  return v;
}

function mbusUint(bytes) {
  var v = 0;
  for (var i = bytes.length - 1; i >= 0; i--) v = v * 256 + (bytes[i] & 0xff);
  return v;
}

// BCD, least significant byte first. A top nibble of F marks a negative number; other hex digits
// make the value invalid (null).
function mbusBcd(bytes) {
  var v = 0;
  var negative = false;
  for (var i = bytes.length - 1; i >= 0; i--) {
    var hi = (bytes[i] & 0xf0) >> 4;
    var lo = bytes[i] & 0x0f;
    if (i === bytes.length - 1 && hi === 0xf) {
      negative = true;
      hi = 0;
    }
    if (hi > 9 || lo > 9) return null;
    v = v * 100 + hi * 10 + lo;
  }
  return negative ? -v : v;
}

function mbusReal32(bytes) {
  var view = new DataView(new ArrayBuffer(4));
  for (var i = 0; i < 4; i++) view.setUint8(3 - i, bytes[i] & 0xff);
  return view.getFloat32(0);
}

function mbusPad(n) {
  return (n < 10 ? "0" : "") + n;
}

// Date types G (2 bytes), F (4 bytes, with time) and I (6 bytes, with seconds).
function mbusDate(bytes) {
  var b = bytes;
  var at = b.length === 6 ? 1 : 0;
  var date = function (lo, hi) {
    var year = ((b[lo] & 0xe0) >> 5) | ((b[hi] & 0xf0) >> 1);
    return (2000 + year) + "-" + mbusPad(b[hi] & 0x0f) + "-" + mbusPad(b[lo] & 0x1f);
  };
  if (b.length === 2) return date(0, 1);
  if (b.length === 4 || b.length === 6) {
    var text = date(at + 2, at + 3) + "T" + mbusPad(b[at + 1] & 0x1f) + ":" + mbusPad(b[at] & 0x3f);
    if (b.length === 6) text += ":" + mbusPad(b[0] & 0x3f);
    return text;
  }
  return mbusHex(b);
}

// describeVif returns {name, unit, exp, kind} for a primary VIF (without its extension bit).
function mbusPrimaryVif(v) {
  var n3 = v & 7, n2 = v & 3;
  if (v < 0x08) return { name: "energy", unit: "wh", exp: n3 - 3 };
  if (v < 0x10) return { name: "energy", unit: "j", exp: n3 };
  if (v < 0x18) return { name: "volume", unit: "m3", exp: n3 - 6 };
  if (v < 0x20) return { name: "mass", unit: "kg", exp: n3 - 3 };
  if (v < 0x24) return { name: "on_time", unit: "s", time: n2 };
  if (v < 0x28) return { name: "operating_time", unit: "s", time: n2 };
  if (v < 0x30) return { name: "power", unit: "w", exp: n3 - 3 };
  if (v < 0x38) return { name: "power", unit: "j_h", exp: n3 };
  if (v < 0x40) return { name: "volume_flow", unit: "m3_h", exp: n3 - 6 };
  if (v < 0x48) return { name: "volume_flow", unit: "m3_min", exp: n3 - 7 };
  if (v < 0x50) return { name: "volume_flow", unit: "m3_s", exp: n3 - 9 };
  if (v < 0x58) return { name: "mass_flow", unit: "kg_h", exp: n3 - 3 };
  if (v < 0x5c) return { name: "flow_temperature", unit: "c", exp: n2 - 3 };
  if (v < 0x60) return { name: "return_temperature", unit: "c", exp: n2 - 3 };
  if (v < 0x64) return { name: "temperature_difference", unit: "k", exp: n2 - 3 };
  if (v < 0x68) return { name: "external_temperature", unit: "c", exp: n2 - 3 };
  if (v < 0x6c) return { name: "pressure", unit: "bar", exp: n2 - 3 };
  if (v === 0x6c) return { name: "date", kind: "date" };
  if (v === 0x6d) return { name: "date_time", kind: "date" };
  if (v === 0x6e) return { name: "hca_units", exp: 0 };
  if (v < 0x74 && v >= 0x70) return { name: "averaging_duration", unit: "s", time: n2 };
  if (v < 0x78 && v >= 0x74) return { name: "actuality_duration", unit: "s", time: n2 };
  if (v === 0x78) return { name: "fabrication_number", exp: 0 };
  if (v === 0x79) return { name: "enhanced_identification", exp: 0 };
  if (v === 0x7a) return { name: "bus_address", exp: 0 };
  return { name: "vif_" + mbusHex([v]), raw: true };
}

function mbusFdVif(v) {
  var names = { 0x08: "access_number", 0x09: "medium", 0x0a: "manufacturer", 0x0b: "parameter_set_id", 0x0c: "model_version",
    0x0d: "hardware_version", 0x0e: "firmware_version", 0x0f: "software_version", 0x10: "customer_location", 0x11: "customer",
    0x16: "password", 0x17: "error_flags", 0x1a: "digital_output", 0x1b: "digital_input", 0x60: "reset_counter", 0x61: "cumulation_counter" };
  if (v >= 0x40 && v < 0x50) return { name: "voltage", unit: "v", exp: (v & 0x0f) - 9 };
  if (v >= 0x50 && v < 0x60) return { name: "current", unit: "a", exp: (v & 0x0f) - 12 };
  if (names[v]) return { name: names[v], exp: 0 };
  return { name: "vif_fd_" + mbusHex([v]), raw: true };
}

function mbusRecordValue(dif, bytes, lvar, vif) {
  var coding = dif & 0x0f;
  if (vif.kind === "date" && (coding === 2 || coding === 4 || coding === 6)) return mbusDate(bytes);
  if (coding === 0x0d) {
    if (lvar < 0xc0) {
      var s = "";
      for (var i = bytes.length - 1; i >= 0; i--) s += String.fromCharCode(bytes[i] & 0xff);
      return s;
    }
    if (lvar < 0xd0) return mbusBcd(bytes);
    if (lvar < 0xe0) { var n = mbusBcd(bytes); return n === null ? null : -n; }
    if (lvar < 0xf0) return mbusInt(bytes);
    return mbusHex(bytes);
  }
  if (vif.raw) return mbusHex(bytes);
  if (coding === 5) return mbusReal32(bytes);
  if (coding >= 9) return mbusBcd(bytes);
  return mbusInt(bytes);
}

var MBUS_SIZES = [0, 1, 2, 3, 4, 4, 6, 8, 0, 1, 2, 3, 4, -1, 6, 0];

function mbusVariable(b, at, end, data, warnings) {
  var seen = {};
  var count = 0;
  while (at < end) {
    var dif = b[at++] & 0xff;
    if (dif === 0x2f) continue; // idle filler
    if (dif === 0x0f || dif === 0x1f) {
      data[dif === 0x1f ? "manufacturer_data_more_follows" : "manufacturer_data"] = mbusHex(b.slice(at, end));
      if (dif === 0x1f) warnings.push("the meter has more records than this frame holds");
      return;
    }
    if (++count > 200) throw new MbusError("too many records");
    var storage = (dif & 0x40) >> 6, tariff = 0, subunit = 0, shift = 1, dife = dif, difes = 0;
    while (dife & 0x80) {
      if (at >= end) throw new MbusError("record ends inside its DIF extensions");
      if (++difes > 10) throw new MbusError("more than 10 DIF extensions");
      dife = b[at++] & 0xff;
      storage += (dife & 0x0f) * Math.pow(2, shift);
      tariff += ((dife & 0x30) >> 4) * Math.pow(4, difes - 1);
      subunit += ((dife & 0x40) >> 6) * Math.pow(2, difes - 1);
      shift += 4;
    }
    if (at >= end) throw new MbusError("record ends before its VIF");
    var vifByte = b[at++] & 0xff;
    var vif;
    if ((vifByte & 0x7f) === 0x7d || (vifByte & 0x7f) === 0x7b) {
      if (at >= end) throw new MbusError("record ends inside its VIF");
      var ext = b[at++] & 0xff;
      vif = (vifByte & 0x7f) === 0x7d ? mbusFdVif(ext & 0x7f) : { name: "vif_fb_" + mbusHex([ext & 0x7f]), raw: true };
      vifByte = ext;
    } else if ((vifByte & 0x7f) === 0x7c) {
      if (at >= end) throw new MbusError("record ends inside its plain-text VIF");
      var len = b[at++] & 0xff;
      if (at + len > end) throw new MbusError("plain-text VIF longer than the frame");
      var text = "";
      for (var t = at + len - 1; t >= at; t--) text += String.fromCharCode(b[t] & 0xff);
      at += len;
      vif = { name: text.replace(/[^A-Za-z0-9]+/g, "_").toLowerCase() || "plain_text_vif", raw: true };
    } else if ((vifByte & 0x7f) === 0x7f) {
      vif = { name: "vif_7f", raw: true };
    } else {
      vif = mbusPrimaryVif(vifByte & 0x7f);
    }
    var vifes = 0;
    while (vifByte & 0x80) {
      if (at >= end) throw new MbusError("record ends inside its VIF extensions");
      if (++vifes > 10) throw new MbusError("more than 10 VIF extensions");
      vifByte = b[at++] & 0xff;
      var e = vifByte & 0x7f;
      if (e >= 0x70 && e < 0x78 && vif.exp !== undefined) vif.exp += (e & 7) - 6;
      else if (e === 0x7d && vif.exp !== undefined) vif.exp += 3;
    }
    var coding = dif & 0x0f;
    var size = MBUS_SIZES[coding];
    var lvar = 0;
    if (size < 0) {
      if (at >= end) throw new MbusError("record ends before its LVAR");
      lvar = b[at++] & 0xff;
      size = lvar < 0xc0 ? lvar : lvar < 0xf0 ? (lvar & 0x0f) : 0;
    }
    if (at + size > end) throw new MbusError("record " + vif.name + " needs " + size + " bytes, " + (end - at) + " left");
    var raw = b.slice(at, at + size);
    at += size;
    if (coding === 0 || coding === 8) continue; // no data, or a readout selection
    var value = mbusRecordValue(dif, raw, lvar, vif);
    if (vif.time !== undefined && typeof value === "number") value = value * MBUS_TIME_UNITS[vif.time][1];
    else if (vif.exp !== undefined && !vif.raw && typeof value === "number") value = mbusScale(value, vif.exp);
    var key = vif.name + (vif.unit ? "_" + vif.unit : "");
    var func = (dif & 0x30) >> 4;
    if (func) key += ["", "_max", "_min", "_error"][func];
    if (storage) key += "_storage" + storage;
    if (tariff) key += "_tariff" + tariff;
    if (subunit) key += "_subunit" + subunit;
    if (seen[key]) {
      seen[key]++;
      key += "_" + seen[key];
    } else {
      seen[key] = 1;
    }
    data[key] = value;
  }
}

function mbusMedium(code, data) {
  data.medium_code = code;
  data.medium = code < MBUS_MEDIA.length ? MBUS_MEDIA[code] : "code " + code;
}

function mbusFixed(b, at, end, data) {
  if (end - at < 16) throw new MbusError("fixed data structure needs 16 bytes, the frame has " + (end - at));
  data.id = mbusBcdText(b.slice(at, at + 4));
  data.access_number = b[at + 4] & 0xff;
  data.status = b[at + 5] & 0xff;
  var u1 = b[at + 6] & 0xff, u2 = b[at + 7] & 0xff;
  mbusMedium((u1 >> 6) | ((u2 >> 4) & 0x0c), data);
  var binary = (data.status & 1) === 1;
  var counter = function (bytes) { return binary ? mbusUint(bytes) : mbusBcd(bytes); };
  var unit1 = mbusFixedUnit(u1 & 0x3f);
  data.counter1 = mbusScale(counter(b.slice(at + 8, at + 12)), unit1[1]);
  data.counter1_unit = unit1[0];
  var vy = u2 & 0x3f;
  var unit2 = vy === 0x3e ? unit1 : mbusFixedUnit(vy);
  var c2 = counter(b.slice(at + 12, at + 16));
  data.counter2 = vy === 0x3f ? c2 : mbusScale(c2, unit2[1]);
  data.counter2_unit = vy === 0x3f ? "" : unit2[0];
  // Unit code 0x3E marks counter 2 as the historic value of counter 1.
  data.counter2_historic = vy === 0x3e;
}

function mbusFixedUnit(code) {
  if (code < 2) return [["h,m,s", "D,M,Y"][code], 0];
  if (code < 0x38) return [MBUS_FIXED_UNITS[Math.floor((code - 2) / 3)], (code - 2) % 3];
  if (code === 0x38) return ["C", -3];
  if (code === 0x39) return ["hca units", 0];
  return ["", 0];
}

function mbusBcdText(bytes) {
  var s = "";
  for (var i = bytes.length - 1; i >= 0; i--) s += mbusHex([bytes[i]]);
  return s;
}

function mbusManufacturer(lo, hi) {
  var m = (hi << 8) | lo;
  return String.fromCharCode(((m >> 10) & 0x1f) + 64, ((m >> 5) & 0x1f) + 64, (m & 0x1f) + 64);
}

function decodeUplink(input) {
  var b = (input && input.bytes) || [];
  var data = {};
  var warnings = [];
  if (b.length < 3) return { data: data, errors: ["payload too short: " + b.length + " bytes"] };
  data.frame_index = b[0] & 0xff;
  data.frame_count = b[1] & 0xff;
  var f = b.slice(2);
  if (data.frame_count !== 1 || data.frame_index !== 1) {
    data.part = mbusHex(f);
    return { data: data, warnings: ["part " + data.frame_index + " of a readout in " + data.frame_count + " uplinks: the M-Bus frame can only be decoded once the parts are joined"] };
  }
  try {
    if (f.length === 1 && (f[0] & 0xff) === 0xe5) {
      data.frame = "ack";
      return { data: data };
    }
    if ((f[0] & 0xff) !== 0x68) throw new MbusError("no M-Bus long frame: it starts with 0x" + mbusHex([f[0]]) + ", not 0x68");
    if (f.length < 9) throw new MbusError("M-Bus frame too short");
    var l = f[1] & 0xff;
    if ((f[2] & 0xff) !== l || (f[3] & 0xff) !== 0x68) throw new MbusError("broken M-Bus frame header");
    if (f.length !== l + 6) throw new MbusError("M-Bus frame length " + l + " does not match the " + (f.length - 6) + " bytes sent");
    if ((f[f.length - 1] & 0xff) !== 0x16) throw new MbusError("M-Bus frame has no stop byte");
    var sum = 0;
    for (var i = 4; i < f.length - 2; i++) sum = (sum + (f[i] & 0xff)) & 0xff;
    if (sum !== (f[f.length - 2] & 0xff)) throw new MbusError("M-Bus checksum does not match");
    data.c = f[4] & 0xff;
    data.a = f[5] & 0xff;
    data.ci = f[6] & 0xff;
    var end = f.length - 2;
    if (data.ci === 0x73 || data.ci === 0x77) {
      mbusFixed(f, 7, end, data);
    } else if (data.ci === 0x72 || data.ci === 0x76) {
      if (end - 7 < 12) throw new MbusError("variable data header needs 12 bytes");
      data.id = mbusBcdText(f.slice(7, 11));
      data.manufacturer = mbusManufacturer(f[11] & 0xff, f[12] & 0xff);
      data.version = f[13] & 0xff;
      mbusMedium(f[14] & 0xff, data);
      data.access_number = f[15] & 0xff;
      data.status = f[16] & 0xff;
      mbusVariable(f, 19, end, data, warnings);
    } else {
      throw new MbusError("CI field 0x" + mbusHex([data.ci]) + " is not an M-Bus response this decoder reads");
    }
  } catch (e) {
    var bad = { data: data, errors: [e instanceof MbusError ? e.message : "could not decode the M-Bus frame: " + String(e)] };
    if (warnings.length) bad.warnings = warnings;
    return bad;
  }
  var result = { data: data };
  if (warnings.length) result.warnings = warnings;
  return result;
}
