package validate

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// attrKind says how an attribute's value is checked.
type attrKind int

const (
	attrText        attrKind = iota // any text up to maxText
	attrShort                       // up to 255 characters
	attrBool                        // "true" or "false"
	attrNumber                      // a decimal number
	attrInt                         // a whole number >= 0
	attrKeys                        // data keys, comma separated
	attrNode                        // a DevEUI of the dashboard's company
	attrSeries                      // JSON [{"deveui","key"}]
	attrPositions                   // JSON [{"deveui","key","x","y"}]
	attrChartType                   // line, area, bar, scatter, vertical
	attrResolution                  // week, day, hour, 5hours
	attrDecimals                    // 0-10
	attrLat                         // -90..90
	attrLon                         // -180..180
	attrFontStyle                   // JSON {"type","size","weight"}
	attrDashboard                   // a dashboard of the same company
	attrIcon                        // an mdi- icon name
	attrAlarm                       // an alarm of the same company
	attrInputType                   // number, text, bool
	attrPayloadType                 // hex, json
)

// attributes are the attributes a module may have, each with the kind of
// value it takes: those the dashboard island has always read, plus series,
// resolution, positions, weather_lat and weather_lon, and the function
// button's function_type, input_type and downlink_* (see
// docs/api/dashboards.md). Every value is a string; "" is the same as
// absent.
var attributes = map[string]attrKind{
	"value_match":             attrText,
	"icon":                    attrIcon,
	"sufix":                   attrShort,
	"prefix":                  attrShort,
	"deveui":                  attrNode,
	"maxheight":               attrShort,
	"scriptid":                attrInt,
	"target":                  attrShort,
	"tagkey":                  attrKeys,
	"tagkey_x":                attrKeys,
	"tagkey_y":                attrKeys,
	"tagkey_x_max":            attrKeys,
	"tagkey_y_max":            attrKeys,
	"forceColors":             attrBool,
	"decimal_rounding":        attrDecimals,
	"dashboard_id":            attrDashboard,
	"sync_y":                  attrBool,
	"zoom_slider":             attrBool,
	"digital":                 attrBool,
	"alarm_id":                attrAlarm,
	"so_chart_type":           attrChartType,
	"so_ignore_body":          attrBool,
	"min_value":               attrNumber,
	"max_value":               attrNumber,
	"axis_label":              attrShort,
	"default_timespan":        attrShort,
	"font_size":               attrShort,
	"hide_trend_icon":         attrBool,
	"horizontel_single_title": attrBool,
	"so_hide_node_info":       attrBool,
	"font_style_large":        attrFontStyle,
	"so_single_sparkline":     attrBool,
	"series":                  attrSeries,
	"resolution":              attrResolution,
	"positions":               attrPositions,
	"weather_lat":             attrLat,
	"weather_lon":             attrLon,
	"function_type":           attrInt,
	"input_type":              attrInputType,
	"downlink_port":           attrInt,
	"downlink_payload":        attrText,
	"downlink_payload_type":   attrPayloadType,
	"downlink_confirmed":      attrBool,
}

const (
	maxText    = 16 << 10 // characters of a free text or JSON attribute
	maxSeries  = 50       // entries of series and positions
	maxKeyName = 255
)

var (
	chartTypes  = map[string]bool{"line": true, "area": true, "bar": true, "scatter": true, "vertical": true}
	resolutions = map[string]bool{"auto": true, "week": true, "day": true, "hour": true, "5hours": true}
)

// attrValue turns a JSON value into an attribute's string: strings as they
// are, numbers and booleans in their JSON spelling (a client may send
// "decimal_rounding": 1); null removes the attribute.
func attrValue(raw json.RawMessage) (string, bool, bool) {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "null":
		return "", false, true
	case strings.HasPrefix(s, `"`):
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", false, false
		}
		return v, true, true
	case s == "true" || s == "false":
		return s, true, true
	default:
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil {
			return "", false, false
		}
		return strconv.FormatFloat(f, 'f', -1, 64), true, true
	}
}

// NodeCheck tells whether a DevEUI is a node of the dashboard's company,
// and returns it normalised.
type NodeCheck func(deveui string) (string, bool, error)

// Nodes returns the NodeCheck of a company; it remembers its answers, so
// use it for one validation.
func (c *Checker) Nodes(ctx context.Context, companyID int64) NodeCheck {
	known := map[string]bool{}
	return func(deveui string) (string, bool, error) {
		eui := nodes.NormaliseEUI(deveui)
		if ok, seen := known[eui]; seen {
			return eui, ok, nil
		}
		t, err := c.nodes.TagByDevEUI(ctx, eui)
		if err != nil && !errs.Is(err, errs.NotFound) && !errs.Is(err, errs.Invalid) {
			return eui, false, err
		}
		ok := err == nil && t.CompanyID == companyID
		known[eui] = ok
		return eui, ok, nil
	}
}

// attributes validates raw attributes into what a module stores.
func (c *Checker) attributes(ctx context.Context, raw map[string]json.RawMessage, companyID int64, isNode NodeCheck, v *errs.Validation, field string) (map[string]string, error) {
	out := map[string]string{}
	for key, val := range raw {
		name := field + "." + key
		kind, known := attributes[key]
		if !known {
			v.AddArgs(name, dashboards.IDAttrUnknown, map[string]any{"key": key})
			continue
		}
		s, present, ok := attrValue(val)
		if !ok {
			v.AddArgs(name, dashboards.IDAttrInvalid, map[string]any{"key": key})
			continue
		}
		if !present || s == "" {
			continue
		}
		if utf8.RuneCountInString(s) > maxText || (kind == attrShort || kind == attrKeys || kind == attrIcon) && utf8.RuneCountInString(s) > maxKeyName {
			v.AddArgs(name, dashboards.IDAttrTooLong, map[string]any{"key": key})
			continue
		}
		norm, valid, err := c.attribute(ctx, kind, s, companyID, isNode)
		if err != nil {
			return nil, err
		}
		if !valid {
			v.AddArgs(name, dashboards.IDAttrInvalid, map[string]any{"key": key})
			continue
		}
		out[key] = norm
	}
	return out, nil
}

// attribute validates one value of a kind and returns it normalised.
func (c *Checker) attribute(ctx context.Context, kind attrKind, s string, companyID int64, isNode NodeCheck) (string, bool, error) {
	switch kind {
	case attrBool:
		return s, s == "true" || s == "false", nil
	case attrNumber:
		f, err := strconv.ParseFloat(s, 64)
		return s, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f), nil
	case attrInt:
		n, err := strconv.ParseInt(s, 10, 64)
		return s, err == nil && n >= 0, nil
	case attrDecimals:
		n, err := strconv.Atoi(s)
		return s, err == nil && n >= 0 && n <= 10, nil
	case attrLat, attrLon:
		f, err := strconv.ParseFloat(s, 64)
		limit := 90.0
		if kind == attrLon {
			limit = 180
		}
		return s, err == nil && f >= -limit && f <= limit, nil
	case attrChartType:
		return s, chartTypes[s], nil
	case attrInputType:
		return s, inputTypes[s], nil
	case attrPayloadType:
		return s, s == "hex" || s == "json", nil
	case attrResolution:
		return s, resolutions[s], nil
	case attrIcon:
		return s, iconPattern.MatchString(s), nil
	case attrKeys:
		for _, k := range strings.Split(s, ",") {
			if !validKey(strings.TrimSpace(k)) {
				return s, false, nil
			}
		}
		return s, true, nil
	case attrAlarm:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return s, false, nil
		}
		if c.alarms == nil || !c.alarms.Known() {
			return s, true, nil // without the alarms module, a plain number
		}
		st, err := c.alarms.Of(ctx, companyID, s)
		return s, st != nil, err
	case attrNode:
		eui, ok, err := isNode(s)
		return eui, ok, err
	case attrDashboard:
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return s, false, nil
		}
		d, err := store.Dashboard(ctx, c.db, id)
		if err != nil {
			if errs.Is(err, errs.NotFound) {
				return s, false, nil
			}
			return s, false, err
		}
		return s, d.CompanyID == companyID, nil
	case attrSeries:
		var list []dashboards.SeriesRef
		if err := json.Unmarshal([]byte(s), &list); err != nil || len(list) > maxSeries {
			return s, false, nil
		}
		for i, ref := range list {
			eui, ok, err := isNode(ref.DevEUI)
			if err != nil || !ok || !validKey(ref.Key) {
				return s, false, err
			}
			list[i].DevEUI = eui
		}
		raw, _ := json.Marshal(list)
		return string(raw), true, nil
	case attrPositions:
		var list []dashboards.Position
		if err := json.Unmarshal([]byte(s), &list); err != nil || len(list) > maxSeries {
			return s, false, nil
		}
		for i, p := range list {
			eui, ok, err := isNode(p.DevEUI)
			if err != nil || !ok || !validKey(p.Key) || p.X < 0 || p.X > 1 || p.Y < 0 || p.Y > 1 {
				return s, false, err
			}
			list[i].DevEUI = eui
		}
		raw, _ := json.Marshal(list)
		return string(raw), true, nil
	case attrFontStyle:
		var style map[string]any
		if err := json.Unmarshal([]byte(s), &style); err != nil {
			return s, false, nil
		}
		for k, val := range style {
			switch val.(type) {
			case string, float64:
			default:
				return s, false, nil
			}
			if k != "type" && k != "size" && k != "weight" {
				return s, false, nil
			}
		}
		return s, true, nil
	}
	return s, true, nil
}

// validKey reports whether k can name a series key: what the time-series
// store accepts (no control characters or backslashes), at most 255
// characters.
func validKey(k string) bool {
	if k == "" || utf8.RuneCountInString(k) > maxKeyName {
		return false
	}
	for _, r := range k {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return false
		}
	}
	return true
}
