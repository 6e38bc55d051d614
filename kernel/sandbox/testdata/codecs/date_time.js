// Times from the payload and from recvTime.
function decodeUplink(input) {
  var b = input.bytes;
  var epoch = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  var measured = new Date(epoch * 1000);
  var received = input.recvTime;
  var now = new Date();
  return {
    data: {
      measured: measured.toISOString(),
      measured_obj: measured,
      age_s: Math.round((received.getTime() - measured.getTime()) / 1000),
      received_hour: received.getUTCHours(),
      weekday: received.getUTCDay(),
      local_hour: received.getHours(),
      offset: received.getTimezoneOffset(),
      same_as_now: now.getTime() === received.getTime(),
      now_ms: Date.now(),
      midnight: new Date(Date.UTC(received.getUTCFullYear(), received.getUTCMonth(), received.getUTCDate())).toISOString(),
      plus_day: new Date(received.getTime() + 86400000).toISOString().slice(0, 10),
      parsed: Date.parse("2024-02-29T12:00:00Z"),
      parsed_date_only: new Date("2024-03-01").getTime(),
      utc_string: received.toUTCString(),
      json: received.toJSON(),
      year_2038: new Date(2147483648 * 1000).toISOString()
    }
  };
}
