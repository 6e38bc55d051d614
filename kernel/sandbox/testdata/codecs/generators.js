// Generators, iterators, Map and Set.
function* frames(bytes) {
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    yield { id: bytes[i], value: bytes[i + 1] };
  }
}

const iterable = {
  *[Symbol.iterator]() {
    yield "a";
    yield "b";
  },
};

function decodeUplink(input) {
  const byId = new Map();
  const ids = new Set();
  for (const f of frames(input.bytes)) {
    byId.set(f.id, (byId.get(f.id) || 0) + f.value);
    ids.add(f.id);
  }
  const data = {
    totals: Object.fromEntries([...byId].map(([k, v]) => ["id" + k, v])),
    ids: [...ids].sort((a, b) => a - b),
    size: byId.size,
    letters: [...iterable].join(""),
    entries: Array.from(byId.entries()).length,
  };
  return { data };
}
