package registry

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/profiles"
)

// moduleTypes are the dashboard modules a template may hold: those that
// show one key of one node.
var moduleTypes = []int{dashboards.TypeChart, dashboards.TypeGauge, dashboards.TypeLatest, dashboards.TypeTrend}

// maxUnit bounds a key's unit, as the nodes module does.
const maxUnit = 32

// check validates in and copies it onto p, whose company is set; every
// bad field is named in one errs.Invalid error.
func (g *Registry) check(ctx context.Context, p *profiles.Profile, in profiles.Input) error {
	v := &errs.Validation{}
	p.Name = strings.TrimSpace(in.Name)
	text(v, "name", p.Name, profiles.MaxName, true)
	p.VendorID, p.ModelID = strings.TrimSpace(in.VendorID), strings.TrimSpace(in.ModelID)
	if p.VendorID != "" || p.ModelID != "" {
		if _, err := g.deps.Decoders.DeviceModel(ctx, p.VendorID, p.ModelID); errs.Is(err, errs.NotFound) {
			v.Add("modelId", profiles.IDModelUnknown)
		} else if err != nil {
			return err
		}
	}
	p.Decoder = strings.TrimSpace(in.Decoder)
	if p.Decoder != "" {
		ok, err := g.deps.Decoders.Has(ctx, p.CompanyID, p.Decoder)
		if err != nil {
			return fmt.Errorf("check decoder %q: %w", p.Decoder, err)
		}
		if !ok {
			v.Add("decoder", profiles.IDDecoderUnknown)
		}
	}
	p.Keys = checkKeys(v, in.Keys)
	p.DefaultKey = strings.TrimSpace(in.DefaultKey)
	if p.DefaultKey != "" && !validKey(p.DefaultKey) {
		v.Add("defaultKey", profiles.IDKeyInvalid)
	}
	p.UplinkInterval = in.UplinkInterval
	if p.UplinkInterval < 0 || p.UplinkInterval > profiles.MaxInterval {
		v.AddArgs("uplinkInterval", profiles.IDIntervalInvalid, map[string]any{"max": profiles.MaxInterval})
	}
	p.Alarms = []alarms.Template{}
	if len(in.Alarms) > profiles.MaxAlarms {
		v.AddArgs("alarms", profiles.IDTooMany, map[string]any{"max": profiles.MaxAlarms})
	} else {
		for i, t := range in.Alarms {
			p.Alarms = append(p.Alarms, alarms.CheckTemplate(t, fmt.Sprintf("alarms[%d].", i), v))
		}
	}
	p.Dashboard = checkModules(v, in.Dashboard)
	return v.Err()
}

// checkKeys checks the keys' labels: each key once, well formed.
func checkKeys(v *errs.Validation, in []profiles.KeyLabel) []profiles.KeyLabel {
	out := []profiles.KeyLabel{}
	if len(in) > profiles.MaxKeys {
		v.AddArgs("keys", profiles.IDTooMany, map[string]any{"max": profiles.MaxKeys})
		return out
	}
	seen := map[string]bool{}
	for i, k := range in {
		k.Key, k.Label, k.Unit = strings.TrimSpace(k.Key), strings.TrimSpace(k.Label), strings.TrimSpace(k.Unit)
		field := fmt.Sprintf("keys[%d].", i)
		switch {
		case k.Key == "":
			v.Add(field+"key", errs.IDRequired)
		case !validKey(k.Key):
			v.Add(field+"key", profiles.IDKeyInvalid)
		case seen[k.Key]:
			v.AddArgs(field+"key", profiles.IDKeyTwice, map[string]any{"key": k.Key})
		}
		seen[k.Key] = true
		text(v, field+"label", k.Label, profiles.MaxName, false)
		text(v, field+"unit", k.Unit, maxUnit, false)
		out = append(out, k)
	}
	return out
}

// checkModules checks the dashboard template.
func checkModules(v *errs.Validation, in []profiles.DashboardModule) []profiles.DashboardModule {
	out := []profiles.DashboardModule{}
	if len(in) > profiles.MaxModules {
		v.AddArgs("dashboard", profiles.IDTooMany, map[string]any{"max": profiles.MaxModules})
		return out
	}
	for i, m := range in {
		m.Title, m.TagKey = strings.TrimSpace(m.Title), strings.TrimSpace(m.TagKey)
		field := fmt.Sprintf("dashboard[%d].", i)
		if !slices.Contains(moduleTypes, m.Type) {
			v.Add(field+"type", profiles.IDModuleType)
		}
		text(v, field+"title", m.Title, profiles.MaxName, false)
		switch {
		case m.TagKey == "":
			v.Add(field+"tagKey", errs.IDRequired)
		case !validKey(m.TagKey):
			v.Add(field+"tagKey", profiles.IDKeyInvalid)
		}
		out = append(out, m)
	}
	return out
}

// validKey tells a well-formed key name: at most 255 printable characters
// without spaces, as the decoders' flattened keys are.
func validKey(k string) bool {
	return utf8.ValidString(k) && utf8.RuneCountInString(k) <= profiles.MaxName &&
		strings.IndexFunc(k, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) < 0
}

// text adds the field error of a missing, too long or unprintable text.
func text(v *errs.Validation, field, s string, max int, required bool) {
	switch n := utf8.RuneCountInString(s); {
	case required && n == 0:
		v.Add(field, errs.IDRequired)
	case n > max && max == profiles.MaxName:
		v.Add(field, errs.IDMaxChars255)
	case n > max:
		v.Add(field, errs.IDTooLong)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		v.Add(field, profiles.IDTextInvalid)
	}
}
