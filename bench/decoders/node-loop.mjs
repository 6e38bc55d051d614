// Node's side of bench/decoders: runs one codec's decodeUplink in a loop in
// one vm context (a classic script, as the sandbox runs it), with the same
// payloads. It prints {"firstMicros": ...} once loaded, then, for each line
// of standard input (a number of milliseconds), decodes in a loop for that
// long and prints {"n": decodes, "ms": milliseconds taken, "cpuMs":
// milliseconds of CPU the process used meanwhile}, each as one line of JSON.
//
//   node bench/decoders/node-loop.mjs <codec.js> <payloads.json>
//
// payloads.json is [{"fPort": 1, "bytes": [1, 2]}, ...]. Each call gets a
// fresh input object (bytes copied into a new array, a new Date), as each
// uplink does, and the result goes through JSON.stringify, as the sandbox's
// does. firstMicros is a new context, the codec's evaluation and its first
// decode: the time to first decode of a codec Node has not seen.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import vm from "node:vm";

const [source, payloads] = [readFileSync(process.argv[2], "utf8"), JSON.parse(readFileSync(process.argv[3], "utf8"))];
const recvTime = Date.UTC(2026, 0, 1);

const t0 = process.hrtime.bigint();
const context = vm.createContext({ console: { log() {}, info() {}, warn() {}, error() {}, debug() {} } });
vm.runInContext(source, context, { filename: "codec.js" });
const call = vm.runInContext(`(function (bytes, fPort, t) {
  var b = bytes.slice();
  return JSON.stringify(decodeUplink({ bytes: b, fPort: fPort, recvTime: new Date(t), variables: {} }));
})`, context);
const inputs = payloads.map((p) => vm.runInContext("(function (b) { return b.slice() })", context)(p.bytes));
call(inputs[0], payloads[0].fPort, recvTime);
const firstMicros = Number(process.hrtime.bigint() - t0) / 1000;

const run = (ms) => {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++, n++) {
      const k = n % inputs.length;
      call(inputs[k], payloads[k].fPort, recvTime);
    }
  }
  return n;
};
process.stdout.write(JSON.stringify({ firstMicros }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const n = run(Number(line));
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ n, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 }) + "\n");
}
