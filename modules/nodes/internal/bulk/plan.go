package bulk

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// plan compares a file's rows with the company's nodes: the report, and
// what an apply writes.
type plan struct {
	companyID int64
	layout    *layout
	nodes     *registry.CompanyNodes
	owners    map[string]int64 // other companies' DevEUIs in the file
	hasDec    registry.HasDecoder
	validate  func(ctx context.Context, t *nodes.Tag, in registry.TagInput, all bool, has registry.HasDecoder) error

	profiles      nodes.Profiles
	decoderKey    func(ctx context.Context, v string) (key string, ambiguous bool, err error)
	profileByName func(ctx context.Context, name string) (ref *nodes.ProfileRef, ambiguous bool, err error)
	nodeProfiles  map[int64]nodes.ProfileRef
	appsByName    map[string][]nodes.Application
	appsByID      map[int64]nodes.Application
	seen          map[string]int // DevEUI → first row
	// claimsLeft is how many rows may still be told that another
	// company's node has their DevEUI (-1: no limit); once none may, every
	// row of a new DevEUI is refused unchecked, so that a file cannot find
	// out more DevEUIs than node by node creation would (claims).
	claimsLeft     int
	claimed        map[string]int64 // the refused claims, DevEUI → owner
	limited        bool
	report         Report
	create, update []*nodes.Tag
	labels         []registry.KeyLabel
	assign         []profileAssign
}

type profileAssign struct {
	tag     *nodes.Tag
	profile int64
}

func (s *Service) newPlan(ctx context.Context, companyID int64, l *layout, rows []row) (*plan, error) {
	cn, err := s.reg.CompanyNodes(ctx, companyID)
	if err != nil {
		return nil, err
	}
	p := &plan{companyID: companyID, layout: l, nodes: cn, hasDec: s.memoDecoders(), validate: s.reg.ApplyTagWith,
		appsByName: map[string][]nodes.Application{}, appsByID: map[int64]nodes.Application{}, seen: map[string]int{}, claimed: map[string]int64{},
		report: Report{Rows: make([]RowReport, 0, len(rows))}}
	p.decoderKey = s.decoderKey(companyID, p.hasDec)
	for _, a := range cn.Applications {
		key := strings.ToLower(strings.TrimSpace(a.Name))
		p.appsByName[key] = append(p.appsByName[key], a)
		p.appsByID[a.ID] = a
	}
	var others []string
	for _, r := range rows {
		raw, _ := l.cell(r, colDevEUI)
		if d := nodes.NormaliseEUI(raw); nodes.ValidDevEUI(d) && cn.ByDevEUI[d] == nil {
			others = append(others, d)
		}
	}
	if len(others) > 0 {
		if p.claimsLeft, err = s.reg.FreeClaims(ctx, companyID); err != nil {
			return nil, err
		}
	}
	if p.owners, err = s.reg.DevEUIOwners(ctx, others); err != nil {
		return nil, err
	}
	if p.profiles = s.Profiles(); p.profiles != nil && l.has(colProfile) {
		p.profileByName = profileByName(p.profiles, companyID)
		if p.nodeProfiles, err = p.profiles.ProfilesOfNodes(ctx, companyID); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// row plans one row.
func (p *plan) row(ctx context.Context, r row) error {
	l := p.layout
	rawEUI, _ := l.cell(r, colDevEUI)
	name, _ := l.cell(r, colName)
	out := RowReport{Row: r.Number, DevEUI: nodes.NormaliseEUI(rawEUI), Name: name}
	refuse := func(field, id string, args map[string]any) {
		out.Reasons = append(out.Reasons, Reason{Field: field, ID: id, Args: args})
	}
	existing := p.nodes.ByDevEUI[out.DevEUI]
	if first, dup := p.seen[out.DevEUI]; dup && out.DevEUI != "" {
		refuse(colDevEUI, nodes.IDImportDuplicate, map[string]any{"row": first})
	} else if out.DevEUI != "" {
		p.seen[out.DevEUI] = r.Number
	}
	if owner, other := p.owners[out.DevEUI]; existing == nil && nodes.ValidDevEUI(out.DevEUI) && (other || p.limited) {
		switch {
		case p.limited || p.claimsLeft == 0:
			p.limited = true
			refuse(colDevEUI, nodes.IDImportClaims, nil)
		default:
			refuse(colDevEUI, nodes.IDDevEUITaken, nil)
			p.claimed[out.DevEUI] = owner
			if p.claimsLeft > 0 {
				p.claimsLeft--
			}
		}
	}

	in, err := p.input(ctx, r, refuse)
	if err != nil {
		return err
	}
	t := &nodes.Tag{CompanyID: p.companyID}
	if existing != nil {
		copied := *existing
		t = &copied
	}
	if err := p.validate(ctx, t, in, existing == nil, p.hasDec); err != nil {
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid {
			return err
		}
		for _, f := range e.Fields {
			refuse(columnOfField(f.Field), f.ID, f.Args)
		}
	}
	if existing == nil {
		out.Name = t.Name
	}
	p.application(r, t, existing == nil, refuse)
	profile, err := p.profile(ctx, r, t, existing, refuse)
	if err != nil {
		return err
	}
	labels := p.labelsOf(r, t, existing, refuse)

	switch {
	case len(out.Reasons) > 0:
		out.Action = Refused
	case existing == nil:
		out.Action = Created
		p.create = append(p.create, t)
	default:
		out.Changes = changes(existing, t)
		if len(out.Changes) > 0 {
			p.update = append(p.update, t)
		}
		if profile != nil {
			out.Changes = append(out.Changes, colProfile)
		}
		for _, lb := range labels {
			out.Changes = append(out.Changes, labelPrefix+lb.Key)
		}
		out.Action = Unchanged
		if len(out.Changes) > 0 {
			out.Action = Changed
		}
	}
	if out.Action != Refused {
		p.labels = append(p.labels, labels...)
		if profile != nil {
			p.assign = append(p.assign, profileAssign{tag: t, profile: profile.ID})
		}
	}
	p.report.add(out)
	return nil
}

// input is the row as the node forms' input: the columns the file has.
func (p *plan) input(ctx context.Context, r row, refuse func(field, id string, args map[string]any)) (registry.TagInput, error) {
	l := p.layout
	var in registry.TagInput
	text := func(column string) *string {
		if v, ok := l.cell(r, column); ok {
			return &v
		}
		return nil
	}
	in.Name, in.DevEUI, in.AppEUI, in.AppKey = text(colName), text(colDevEUI), text(colJoinEUI), text(colAppKey)
	if v := text(colDecoder); v != nil && *v != "" {
		key, ambiguous, err := p.decoderKey(ctx, *v)
		if err != nil {
			return in, err
		}
		if ambiguous {
			refuse(colDecoder, nodes.IDImportDecoderAmbiguous, map[string]any{"key": *v})
		} else {
			in.Decoder = &key
		}
	} else {
		in.Decoder = v
	}
	in.Lat = number(l, r, colLatitude, refuse)
	in.Long = number(l, r, colLongitude, refuse)
	return in, nil
}

// number reads a position column: empty is none, and a decimal comma is
// taken as a point.
func number(l *layout, r row, column string, refuse func(field, id string, args map[string]any)) registry.Optional[float64] {
	v, ok := l.cell(r, column)
	if !ok {
		return registry.Optional[float64]{}
	}
	if v == "" {
		return registry.Optional[float64]{Set: true}
	}
	if !strings.Contains(v, ".") {
		v = strings.Replace(v, ",", ".", 1)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		refuse(column, nodes.IDImportNumber, nil)
		return registry.Optional[float64]{}
	}
	return registry.Optional[float64]{Set: true, Value: &f}
}

// columnOfField names the column of a field of the node forms.
func columnOfField(field string) string {
	switch field {
	case "deveui":
		return colDevEUI
	case "appEui":
		return colJoinEUI
	case "lat":
		return colLatitude
	case "long":
		return colLongitude
	}
	return field
}

// application resolves the application column onto t: an application of
// the company by name (whatever its case) or by id. New nodes need one.
func (p *plan) application(r row, t *nodes.Tag, create bool, refuse func(field, id string, args map[string]any)) {
	v, _ := p.layout.cell(r, colApplication)
	if v == "" {
		if create {
			refuse(colApplication, errs.IDRequired, nil)
		}
		return
	}
	apps := p.appsByName[strings.ToLower(v)]
	if len(apps) == 0 {
		if id, err := strconv.ParseInt(v, 10, 64); err == nil {
			if a, ok := p.appsByID[id]; ok {
				apps = []nodes.Application{a}
			}
		}
	}
	switch len(apps) {
	case 0:
		refuse(colApplication, nodes.IDAppUnknown, nil)
	case 1:
		t.ApplicationID = apps[0].ID
	default:
		refuse(colApplication, nodes.IDImportAppAmbiguous, map[string]any{"name": v})
	}
}

// profile resolves the profile column: the profile a new node is created
// with, or a new profile of an existing node (nil when the row gives none,
// or the node's own). An empty cell leaves a node's profile.
func (p *plan) profile(ctx context.Context, r row, t, existing *nodes.Tag, refuse func(field, id string, args map[string]any)) (*nodes.ProfileRef, error) {
	v, _ := p.layout.cell(r, colProfile)
	if v == "" {
		return nil, nil
	}
	if p.profiles == nil {
		refuse(colProfile, nodes.IDImportNoProfiles, nil)
		return nil, nil
	}
	ref, ambiguous, err := p.profileByName(ctx, v)
	if err != nil {
		return nil, err
	}
	if ambiguous {
		refuse(colProfile, nodes.IDImportProfileAmbiguous, map[string]any{"name": v})
		return nil, nil
	}
	if ref == nil {
		refuse(colProfile, nodes.IDImportProfileUnknown, map[string]any{"name": v})
		return nil, nil
	}
	if existing != nil {
		if cur, ok := p.nodeProfiles[existing.ID]; ok && cur.ID == ref.ID {
			return nil, nil
		}
	}
	return ref, nil
}

// labelsOf are the labels a row gives that differ from the node's: an
// empty cell clears a label.
func (p *plan) labelsOf(r row, t, existing *nodes.Tag, refuse func(field, id string, args map[string]any)) []registry.KeyLabel {
	var out []registry.KeyLabel
	for _, c := range p.layout.labels {
		v := cellAt(r, c.index)
		var k nodes.Key
		if existing != nil {
			k = p.nodes.Keys[existing.ID][c.key]
		}
		was := k.Label
		if err := registry.ApplyKeyLabel(&k, v); err != nil {
			var e *errs.Error
			if errors.As(err, &e) && len(e.Fields) > 0 {
				refuse(labelPrefix+c.key, e.Fields[0].ID, e.Fields[0].Args)
			}
			continue
		}
		if k.Label != was {
			out = append(out, registry.KeyLabel{Tag: t, Key: c.key, Label: k.Label})
		}
	}
	return out
}

// changes names the columns whose fields differ between a node and its
// row.
func changes(was, now *nodes.Tag) []string {
	var out []string
	add := func(differ bool, column string) {
		if differ {
			out = append(out, column)
		}
	}
	add(was.Name != now.Name, colName)
	add(was.AppEUI != now.AppEUI, colJoinEUI)
	add(was.AppKey != now.AppKey, colAppKey)
	add(was.ApplicationID != now.ApplicationID, colApplication)
	add(was.Decoder != now.Decoder, colDecoder)
	add(!sameNumber(was.Lat, now.Lat), colLatitude)
	add(!sameNumber(was.Long, now.Long), colLongitude)
	return out
}

func sameNumber(a, b *float64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// batch is what an apply writes: the profiles are given once the nodes
// have their ids, in the same transaction.
func (p *plan) batch() registry.ImportBatch {
	b := registry.ImportBatch{CompanyID: p.companyID, Create: p.create, Update: p.update, Labels: p.labels}
	if len(p.assign) > 0 {
		profiles, company := p.profiles, p.companyID
		b.Then = func(ctx context.Context, tx bun.IDB) error {
			for _, a := range p.assign {
				if err := profiles.ApplyProfile(ctx, tx, company, a.tag.ID, a.profile); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return b
}
