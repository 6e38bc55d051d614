// Runs codecs under Node for the sandbox's differential test
// (kernel/sandbox/sandboxtest). It reads a job from stdin:
//
//   {"codecs": [{"source": "...", "cases": [{"op": "decodeUplink", "fPort": 1,
//     "bytes": [1, 2], "recvTime": 1714564800000, "variables": {}, "data": {}}]}]}
//
// and prints one result per case, codec by codec:
//
//   {"results": [[{"ok": "<JSON.stringify of the return value>"} | {"thrown": "..."} | {"missing": true}]]}
//
// Each case runs in a fresh context, as a classic script (not strict mode,
// not a module), as The Things Stack runs codecs. The function is chosen in
// the sandbox's order of preference, and called with the same arguments.
// Inside the context, Date.now() and new Date() give the case's recvTime
// (the call's time for downlinks), as in the sandbox, and local time is UTC
// (the Go side starts Node with TZ=UTC).
import vm from "node:vm";

const forms = {
  decodeUplink: ["decodeUplink", "Decode", "Decoder"],
  encodeDownlink: ["encodeDownlink", "Encode", "Encoder"],
  decodeDownlink: ["decodeDownlink"],
};
const allNames = ["decodeUplink", "Decode", "Decoder", "encodeDownlink", "Encode", "Encoder", "decodeDownlink"];

// Made inside the context, before the codec runs: builds the arguments from
// JSON, stringifies the result, and fixes the clock.
const harness = `(function (now) {
  var D = Date, parse = JSON.parse, stringify = JSON.stringify;
  function FixedDate() {
    if (!new.target) return new D(now).toString();
    return arguments.length === 0 ? new D(now) : Reflect.construct(D, arguments);
  }
  FixedDate.prototype = D.prototype;
  FixedDate.now = function () { return now; };
  FixedDate.UTC = D.UTC;
  FixedDate.parse = D.parse;
  Object.defineProperty(D.prototype, "constructor", { value: FixedDate, writable: true, configurable: true });
  Object.defineProperty(globalThis, "Date", { value: FixedDate, writable: true, configurable: true });
  return {
    args: function (form, json) {
      var i = parse(json);
      var vars = i.variables || {};
      switch (form) {
        case "decodeUplink": return [{ bytes: i.bytes, fPort: i.fPort, recvTime: new D(i.recvTime), variables: vars }];
        case "Decode": return [i.fPort, i.bytes, vars];
        case "Decoder": return [i.bytes, i.fPort];
        case "encodeDownlink": return [{ data: i.data, variables: vars }];
        case "Encode": return [i.fPort, i.data, vars];
        case "Encoder": return [i.data, i.fPort];
        case "decodeDownlink": return [{ bytes: i.bytes, fPort: i.fPort, variables: vars }];
      }
    },
    stringify: function (v) {
      var s = stringify(v);
      return s === undefined ? "null" : s;
    },
  };
})`;

const probe = `({${allNames.map((n) => `${n}: typeof ${n} === "function" ? ${n} : undefined`).join(", ")}})`;

function runCase(source, c) {
  const context = vm.createContext({
    console: { log() {}, info() {}, debug() {}, trace() {}, warn() {}, error() {} },
  });
  const now = c.op === "decodeUplink" ? c.recvTime : c.now;
  const h = vm.runInContext(harness, context)(now);
  try {
    vm.runInContext(source, context, { filename: "codec.js", timeout: 5000 });
  } catch (e) {
    return { thrown: String(e) };
  }
  const found = vm.runInContext(probe, context);
  const form = forms[c.op].find((n) => typeof found[n] === "function");
  if (!form) return { missing: true };
  try {
    const args = h.args(form, JSON.stringify(c));
    return { ok: h.stringify(found[form].apply(undefined, args)) };
  } catch (e) {
    return { thrown: String(e) };
  }
}

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input);
const results = job.codecs.map((codec) => codec.cases.map((c) => runCase(codec.source, c)));
process.stdout.write(JSON.stringify({ results }));
