// Text payloads parsed with regular expressions.
function decodeUplink(input) {
  var text = String.fromCharCode.apply(null, input.bytes);
  if (text.charAt(0) === "{") {
    try {
      return { data: { json: JSON.parse(text) } };
    } catch (e) {
      return { errors: ["bad JSON payload"] };
    }
  }
  var data = {};
  var re = /([A-Z]+)=(-?\d+(?:\.\d+)?)/g;
  var m;
  while ((m = re.exec(text)) !== null) {
    data[m[1].toLowerCase()] = parseFloat(m[2]);
  }
  var named = /^(?<model>[A-Z]+\d*)\/(?<version>\d+\.\d+)/.exec(text);
  if (named) {
    data.model = named.groups.model;
    data.version = named.groups.version;
  }
  data.fields = text.split(";").map(function (s) { return s.trim(); }).filter(Boolean).length;
  data.masked = text.replace(/\d/g, function (d) { return d === "0" ? "o" : "#"; });
  data.sticky = /T=/y.test(text);
  data.unicode = /\p{Lu}/u.test(text);
  data.lookbehind = (text.match(/(?<=H=)\d+/) || [null])[0];
  return { data: data };
}
