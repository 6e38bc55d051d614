// The sandbox's own script, evaluated once per engine before any codec, as a
// global script. Its value is a function that the host calls with the host's
// log function and the size of the input buffer; it returns
// [io, install, run, describe, encode]:
//
//   io        a Uint8Array whose bytes the host writes each call's input into
//   install   install(found) records the codec's functions (found is the
//             probe array, one entry per form, undefined where the codec
//             defines none) and returns the bit mask of the forms defined
//   run       run(form, variablesJSON, dataJSON, fPort, bytes, recvTime)
//             calls one form with bytes (an Array) and recvTime (a Date),
//             which the host made, and returns its result, which the host
//             serialises; decodeUplink gets one input object at every call
//   describe  describe(thrown) returns {"name","message","stack"} as JSON
//   encode    encode(value, maxOutput) returns JSON.stringify of value
//             ("null" for undefined), or -1 when that JSON is longer than
//             maxOutput characters
//
// What the host relies on (JSON.stringify, JSON.parse, Date, the DataView
// readers) is captured here, before a codec runs, so that a codec replacing
// JSON.stringify or Function.prototype.call cannot change how its input is
// built or how its result reaches the host.
(function (hostLog, ioSize) {
  "use strict";
  var uncurry = Function.prototype.bind.bind(Function.prototype.call);
  var JSONparse = JSON.parse;
  var JSONstringify = JSON.stringify;
  var PDate = Date;
  var PString = String;
  var PError = Error;
  var isArray = Array.isArray;
  var defineProperty = Object.defineProperty;
  var join = uncurry(Array.prototype.join);
  var slice = uncurry(String.prototype.slice);
  var getTime = uncurry(Date.prototype.getTime);
  var toISOString = uncurry(Date.prototype.toISOString);
  var split = uncurry(String.prototype.split);
  var indexOf = uncurry(String.prototype.indexOf);
  // errorStack gives an error's stack without the sandbox's own frames.
  var errorStack = function (e) {
    try {
      var s = e.stack;
      if (typeof s !== "string") return "";
      var lines = split(s, "\n");
      var kept = [];
      for (var i = 0; i < lines.length; i++) {
        if (indexOf(lines[i], "<sandbox>") < 0) {
          defineProperty(kept, kept.length, { value: lines[i], writable: true, enumerable: true, configurable: true });
        }
      }
      return join(kept, "\n");
    } catch (x) {
      return "";
    }
  };

  // The host writes what the QuickJS API reads through pointers here; the
  // input itself comes as arguments of run.
  var io = new Uint8Array(ioSize);

  var maxLine = 1024;
  function show(v) {
    if (typeof v === "string") return v;
    if (typeof v === "bigint") return PString(v) + "n";
    if (typeof v === "function") return "[Function: " + (v.name || "(anonymous)") + "]";
    if (typeof v === "symbol") return PString(v);
    if (v instanceof PDate) {
      var t = getTime(v);
      return t === t ? toISOString(v) : "Invalid Date";
    }
    if (v instanceof PError) {
      var stack = errorStack(v);
      return PString(v.name) + ": " + PString(v.message) + (stack ? "\n" + stack : "");
    }
    if (typeof v === "object" && v !== null) {
      var s = JSONstringify(v);
      return s === undefined ? PString(v) : s;
    }
    return PString(v);
  }
  function format(args) {
    var parts = [];
    for (var i = 0; i < args.length; i++) {
      var s;
      try {
        s = show(args[i]);
      } catch (e) {
        s = "[unprintable]";
      }
      defineProperty(parts, i, { value: s, writable: true, enumerable: true, configurable: true });
    }
    var line = join(parts, " ");
    return line.length > maxLine ? slice(line, 0, maxLine) + "…" : line;
  }
  function logger(level) {
    return function () {
      hostLog(level, format(arguments));
    };
  }
  var console = {
    log: logger(0),
    info: logger(0),
    debug: logger(0),
    trace: logger(0),
    warn: logger(1),
    error: logger(2),
  };
  defineProperty(globalThis, "console", { value: console, writable: true, enumerable: false, configurable: true });

  // Forms, in the order of the probe and of the host's Form constants.
  var fns = [];
  function install(found) {
    var mask = 0;
    for (var i = 0; i < 7; i++) {
      var f = found[i];
      defineProperty(fns, i, { value: f, writable: true, enumerable: true, configurable: true });
      if (typeof f === "function") mask |= 1 << i;
    }
    return mask;
  }

  function encode(value, maxOutput) {
    var out = JSONstringify(value);
    if (out === undefined) return "null";
    return out.length > maxOutput ? -1 : out;
  }

  // uplinkInput is the input of decodeUplink, reused: an object literal of
  // four properties costs QuickJS almost a microsecond, setting them a fifth
  // of that. It is sealed, so that a codec can leave nothing on it for the
  // next call to find (the next call sets all four).
  var uplinkInput = Object.seal({ bytes: null, fPort: 0, recvTime: null, variables: null });

  function run(form, variablesJSON, dataJSON, fPort, bytes, recvTime) {
    var variables = variablesJSON === undefined ? {} : JSONparse(variablesJSON);
    var fn = fns[form];
    var result;
    switch (form) {
      case 0: // decodeUplink({bytes, fPort, recvTime, variables})
        uplinkInput.bytes = bytes;
        uplinkInput.fPort = fPort;
        uplinkInput.recvTime = recvTime;
        uplinkInput.variables = variables;
        result = fn(uplinkInput);
        break;
      case 1: // ChirpStack v3 Decode(fPort, bytes, variables)
        result = fn(fPort, bytes, variables);
        break;
      case 2: // The Things Network v2 Decoder(bytes, port)
        result = fn(bytes, fPort);
        break;
      case 3: // encodeDownlink({data, variables})
        result = fn({ data: JSONparse(dataJSON), variables: variables });
        break;
      case 4: // ChirpStack v3 Encode(fPort, obj, variables)
        result = fn(fPort, JSONparse(dataJSON), variables);
        break;
      case 5: // The Things Network v2 Encoder(object, port)
        result = fn(JSONparse(dataJSON), fPort);
        break;
      case 6: // decodeDownlink({bytes, fPort, variables})
        result = fn({ bytes: bytes, fPort: fPort, variables: variables });
        break;
      default:
        throw new PError("unknown form " + form);
    }
    return result;
  }

  function describe(e) {
    try {
      if (e instanceof PError) {
        return JSONstringify({ name: PString(e.name), message: PString(e.message), stack: errorStack(e) });
      }
      var shown;
      try {
        shown = typeof e === "string" ? JSONstringify(e) : show(e);
      } catch (x) {
        return '{"name":"","message":"uncaught exception","stack":""}';
      }
      return JSONstringify({ name: "", message: "uncaught " + slice(shown, 0, maxLine), stack: "" });
    } catch (x) {
      return '{"name":"","message":"uncaught exception","stack":""}';
    }
  }

  return [io, install, run, describe, encode];
})
