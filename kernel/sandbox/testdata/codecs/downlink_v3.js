// The Things Stack downlink functions, with validation.
var COMMANDS = { reboot: 0x01, interval: 0x02, led: 0x03 };

function encodeDownlink(input) {
  var d = input.data;
  if (!(d.command in COMMANDS)) {
    return { errors: ["unknown command " + JSON.stringify(d.command)] };
  }
  var bytes = [COMMANDS[d.command]];
  var warnings = [];
  if (d.command === "interval") {
    var minutes = d.minutes;
    if (typeof minutes !== "number") return { errors: ["minutes must be a number"] };
    if (minutes > 1440) {
      warnings.push("interval capped at 1440 minutes");
      minutes = 1440;
    }
    bytes.push(minutes >> 8, minutes & 0xff);
  } else if (d.command === "led") {
    bytes.push(d.on ? 1 : 0);
  }
  return { bytes: bytes, fPort: 10, warnings: warnings };
}

function decodeDownlink(input) {
  var names = {};
  for (var k in COMMANDS) names[COMMANDS[k]] = k;
  var b = input.bytes;
  var data = { command: names[b[0]] || "unknown" };
  if (b[0] === 0x02) data.minutes = (b[1] << 8) | b[2];
  if (b[0] === 0x03) data.on = b[1] === 1;
  return { data: data, warnings: input.fPort === 10 ? [] : ["unexpected fPort " + input.fPort] };
}
