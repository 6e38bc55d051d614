// Hex strings, ASCII and character codes.
function toHex(bytes) {
  var s = "";
  for (var i = 0; i < bytes.length; i++) {
    s += ("0" + (bytes[i] & 0xff).toString(16)).slice(-2);
  }
  return s.toUpperCase();
}

function decodeUplink(input) {
  var b = input.bytes;
  var kind = String.fromCharCode(b[0]);
  var text = String.fromCharCode.apply(null, b.slice(1)).replace(/\0+$/, "");
  return {
    data: {
      kind: kind,
      text: text,
      hex: toHex(b),
      id: b.slice(0, 4).map(function (x) { return x.toString(16).padStart(2, "0"); }).join(":"),
      codes: text.split("").map(function (c) { return c.charCodeAt(0); }),
      upper: text.toUpperCase(),
      reversed: text.split("").reverse().join(""),
      encoded: encodeURIComponent(text),
      escaped: escape(text),
      parsed: parseInt(toHex(b.slice(0, 2)), 16),
      starts: text.startsWith("OK"),
      at: text.at(-1) || null,
      repeat: "=".repeat(b.length % 5),
      latin: String.fromCharCode(0xe9, 0xe5, 0xf6)
    }
  };
}
