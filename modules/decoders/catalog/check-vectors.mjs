// Runs every built-in codec's documentation vectors under Node, as a classic
// script in a fresh context (as The Things Stack runs codecs), and reports
// the vectors whose output differs from the expected one. The Go tests run the
// same vectors in the wazero sandbox; this script is the quick check while a
// codec is being written:
//
//   node modules/decoders/catalog/check-vectors.mjs [key ...]
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { isDeepStrictEqual } from "node:util";

const dir = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const keys = readdirSync(dir)
  .filter((f) => f.endsWith(".js"))
  .map((f) => f.slice(0, -3))
  .filter((k) => wanted.length === 0 || wanted.includes(k))
  .sort();

// normalise gives what JSON would carry: undefined dropped, NaN null, dates
// as ISO strings.
const normalise = (v) => JSON.parse(JSON.stringify(v ?? null));

let failures = 0;
let vectors = 0;
for (const key of keys) {
  const source = readFileSync(join(dir, `${key}.js`), "utf8");
  const header = /^\/\/ @key (.+)$/m.exec(source);
  if (!header || header[1].trim() !== key) {
    console.log(`${key}: the file must start with "// @key ${key}"`);
    failures++;
    continue;
  }
  let cases;
  try {
    cases = JSON.parse(readFileSync(join(dir, `${key}.test.json`), "utf8"));
  } catch (e) {
    console.log(`${key}: no readable ${key}.test.json (${e.message})`);
    failures++;
    continue;
  }
  for (const c of cases) {
    vectors++;
    const context = vm.createContext({ console: { log() {}, warn() {}, error() {} } });
    let got;
    try {
      vm.runInContext(source, context, { filename: `${key}.js` });
      context.__input = {
        bytes: Array.from(Buffer.from(c.bytes, "hex")),
        fPort: c.fPort,
        recvTime: new Date(c.recvTime ?? "2026-01-01T00:00:00Z"),
        variables: c.variables ?? {},
      };
      got = normalise(vm.runInContext("decodeUplink(__input)", context));
    } catch (e) {
      got = { thrown: String(e) };
    }
    const want = normalise({ data: c.expected.data, warnings: c.expected.warnings, errors: c.expected.errors });
    for (const k of ["warnings", "errors"]) {
      if (got && Array.isArray(got[k]) && got[k].length === 0 && want[k] === undefined) delete got[k];
    }
    if (!isDeepStrictEqual(got, want)) {
      failures++;
      console.log(`${key}: "${c.name}" differs\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(got)}`);
    }
  }
}
console.log(`${keys.length} codecs, ${vectors} vectors, ${failures} failures`);
process.exit(failures === 0 ? 0 : 1);
