// Top-level const and let: global bindings that are not properties of the
// global object.
const FACTOR = 0.5;
let calls = 0;
const decodeUplink = (input) => {
  calls += 1;
  const [first = 0, ...rest] = input.bytes;
  return {
    data: {
      first: first * FACTOR,
      rest: rest.length,
      calls,
      on_global_object: typeof globalThis.decodeUplink,
    },
  };
};
