// Runs every built-in codec's documentation vectors under Node, as a classic
// script in a fresh context (as The Things Stack runs codecs), and reports
// the vectors whose output differs from the expected one. The Go tests run the
// same vectors in the wazero sandbox; this script is the quick check while a
// codec is being written:
//
//   node modules/decoders/catalog/check-vectors.mjs [key ...]
//
// A codec may name family libraries in its header, "// @include <family>"
// lines: its effective source is the text of each lib/<family>.js, in header
// order, each followed by "\n", then the codec's own text. resolveSource does
// what decoders.CatalogSource does in Go; lib/ holds no codecs.
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

// resolveSource gives the effective source of the codec key (see above).
function resolveSource(key) {
  const text = readFileSync(join(dir, `${key}.js`), "utf8");
  let source = "";
  for (const line of text.split("\n")) {
    if (!line.startsWith("//")) break;
    const m = /^\/\/\s*@include\s+(.+?)\s*$/.exec(line.replace(/\r$/, ""));
    if (!m) continue;
    if (!/^[a-z0-9][a-z0-9_]*$/.test(m[1])) throw new Error(`${key}.js: @include ${m[1]} is not a library name`);
    source += readFileSync(join(dir, "lib", `${m[1]}.js`), "utf8") + "\n";
  }
  return source + text;
}

// normalise gives what JSON would carry: undefined dropped, NaN null, dates
// as ISO strings.
const normalise = (v) => JSON.parse(JSON.stringify(v ?? null));

let failures = 0;
let vectors = 0;
for (const key of keys) {
  const text = readFileSync(join(dir, `${key}.js`), "utf8");
  const header = /^\/\/ @key (.+)$/m.exec(text);
  if (!header || header[1].trim() !== key) {
    console.log(`${key}: the file must start with "// @key ${key}"`);
    failures++;
    continue;
  }
  let source;
  try {
    source = resolveSource(key);
  } catch (e) {
    console.log(`${key}: ${e.message}`);
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
