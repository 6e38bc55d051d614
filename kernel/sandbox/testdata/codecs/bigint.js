// BigInt for 64-bit meter counters.
function decodeUplink(input) {
  let total = 0n;
  for (let i = 0; i < 8 && i < input.bytes.length; i++) {
    total = (total << 8n) | BigInt(input.bytes[i]);
  }
  const wh = total;
  const kwh = Number(wh / 1000n) + Number(wh % 1000n) / 1000;
  const signed = BigInt.asIntN(64, total);
  return {
    data: {
      energy_wh: wh.toString(),
      energy_kwh: kwh,
      safe: wh <= BigInt(Number.MAX_SAFE_INTEGER),
      signed: signed.toString(),
      hex: "0x" + total.toString(16).padStart(16, "0"),
    },
  };
}
