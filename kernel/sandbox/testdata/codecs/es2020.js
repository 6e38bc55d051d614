// ES2020 and later: classes with private fields, arrow functions,
// destructuring, optional chaining, nullish coalescing, spread, exponent,
// template literals, default parameters.
class Reader {
  #bytes;
  #pos = 0;
  static BIG = true;
  constructor(bytes) {
    this.#bytes = bytes;
  }
  get remaining() {
    return this.#bytes.length - this.#pos;
  }
  u8() {
    return this.#bytes[this.#pos++];
  }
  u16(be = Reader.BIG) {
    const [a, b] = [this.u8(), this.u8()];
    return be ? (a << 8) | b : (b << 8) | a;
  }
}

const units = { 1: "°C", 2: "%", 3: "hPa" };
const scale = (v, { factor = 1, offset = 0 } = {}) => v * factor + offset;

function decodeUplink({ bytes, fPort, variables }) {
  const r = new Reader(bytes);
  const out = [];
  while (r.remaining >= 3) {
    const kind = r.u8();
    const raw = r.u16();
    out.push({ kind, unit: units[kind] ?? "?", value: scale(raw, { factor: 0.1 }) });
  }
  const first = out[0];
  const data = {
    ...(first && { first: first.value }),
    label: `${out.length} values on port ${fPort}`,
    unitOfSecond: out[1]?.unit ?? null,
    site: variables?.site ?? "unknown",
    squares: out.map(({ value }) => Math.round(value ** 2)),
    leftover: r.remaining,
    entries: Object.fromEntries(out.map((o, i) => [`v${i}`, o.kind])),
  };
  return { data };
}
