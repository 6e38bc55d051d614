// The script's host API, appended after the script (so that the script's
// lines keep their numbers). A run cannot call back into the host: what the
// script reads is looked up in ctx.reads, and a read the host has not
// answered yet is recorded as a need and stops the pass; the host fetches
// the needs and starts the run again, which is safe because writes and sends
// are only collected (actions) and done by the host after the last pass.

// A time in RFC 3339, such as the trigger's, is passed on as it is (iso): a
// Date keeps milliseconds only, and a value written at the trigger's time
// would be older than the uplink, and so miss the node's latest data. Made
// once, with the codec's image, not in every run.
var __RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
function __host(input) {
  var ctx = JSON.parse(input.variables.ctx);
  var reads = ctx.reads || {};
  var needs = [];
  var actions = [];
  var writes = 0, sends = 0, missing = false;
  var NEED = { need: true };
  function fail(msg) { throw new Error(msg); }
  function read(k) {
    if (Object.prototype.hasOwnProperty.call(reads, k)) {
      var v = reads[k];
      if (v && typeof v === "object" && typeof v.$error === "string") fail(v.$error);
      return v;
    }
    if (needs.length + ctx.answered >= ctx.maxReads) fail("too many reads in one run (limit " + ctx.maxReads + ")");
    needs.push(k);
    missing = true;
    throw NEED;
  }
  function id(n) {
    n = Number(n);
    if (!(n > 0) || n % 1 !== 0) fail("a node id must be a positive whole number");
    return n;
  }
  function iso(t) {
    if (t === undefined || t === null || t === "") return "";
    if (typeof t === "string" && __RFC3339.test(t) && !isNaN(new Date(t).getTime())) return t;
    var d = t instanceof Date ? t : new Date(t);
    if (isNaN(d.getTime())) fail("not a time: " + String(t));
    return d.toISOString();
  }
  function act(a, send) {
    if (send) {
      if (++sends > ctx.maxSends) fail("too many sends in one run (limit " + ctx.maxSends + ")");
    } else if (++writes > ctx.maxWrites) {
      fail("too many writes in one run (limit " + ctx.maxWrites + ")");
    }
    actions.push(a);
  }
  function list(to) { return Array.isArray(to) ? to.map(String) : [String(to)]; }
  var api = {
    trigger: ctx.trigger || null,
    latest: function (tag, key) {
      var p = read(JSON.stringify(["latest", id(tag), String(key)]));
      return p ? { value: p[1], time: new Date(p[0]) } : null;
    },
    range: function (tag, key, from, to, points) {
      var pts = read(JSON.stringify(["range", id(tag), String(key), iso(from), iso(to), Math.max(0, points | 0)]));
      return pts.map(function (p) { return { time: new Date(p[0]), value: p[1] }; });
    },
    write: function (tag, values, time) {
      if (!values || typeof values !== "object" || Array.isArray(values)) fail("write(node, values): values must be an object of key: value");
      act({ kind: "write", tagId: id(tag), values: values, time: iso(time) }, false);
    },
    downlink: function (tag, d) {
      d = d || {};
      act({ kind: "downlink", tagId: id(tag), port: d.port | 0, payload: String(d.payload || ""), confirmed: !!d.confirmed }, true);
    },
    notify: function (message, label) {
      act({ kind: "notify", text: String(message), subject: label === undefined ? "" : String(label) }, true);
    },
    mail: function (to, subject, text) {
      act({ kind: "mail", to: list(to), subject: String(subject), text: String(text) }, true);
    },
    sms: function (to, text) {
      act({ kind: "sms", to: list(to), text: String(text) }, true);
    },
    log: function (text) {
      act({ kind: "log", text: String(text) }, false);
    },
    done: function (result) {
      if (missing) return { data: { needs: needs } };
      return { data: { result: result === undefined ? null : result, actions: actions } };
    },
    failed: function (e) {
      if (e === NEED || missing) return { data: { needs: needs } };
      throw e;
    }
  };
  return api;
}
