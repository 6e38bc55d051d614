// @key ellenex_v6
// @name Ellenex firmware v6 (CBOR payload)
// @devices PLS2-L, PTS2-L and other Ellenex transmitters running firmware v6 (CBOR uplinks)
// @source Ellenex firmware v6 payload (a CBOR map, RFC 8949) as decoded by Ellenex's decoders (decoder-v6.js, pls2-l-v6.js in TheThingsNetwork/lorawan-devices vendor/ellenex), https://www.ellenex.com/ellenex-lorawan-products
//
// The uplink is one CBOR map whose keys name the readings. Ellenex documents "L" (level, m, divided
// by the liquid density) and "v" (battery voltage, mV); they come out as level (m) and
// battery_voltage (V). Other keys are passed on under their own name, as Ellenex's generic v6
// decoder does. Variable liquid_density (number or string, default 1: water; diesel about 0.85)
// corrects the level for other liquids.
//
// The CBOR reader takes unsigned and negative integers, byte strings (as hex), text strings, arrays,
// maps (definite or indefinite length, nested at most 3 deep), tags (the tag is dropped), booleans,
// null and half, single and double floats. A payload it cannot read gives an error.

function CborError(message) {
  this.message = message;
}

function cborRead(b, state, depth) {
  if (state.pos >= b.length) throw new CborError("payload ends inside a CBOR item");
  var initial = b[state.pos++] & 0xff;
  var major = initial >> 5;
  var info = initial & 0x1f;
  if (major === 7) return cborSimple(b, state, info);
  var length = cborLength(b, state, info);
  switch (major) {
    case 0:
      return length;
    case 1:
      return -1 - length;
    case 2:
      if (length < 0) throw new CborError("indefinite-length byte strings are not supported");
      var bytes = cborTake(b, state, length);
      var hex = "";
      for (var i = 0; i < bytes.length; i++) hex += ((bytes[i] & 0xff) < 16 ? "0" : "") + (bytes[i] & 0xff).toString(16);
      return hex;
    case 3:
      if (length < 0) throw new CborError("indefinite-length text strings are not supported");
      return cborUtf8(cborTake(b, state, length));
    case 4:
    case 5:
      if (depth >= 3) throw new CborError("CBOR nested deeper than 3 levels");
      return major === 4 ? cborArray(b, state, length, depth) : cborMap(b, state, length, depth);
    case 6:
      return cborRead(b, state, depth);
  }
  throw new CborError("unknown CBOR major type " + major);
}

function cborLength(b, state, info) {
  if (info < 24) return info;
  if (info === 31) return -1;
  var size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
  if (size === 0) throw new CborError("reserved CBOR length encoding " + info);
  var bytes = cborTake(b, state, size);
  var v = 0;
  for (var i = 0; i < size; i++) v = v * 256 + (bytes[i] & 0xff);
  return v;
}

function cborTake(b, state, n) {
  if (n > b.length - state.pos) throw new CborError("payload ends inside a CBOR item");
  var out = b.slice(state.pos, state.pos + n);
  state.pos += n;
  return out;
}

function cborArray(b, state, length, depth) {
  var out = [];
  if (length < 0) {
    while (true) {
      if (state.pos >= b.length) throw new CborError("payload ends inside an indefinite-length array");
      if ((b[state.pos] & 0xff) === 0xff) { state.pos++; return out; }
      out.push(cborRead(b, state, depth + 1));
    }
  }
  // Every item takes at least one byte: a length beyond the payload cannot be honest.
  if (length > b.length - state.pos) throw new CborError("CBOR array longer than the payload");
  for (var i = 0; i < length; i++) out.push(cborRead(b, state, depth + 1));
  return out;
}

function cborMap(b, state, length, depth) {
  var out = {};
  var count = 0;
  if (length >= 0 && length * 2 > b.length - state.pos) throw new CborError("CBOR map longer than the payload");
  while (length < 0 || count < length) {
    if (length < 0) {
      if (state.pos >= b.length) throw new CborError("payload ends inside an indefinite-length map");
      if ((b[state.pos] & 0xff) === 0xff) { state.pos++; break; }
    }
    var key = cborRead(b, state, depth + 1);
    var value = cborRead(b, state, depth + 1);
    if (typeof key === "object") throw new CborError("CBOR map key is not a string or number");
    key = String(key);
    // Keys that would reach Object.prototype are kept apart rather than assigned.
    if (key === "__proto__" || key === "constructor" || key === "prototype") key = "_" + key;
    out[key] = value;
    count++;
  }
  return out;
}

function cborSimple(b, state, info) {
  if (info === 20) return false;
  if (info === 21) return true;
  if (info === 22 || info === 23) return null;
  if (info === 24) { cborTake(b, state, 1); return null; }
  if (info === 25) {
    var h = cborTake(b, state, 2);
    var half = ((h[0] & 0xff) << 8) | (h[1] & 0xff);
    var exp = (half >> 10) & 0x1f;
    var frac = half & 0x3ff;
    var val = exp === 0 ? frac * Math.pow(2, -24) : exp === 31 ? (frac ? NaN : Infinity) : (1 + frac / 1024) * Math.pow(2, exp - 15);
    return half & 0x8000 ? -val : val;
  }
  if (info === 26 || info === 27) {
    var n = info === 26 ? 4 : 8;
    var bytes = cborTake(b, state, n);
    var view = new DataView(new ArrayBuffer(n));
    for (var i = 0; i < n; i++) view.setUint8(i, bytes[i] & 0xff);
    return n === 4 ? view.getFloat32(0) : view.getFloat64(0);
  }
  if (info === 31) throw new CborError("unexpected CBOR break");
  if (info < 20) return info;
  throw new CborError("reserved CBOR simple value " + info);
}

function cborUtf8(bytes) {
  var s = "";
  for (var i = 0; i < bytes.length; i++) {
    var c = bytes[i] & 0xff;
    if (c < 0x80) { s += String.fromCharCode(c); continue; }
    var extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    var code = c & (0x3f >> extra);
    for (var k = 0; k < extra && i + 1 < bytes.length; k++) code = code * 64 + ((bytes[++i] & 0xff) & 0x3f);
    s += code > 0xffff ? String.fromCharCode(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff)) : String.fromCharCode(code);
  }
  return s;
}

function ellDensity(variables) {
  if (!variables || variables.liquid_density === undefined || variables.liquid_density === null || variables.liquid_density === "") return 1;
  var v = Number(variables.liquid_density);
  return isFinite(v) && v > 0 ? v : 1;
}

function decodeUplink(input) {
  var b = (input && input.bytes) || [];
  if (b.length === 0) return { data: {}, errors: ["empty payload"] };
  var state = { pos: 0 };
  var parsed;
  try {
    parsed = cborRead(b, state, 0);
  } catch (e) {
    if (e instanceof CborError) return { data: {}, errors: ["not a readable CBOR payload: " + e.message] };
    return { data: {}, errors: ["not a readable CBOR payload"] };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { data: {}, errors: ["the CBOR payload is not a map of readings"] };
  }
  var data = {};
  for (var key in parsed) {
    if (!Object.prototype.hasOwnProperty.call(parsed, key)) continue;
    var value = parsed[key];
    if (key === "L" && typeof value === "number") data.level = value / ellDensity(input.variables);
    else if (key === "v" && typeof value === "number") data.battery_voltage = value / 1000;
    else data[key] = value;
  }
  var result = { data: data };
  if (state.pos < b.length) result.warnings = [(b.length - state.pos) + " bytes after the CBOR map ignored"];
  return result;
}
