package httpapi

import (
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/reports"
)

// ReportInput is the body of POST /report and PUT /report/{id}.
type ReportInput struct {
	Name           string   `json:"name"`
	Type           string   `json:"type"`
	Tempo          *int     `json:"tempo"`
	RefrenceDate   string   `json:"refrenceDate"`
	ReportContacts []string `json:"reportContacts"`
	Nodes          []int64  `json:"nodes"`
	Keys           []string `json:"keys"`
	Resolution     string   `json:"resolution"`
}

// apply checks in and copies it to r; an empty reference date is today
// in loc.
func (in *ReportInput) apply(r *reports.Report, loc *time.Location, now time.Time) error {
	var v errs.Validation
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		v.Add("name", errs.IDRequired)
	case utf8.RuneCountInString(name) > reports.MaxName:
		v.Add("name", errs.IDMaxChars255)
	}
	if !reports.ValidType(in.Type) {
		v.Add("type", reports.IDType)
	}
	if in.Tempo == nil || !reports.ValidTempo(*in.Tempo) {
		v.Add("tempo", reports.IDTempo)
	}
	ref := strings.TrimSpace(in.RefrenceDate)
	if ref == "" {
		ref = now.In(loc).Format(time.DateOnly)
	} else if t, err := time.Parse(time.RFC3339, ref); err == nil {
		ref = t.In(loc).Format(time.DateOnly) // a date picker's midnight
	} else if _, err := time.Parse(time.DateOnly, ref); err != nil {
		v.Add("refrenceDate", reports.IDReferenceDate)
	}
	contacts := make([]string, 0, len(in.ReportContacts))
	for _, c := range in.ReportContacts {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if a, err := mail.ParseAddress(c); err != nil || a.Address != c {
			v.AddArgs("reportContacts", reports.IDContact, map[string]any{"email": c})
			continue
		}
		if !slices.Contains(contacts, c) {
			contacts = append(contacts, c)
		}
	}
	if len(contacts) > reports.MaxContacts {
		v.AddArgs("reportContacts", reports.IDContacts, map[string]any{"max": reports.MaxContacts})
	}
	nodes, keys := checkSelection(&v, in.Nodes, in.Keys)
	res := in.Resolution
	if res == "" {
		res = reports.ResolutionHour
	}
	if !reports.ValidResolution(res) {
		v.Add("resolution", reports.IDResolution)
	}
	if err := v.Err(); err != nil {
		return err
	}
	r.Name, r.Type, r.Tempo, r.RefrenceDate, r.ReportContacts = name, in.Type, *in.Tempo, ref, contacts
	r.Nodes, r.Keys, r.Resolution = nodes, keys, res
	return nil
}

// checkSelection checks the nodes and keys of a report or export: at
// least one of each, within the limits; duplicates are dropped.
func checkSelection(v *errs.Validation, nodeIDs []int64, keyNames []string) ([]int64, []string) {
	var nodes []int64
	for _, id := range nodeIDs {
		if !slices.Contains(nodes, id) {
			nodes = append(nodes, id)
		}
	}
	if len(nodes) == 0 || len(nodes) > reports.MaxNodes {
		v.AddArgs("nodes", reports.IDNodes, map[string]any{"max": reports.MaxNodes})
	}
	var keys []string
	for _, k := range keyNames {
		k = strings.TrimSpace(k)
		if k == "" || len(k) > 255 || strings.HasPrefix(k, "$") {
			v.AddArgs("keys", reports.IDKeys, map[string]any{"max": reports.MaxKeys})
			continue
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 || len(keys) > reports.MaxKeys {
		v.AddArgs("keys", reports.IDKeys, map[string]any{"max": reports.MaxKeys})
	}
	return nodes, keys
}

// ExportInput is the body of POST /report/multiexport and /report/preview.
type ExportInput struct {
	Nodes      []int64   `json:"nodes"`
	Keys       []string  `json:"keys"`
	From       time.Time `json:"from"`
	To         time.Time `json:"to"`
	Type       string    `json:"type"`
	Format     string    `json:"format"`
	Resolution string    `json:"resolution"`
}

// maxWindow bounds an export's window.
const maxWindow = 366 * 24 * time.Hour

// spec checks in and returns the spec of company in loc.
func (in *ExportInput) spec(company int64, loc *time.Location) (reports.Spec, string, error) {
	var v errs.Validation
	nodes, keys := checkSelection(&v, in.Nodes, in.Keys)
	if in.Type == "" {
		in.Type = reports.TypeRegular
	}
	if !reports.ValidType(in.Type) {
		v.Add("type", reports.IDType)
	}
	format := in.Format
	if format == "" {
		format = reports.FormatXLSX
	}
	if format != reports.FormatXLSX && format != reports.FormatCSV {
		v.Add("format", reports.IDFormat)
	}
	if in.Resolution == "" {
		in.Resolution = reports.ResolutionHour
	}
	if !reports.ValidResolution(in.Resolution) {
		v.Add("resolution", reports.IDResolution)
	}
	if in.From.IsZero() || in.To.IsZero() || !in.From.Before(in.To) || in.To.Sub(in.From) > maxWindow {
		v.AddArgs("to", reports.IDWindow, map[string]any{"days": int(maxWindow.Hours() / 24)})
	}
	if err := v.Err(); err != nil {
		return reports.Spec{}, "", err
	}
	return reports.Spec{Company: company, Nodes: nodes, Keys: keys, Type: in.Type, Resolution: in.Resolution,
		From: in.From, To: in.To, Location: loc}, format, nil
}
