package decoders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/devrepo"
)

// vendorCodecs is a small repository in lorawan-devices' layout whose
// codecs are our own reductions of the vendors' codecs (in their style and
// output names) with the vendors' published examples: the devices the
// built-in keys below also model.
const vendorCodecs = "testdata/vendorcodecs"

// pairing is an imported vendor codec and the built-in key that models its
// device, with the decoder variables a node of that device would set.
type pairing struct {
	codec, key string
	vars       map[string]string
}

var pairings = []pairing{
	{codec: "ttn/milesight-iot/am308-codec", key: "milesight_am300"},
	// The vendor's TTN codec reads the older Modbus packing, which the
	// key reads for nodes that say so (docs/decoders.md, milesight_uc300).
	{codec: "ttn/milesight-iot/uc300-codec", key: "milesight_uc300", vars: map[string]string{"modbus_header": "packed"}},
	{codec: "ttn/netvox/r718pa-codec", key: "netvox_ra0715"},
	{codec: "ttn/netvox/r718h-codec", key: "netvox_r718h"},
	{codec: "ttn/netvox/r718x-codec", key: "netvox_r718x"},
	{codec: "ttn/netvox/rp02-codec", key: "netvox_rp02"},
	{codec: "ttn/dragino/ldds75-codec", key: "dragino_ldds75"},
	{codec: "ttn/dragino/lds02-codec", key: "dragino_lds02"},
	{codec: "ttn/dragino/lwl02-codec", key: "dragino_lwl02"},
	{codec: "ttn/dragino/sw3l-codec", key: "dragino_sw3l"},
	{codec: "ttn/adeunis/comfort-co2-codec", key: "adeunis_comfort"},
}

// renamed is a name of a vendor codec's output that a key gives under
// another name (paths below data, "{n}" standing for a number), its values
// mapped by values when the key gives them as another type (labels as
// booleans). Each must have its row, with why, in docs/decoders.md's table
// "Names that differ from the vendors' codecs".
type renamed struct {
	key, vendor, ours string
	values            map[string]any
}

var onOff = map[string]any{"on": true, "off": false}

var renames = []renamed{
	{key: "milesight_uc300", vendor: "digital_input_{n}", ours: "gpio_in_{n}", values: onOff},
	{key: "milesight_uc300", vendor: "digital_output_{n}", ours: "gpio_out_{n}", values: onOff},
	{key: "milesight_uc300", vendor: "pulse_count_{n}", ours: "counter_{n}"},
	{key: "milesight_uc300", vendor: "modbus_channels", ours: "modbus_chn_{n}"},
	{key: "netvox_ra0715", vendor: "Device", ours: "device"},
	{key: "netvox_ra0715", vendor: "SWver", ours: "software_version"},
	{key: "netvox_ra0715", vendor: "HWver", ours: "hardware_version"},
	{key: "netvox_ra0715", vendor: "Datecode", ours: "date_code"},
	{key: "netvox_ra0715", vendor: "Volt", ours: "battery_voltage"},
	{key: "netvox_ra0715", vendor: "PM1_0_CF", ours: "pm1_0_cf"},
	{key: "netvox_ra0715", vendor: "PM2_5_CF", ours: "pm2_5_cf"},
	{key: "netvox_ra0715", vendor: "PM10_CF", ours: "pm10_cf"},
	{key: "netvox_ra0715", vendor: "PM0_3UM", ours: "particles_0_3um"},
	{key: "netvox_ra0715", vendor: "PM0_5UM", ours: "particles_0_5um"},
	{key: "netvox_ra0715", vendor: "PM1_0UM", ours: "particles_1_0um"},
	{key: "netvox_ra0715", vendor: "NO2", ours: "no2"},
	{key: "netvox_ra0715", vendor: "SO2", ours: "so2"},
	{key: "netvox_ra0715", vendor: "H2S", ours: "h2s"},
	{key: "netvox_ra0715", vendor: "Cmd", ours: "command"},
	{key: "netvox_ra0715", vendor: "Status", ours: "success", values: map[string]any{"Success": true, "Failure": false}},
	{key: "netvox_ra0715", vendor: "MinTime", ours: "min_time"},
	{key: "netvox_ra0715", vendor: "MaxTime", ours: "max_time"},
	{key: "netvox_r718h", vendor: "Device", ours: "device"},
	{key: "netvox_r718h", vendor: "SWver", ours: "software_version"},
	{key: "netvox_r718h", vendor: "HWver", ours: "hardware_version"},
	{key: "netvox_r718h", vendor: "Datecode", ours: "date_code"},
	{key: "netvox_r718h", vendor: "Volt", ours: "battery_voltage"},
	{key: "netvox_r718h", vendor: "PulseCount", ours: "pulse_count"},
	{key: "netvox_r718h", vendor: "Cmd", ours: "command"},
	{key: "netvox_r718h", vendor: "Status", ours: "success", values: map[string]any{"Success": true, "Failure": false}},
	{key: "netvox_r718h", vendor: "MinTime", ours: "min_time"},
	{key: "netvox_r718h", vendor: "MaxTime", ours: "max_time"},
	{key: "netvox_r718h", vendor: "BatteryChange", ours: "battery_change"},
	{key: "netvox_r718x", vendor: "Device", ours: "device"},
	{key: "netvox_r718x", vendor: "SWver", ours: "software_version"},
	{key: "netvox_r718x", vendor: "HWver", ours: "hardware_version"},
	{key: "netvox_r718x", vendor: "Datecode", ours: "date_code"},
	{key: "netvox_r718x", vendor: "Volt", ours: "battery_voltage"},
	{key: "netvox_r718x", vendor: "Status", ours: "status_on", values: map[string]any{"ON": true, "OFF": false}},
	{key: "netvox_r718x", vendor: "Distance", ours: "distance"},
	{key: "netvox_r718x", vendor: "Temp", ours: "temperature"},
	{key: "netvox_r718x", vendor: "FillLevel", ours: "fill_level"},
	{key: "netvox_r718x", vendor: "AngleOfInclination", ours: "angle_of_inclination"},
	{key: "netvox_r718x", vendor: "Cmd", ours: "command"},
	{key: "netvox_r718x", vendor: "MinTime", ours: "min_time"},
	{key: "netvox_r718x", vendor: "MaxTime", ours: "max_time"},
	{key: "netvox_r718x", vendor: "BatteryChange", ours: "battery_change"},
	{key: "netvox_r718x", vendor: "DistanceChange", ours: "distance_change"},
	{key: "netvox_r718x", vendor: "TempChange", ours: "temperature_change"},
	{key: "netvox_r718x", vendor: "OnDistanceThreshold", ours: "on_distance_threshold"},
	{key: "netvox_rp02", vendor: "Device", ours: "device"},
	{key: "netvox_rp02", vendor: "SWver", ours: "software_version"},
	{key: "netvox_rp02", vendor: "HWver", ours: "hardware_version"},
	{key: "netvox_rp02", vendor: "Datecode", ours: "date_code"},
	{key: "netvox_rp02", vendor: "BreakerRS485Addr", ours: "breaker_rs485_address"},
	{key: "netvox_rp02", vendor: "Current", ours: "current"},
	{key: "netvox_rp02", vendor: "Voltage", ours: "voltage"},
	{key: "netvox_rp02", vendor: "Power", ours: "power"},
	{key: "netvox_rp02", vendor: "Temperature", ours: "temperature"},
	{key: "netvox_rp02", vendor: "CPhaseEnergy", ours: "energy_c"},
	{key: "netvox_rp02", vendor: "HandOrAutoControlStatus", ours: "hand_auto_control_status"},
	{key: "netvox_rp02", vendor: "OnOffStatus", ours: "switch_on", values: map[string]any{"On": true, "Off": false}},
	{key: "netvox_rp02", vendor: "Cmd", ours: "command"},
	{key: "netvox_rp02", vendor: "MinTime", ours: "min_time"},
	{key: "netvox_rp02", vendor: "MaxTime", ours: "max_time"},
	{key: "dragino_lds02", vendor: "BAT_V", ours: "battery_voltage"},
	{key: "dragino_lds02", vendor: "MOD", ours: "mode"},
	{key: "dragino_lds02", vendor: "DOOR_OPEN_STATUS", ours: "door_open", values: map[string]any{"0": false, "1": true}},
	{key: "dragino_lds02", vendor: "DOOR_OPEN_TIMES", ours: "door_open_times"},
	{key: "dragino_lds02", vendor: "LAST_DOOR_OPEN_DURATION", ours: "last_door_open_duration_min"},
	{key: "dragino_lds02", vendor: "ALARM", ours: "alarm"},
	{key: "dragino_lwl02", vendor: "BAT_V", ours: "battery_voltage"},
	{key: "dragino_lwl02", vendor: "MOD", ours: "mode"},
	{key: "dragino_lwl02", vendor: "DOOR_OPEN_STATUS", ours: "door_open", values: map[string]any{"0": false, "1": true}},
	{key: "dragino_lwl02", vendor: "DOOR_OPEN_TIMES", ours: "door_open_times"},
	{key: "dragino_lwl02", vendor: "LAST_DOOR_OPEN_DURATION", ours: "last_door_open_duration_min"},
	{key: "dragino_lwl02", vendor: "ALARM", ours: "alarm"},
	{key: "dragino_sw3l", vendor: "TDC", ours: "tdc"},
	{key: "dragino_sw3l", vendor: "Stop_Timer", ours: "stop_timer"},
	{key: "dragino_sw3l", vendor: "Alarm_Timer", ours: "alarm_timer"},
	{key: "adeunis_comfort", vendor: "bytes.status.frameCounter", ours: "frame_counter"},
	{key: "adeunis_comfort", vendor: "bytes.status.lowBattery", ours: "low_battery"},
	{key: "adeunis_comfort", vendor: "bytes.status.configurationDone", ours: "configuration_done"},
	{key: "adeunis_comfort", vendor: "bytes.temperature.values", ours: "temperature_history"},
	{key: "adeunis_comfort", vendor: "bytes.humidity.values", ours: "humidity_history"},
	{key: "adeunis_comfort", vendor: "bytes.co2.values", ours: "co2_history"},
}

// explained is a difference other than a name (a value only one side
// gives, or gives otherwise) at path (after the renames) or below it,
// which docs/decoders.md explains in the words of quote.
type explained struct {
	key, path, quote string
}

// The sentences of docs/decoders.md that explain differences shared by
// several keys or paths.
const (
	whyNetvoxIDs     = "Every Netvox key also gives the frame's `device_type` and `report_type` numbers"
	whyNetvoxBattery = "The battery byte becomes `battery_voltage` (V) and `low_battery` (boolean)"
	whyLDSCut        = "reports `LAST_DOOR_OPEN_DURATION` 65536 and `ALARM` 0 for them; we do not make values up"
	whyLWL02         = "the same 7-byte example of TTN lwl02-codec.yaml gives the same fields and error"
	whyComfortNewest = "is `temperature` (the newest value) and `temperature_history` (all of them) here, likewise humidity and CO2"
	whyComfortTexts  = "Left out: Adeunis' `type` and `decodingInfo` texts"
	whyComfortUnits  = "the `unit` beside each list of values (the key's units are fixed: °C, %, ppm)"
	whyComfortFlags  = "and the status flags `hardwareError`, `configurationInconsistency` and `timestamp`"
)

var explanations = []explained{
	{key: "milesight_am300", path: "activity", quote: "which ends TTN am308-codec.yaml example 1 (Milesight's `am308.js` stops there)"},
	{key: "milesight_uc300", path: "errors", quote: "and an error for the frame's last byte, which belongs to no channel"},
	{key: "netvox_ra0715", path: "device_type", quote: whyNetvoxIDs},
	{key: "netvox_ra0715", path: "report_type", quote: whyNetvoxIDs},
	{key: "netvox_ra0715", path: "low_battery", quote: whyNetvoxBattery},
	{key: "netvox_r718h", path: "device_type", quote: whyNetvoxIDs},
	{key: "netvox_r718h", path: "report_type", quote: whyNetvoxIDs},
	{key: "netvox_r718h", path: "low_battery", quote: whyNetvoxBattery},
	{key: "netvox_r718x", path: "device_type", quote: whyNetvoxIDs},
	{key: "netvox_r718x", path: "report_type", quote: whyNetvoxIDs},
	{key: "netvox_r718x", path: "low_battery", quote: whyNetvoxBattery},
	{key: "netvox_rp02", path: "device_type", quote: whyNetvoxIDs},
	{key: "netvox_rp02", path: "report_type", quote: whyNetvoxIDs},
	{key: "dragino_ldds75", path: "battery_voltage", quote: "ldds75-codec.yaml gives `battery_voltage` 3.612"},
	{key: "dragino_ldds75", path: "warnings", quote: `and the warning "no ultrasonic sensor detected" where Dragino's codec gives ` + "`distance: \"No Sensor\"`"},
	{key: "dragino_ldds75", path: "distance", quote: "where Dragino's codec gives `distance: \"No Sensor\"`"},
	{key: "dragino_lds02", path: "last_door_open_duration_min", quote: whyLDSCut},
	{key: "dragino_lds02", path: "alarm", quote: whyLDSCut},
	{key: "dragino_lds02", path: "errors", quote: "and an error naming the fields it cuts"},
	{key: "dragino_lwl02", path: "last_door_open_duration_min", quote: whyLWL02},
	{key: "dragino_lwl02", path: "alarm", quote: whyLWL02},
	{key: "dragino_lwl02", path: "errors", quote: whyLWL02},
	{key: "adeunis_comfort", path: "temperature", quote: whyComfortNewest},
	{key: "adeunis_comfort", path: "humidity", quote: whyComfortNewest},
	{key: "adeunis_comfort", path: "co2", quote: whyComfortNewest},
	{key: "adeunis_comfort", path: "bytes.type", quote: whyComfortTexts},
	{key: "adeunis_comfort", path: "bytes.decodingInfo", quote: whyComfortTexts},
	{key: "adeunis_comfort", path: "bytes.temperature.unit", quote: whyComfortUnits},
	{key: "adeunis_comfort", path: "bytes.humidity.unit", quote: whyComfortUnits},
	{key: "adeunis_comfort", path: "bytes.co2.unit", quote: whyComfortUnits},
	{key: "adeunis_comfort", path: "bytes.status.hardwareError", quote: whyComfortFlags},
	{key: "adeunis_comfort", path: "bytes.status.configurationInconsistency", quote: whyComfortFlags},
	{key: "adeunis_comfort", path: "bytes.status.timestamp", quote: whyComfortFlags},
}

// TestBuiltinsAgreeWithVendorCodecs imports the vendor codecs, runs each of
// their examples through the imported codec and through the built-in key
// that models the same device, both in the sandbox, and lists the
// differences by key. A difference must be a name of the allow-list
// (renames, each with its row in docs/decoders.md) or explained there
// (explanations); an allow-list entry that no difference uses, or that
// docs/decoders.md does not explain, fails the test too.
func TestBuiltinsAgreeWithVendorCodecs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	ctx := context.Background()
	report, err := e.dec.ImportDevices(ctx, os.DirFS(vendorCodecs))
	if err != nil {
		t.Fatal(err)
	}
	if report.FailingCodecs() != 0 || len(report.Problems) != 0 {
		t.Fatalf("the vendor codecs disagree with their own examples: %+v", report)
	}
	repo, err := devrepo.Read(os.DirFS(vendorCodecs + "/vendor"))
	if err != nil {
		t.Fatal(err)
	}
	// A generic key (one for a vendor's protocol) is compared on the codecs
	// of the models it reads, beside their model keys: a codec may have
	// several pairings, but none may have none.
	paired := map[string]bool{}
	for _, p := range pairings {
		paired[p.codec] = true
	}
	for _, c := range repo.Codecs {
		if key := decoders.RepoKey(c.Vendor, c.ID); !paired[key] {
			t.Errorf("vendor codec %s is compared with no key: every fixture codec is", key)
		}
	}
	company := e.ID(t, "{acme}")
	usedRename, usedWhy := map[int]bool{}, map[int]bool{}
	var unexplained []string
	for _, p := range pairings {
		codec := findCodec(t, repo, p.codec)
		for _, x := range codec.Uplink {
			in := decoders.Input{Company: company, FPort: x.FPort, Bytes: x.Bytes, RecvTime: time.Now(), Variables: p.vars}
			theirs, err := e.dec.Decode(ctx, p.codec, in)
			if err != nil {
				t.Fatalf("%s: %v", p.codec, err)
			}
			ours, err := e.dec.Decode(ctx, p.key, in)
			if err != nil {
				t.Fatalf("%s: %v", p.key, err)
			}
			for _, d := range compareOutputs(p.key, theirs, ours, usedRename) {
				why := -1
				for i, x := range explanations {
					if x.key == p.key && under(d.path, x.path) {
						why = i
						break
					}
				}
				line := fmt.Sprintf("%s (%s, example %q): %s", p.key, p.codec, x.Description, d.text)
				if why < 0 {
					unexplained = append(unexplained, line)
					continue
				}
				usedWhy[why] = true
				t.Logf("%s — explained: %s", line, explanations[why].quote)
			}
		}
	}
	sort.Strings(unexplained)
	for _, u := range unexplained {
		t.Errorf("unexplained difference: %s", u)
	}
	checkAllowList(t, usedRename, usedWhy)
}

func findCodec(t *testing.T, repo *devrepo.Repository, key string) *devrepo.Codec {
	t.Helper()
	for i, c := range repo.Codecs {
		if decoders.RepoKey(c.Vendor, c.ID) == key {
			return &repo.Codecs[i]
		}
	}
	t.Fatalf("no fixture codec %s", key)
	return nil
}

// difference is one way the key's output differs from the vendor codec's,
// at path (the key's name, after the renames).
type difference struct{ path, text string }

// compareOutputs flattens both outputs to paths below data (the vendor's
// renamed to the key's names), compares the values (numbers by value) and
// whether each side gives errors and warnings; their texts are each
// decoder's own.
func compareOutputs(key string, theirs, ours decoders.Output, used map[int]bool) []difference {
	want, got := map[string]any{}, map[string]any{}
	vendor := jsonValue(theirs.Data)
	if _, ok := readingObjects[key]; ok {
		vendor = readingValues(vendor)
	}
	flatten("", vendor, want)
	flatten("", jsonValue(ours.Data), got)
	want = renameAll(key, want, used)
	var out []difference
	for _, p := range sortedPaths(want, got) {
		w, inW := want[p]
		g, inG := got[p]
		switch {
		case !inG:
			out = append(out, difference{p, fmt.Sprintf("%s: only the vendor's codec gives it (%v)", p, show(w))})
		case !inW:
			out = append(out, difference{p, fmt.Sprintf("%s: only the key gives it (%v)", p, show(g))})
		case show(w) != show(g):
			out = append(out, difference{p, fmt.Sprintf("%s: the vendor's codec gives %v, the key %v", p, show(w), show(g))})
		}
	}
	for _, part := range []struct {
		name         string
		theirs, ours []string
	}{{"errors", theirs.Errors, ours.Errors}, {"warnings", theirs.Warnings, ours.Warnings}} {
		if (len(part.theirs) == 0) != (len(part.ours) == 0) {
			out = append(out, difference{part.name, fmt.Sprintf("%s: the vendor's codec gives %q, the key %q", part.name, part.theirs, part.ours)})
		}
	}
	return out
}

// readingObjects are the keys whose vendor codec gives each reading as an
// object of its value, displayName and unit (Decentlab's codecs), each
// with the sentence of docs/decoders.md that says why the key gives the
// value alone. Their comparison compares the values.
var readingObjects = map[string]string{}

// readingValues is v with each reading object {value, displayName, unit}
// replaced by its value.
func readingValues(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["value"]; ok {
			reading := true
			for k := range v {
				if k != "value" && k != "displayName" && k != "unit" {
					reading = false
				}
			}
			if reading {
				return v["value"]
			}
		}
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = readingValues(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = readingValues(x)
		}
		return out
	}
	return v
}

func jsonValue(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// flatten gives each leaf of v its path: names joined by ".", list items
// as [i].
func flatten(path string, v any, out map[string]any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			flatten(join(path, k), x, out)
		}
	case []any:
		for i, x := range v {
			flatten(fmt.Sprintf("%s[%d]", path, i), x, out)
		}
	default:
		if path != "" {
			out[path] = v
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// renameAll gives the vendor's paths the key's names. A list of
// {index, reading} objects (Milesight's modbus_channels) is first one
// path per index ("modbus_channels.8"), which a rename to a numbered name
// ("modbus_chn_{n}") takes.
func renameAll(key string, in map[string]any, used map[int]bool) map[string]any {
	out := map[string]any{}
	indexed := regexp.MustCompile(`^(.*)\[(\d+)\]\.(index|reading)$`)
	readings := map[string]map[string]any{}
	for p, v := range in {
		if m := indexed.FindStringSubmatch(p); m != nil {
			item := m[1] + "[" + m[2] + "]"
			if readings[item] == nil {
				readings[item] = map[string]any{"list": m[1]}
			}
			readings[item][m[3]] = v
			continue
		}
		out[renameOne(key, p, used)] = mapped(key, p, v)
	}
	for _, r := range readings {
		p := fmt.Sprintf("%s.%v", r["list"], r["index"])
		out[renameOne(key, p, used)] = r["reading"]
	}
	return out
}

// pattern matches the vendor's name of r and what follows it (a deeper
// path or a list index); its first group is the number {n} stands for.
func (r renamed) pattern() *regexp.Regexp {
	name := regexp.QuoteMeta(r.vendor)
	switch {
	case strings.Contains(name, `\{n\}`):
		name = strings.ReplaceAll(name, `\{n\}`, `(\d+)`)
	case strings.Contains(r.ours, "{n}"):
		name += `\.(\d+)` // an indexed list
	}
	return regexp.MustCompile(`^` + name + `((?:[.\[].*)?)$`)
}

// renameOne is path under the key's name, when a rename of key covers it.
func renameOne(key, path string, used map[int]bool) string {
	for i, r := range renames {
		if r.key != key {
			continue
		}
		m := r.pattern().FindStringSubmatch(path)
		if m == nil {
			continue
		}
		used[i] = true
		name := r.ours
		if strings.Contains(name, "{n}") {
			name = strings.ReplaceAll(name, "{n}", m[1])
		}
		return name + m[len(m)-1]
	}
	return path
}

// mapped is v as the key gives it, where a rename maps the vendor's labels.
func mapped(key, path string, v any) any {
	for _, r := range renames {
		if r.key != key || r.values == nil || !r.pattern().MatchString(path) {
			continue
		}
		if m, ok := r.values[fmt.Sprint(v)]; ok {
			return m
		}
	}
	return v
}

func sortedPaths(a, b map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]any{a, b} {
		for p := range m {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// under tells whether path is at or below prefix.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+".") || strings.HasPrefix(path, prefix+"[")
}

// checkAllowList fails for an allow-list entry that no difference used, and
// for one that docs/decoders.md does not explain: a rename needs its row
// (key, the vendor's name, ours, and why) in the table of names, an
// explanation its quote in the text.
func checkAllowList(t *testing.T, usedRename, usedWhy map[int]bool) {
	t.Helper()
	raw, err := os.ReadFile("../../docs/decoders.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	rows := namingRows(doc)
	for i, r := range renames {
		if !usedRename[i] {
			t.Errorf("allow-list: %s renames %s to %s, which no example gives", r.key, r.vendor, r.ours)
		}
		if why := rows[r.key+"|"+r.vendor+"|"+r.ours]; why == "" {
			t.Errorf("allow-list: docs/decoders.md has no row | `%s` | `%s` | `%s` | why | in its table of names", r.key, r.vendor, r.ours)
		}
	}
	flat := strings.Join(strings.Fields(doc), " ")
	for key, quote := range readingObjects {
		if !strings.Contains(flat, quote) {
			t.Errorf("allow-list: docs/decoders.md does not say %q (for %s's readings)", quote, key)
		}
	}
	for i, x := range explanations {
		if !usedWhy[i] {
			t.Errorf("allow-list: the explanation of %s %s explains no difference", x.key, x.path)
		}
		if !strings.Contains(flat, x.quote) {
			t.Errorf("allow-list: docs/decoders.md does not say %q (for %s %s)", x.quote, x.key, x.path)
		}
	}
}

// namingRows reads the table of names of docs/decoders.md: each row
// "| `key` | `vendor's` | `ours` | why |" by key|vendor's|ours, to its why.
func namingRows(doc string) map[string]string {
	rows := map[string]string{}
	cell := regexp.MustCompile("^`([^`]+)`$")
	for _, line := range strings.Split(doc, "\n") {
		cols := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cols) != 4 {
			continue
		}
		var names []string
		for _, c := range cols[:3] {
			if m := cell.FindStringSubmatch(strings.TrimSpace(c)); m != nil {
				names = append(names, m[1])
			}
		}
		if len(names) == 3 {
			rows[strings.Join(names, "|")] = strings.TrimSpace(cols[3])
		}
	}
	return rows
}

// TestCompareOutputs: the comparison finds a value that differs (the AM300
// key's tVOC before its fix), takes the renames (numbered names, labels as
// booleans, an indexed list) and tells errors apart only by presence.
func TestCompareOutputs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		key         string
		theirs, our decoders.Output
		want        []string
	}{
		{"milesight_am300", decoders.Output{Data: map[string]any{"tvoc": 0.07, "co2": 1255}},
			decoders.Output{Data: map[string]any{"tvoc": 7, "co2": 1255.0}},
			[]string{"tvoc: the vendor's codec gives 0.07, the key 7"}},
		{"milesight_uc300", decoders.Output{Data: map[string]any{"digital_input_4": "on", "pulse_count_1": 22,
			"modbus_channels": []any{map[string]any{"index": 8, "reading": 5379}}}},
			decoders.Output{Data: map[string]any{"gpio_in_4": true, "counter_1": 22, "modbus_chn_8": 5379}, Errors: []string{"cut"}},
			[]string{`errors: the vendor's codec gives [], the key ["cut"]`}},
		{"dragino_lds02", decoders.Output{Data: map[string]any{"DOOR_OPEN_STATUS": 1, "BAT_V": 2.952}, Errors: []string{"unknown FPort"}},
			decoders.Output{Data: map[string]any{"door_open": false, "battery_voltage": 2.952}, Errors: []string{"unknown fPort 42"}},
			[]string{"door_open: the vendor's codec gives true, the key false"}},
	}
	for _, c := range cases {
		var got []string
		for _, d := range compareOutputs(c.key, c.theirs, c.our, map[int]bool{}) {
			got = append(got, d.text)
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got  %q\n want %q", c.key, got, c.want)
		}
	}
}
