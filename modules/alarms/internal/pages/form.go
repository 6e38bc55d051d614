package pages

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/rules"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// formView is what the rule form shows: the values (as posted, or of the
// saved rule), the company's nodes and their keys, the errors of a refused
// form.
type formView struct {
	ID     int64 // 0 for a new rule
	Name   string
	Values url.Values
	Tags   []*nodes.Tag
	Keys   []string
	Errors ui.FormErrors
}

func (v *formView) action() string {
	if v.ID == 0 {
		return "/alarm/create"
	}
	return fmt.Sprintf("/alarm/%d", v.ID)
}

func (v *formView) checked(name string) bool { return v.Values.Get(name) == "true" }

func (v *formView) day(d int) bool { return slices.Contains(v.Values["activeDays"], strconv.Itoa(d)) }

// previewProps are the props of the alarm-preview island: the node and key
// whose last 24 hours it draws, and the limits it draws over them.
func (v *formView) previewProps() string {
	tag, _ := strconv.ParseInt(v.Values.Get("tag"), 10, 64)
	props := map[string]any{"tagId": tag, "key": v.Values.Get("tagDataKey")}
	for _, name := range []string{"limitHigh", "limitLow", "hysteresis"} {
		if f, err := strconv.ParseFloat(strings.TrimSpace(v.Values.Get(name)), 64); err == nil {
			props[name] = f
		}
	}
	raw, _ := json.Marshal(props)
	return string(raw)
}

// valuesOf are a saved rule's values as its form posts them.
func valuesOf(a *alarms.Alarm) url.Values {
	num := func(f *float64) string {
		if f == nil {
			return ""
		}
		return strconv.FormatFloat(*f, 'f', -1, 64)
	}
	flag := func(b bool) string {
		if b {
			return "true"
		}
		return ""
	}
	v := url.Values{
		"name": {a.Name}, "tag": {strconv.FormatInt(a.TagID, 10)}, "tagDataKey": {a.TagDataKey}, "message": {a.Message},
		"signalType": {strconv.Itoa(a.SignalType)}, "limitHigh": {num(a.LimitHigh)}, "limitLow": {num(a.LimitLow)},
		"digitalTrigger": {num(&a.DigitalTrigger)}, "triggerHigh": {flag(a.TriggerHigh)}, "triggerLow": {flag(a.TriggerLow)},
		"alarmDelay": {strconv.Itoa(a.AlarmDelay)}, "priority": {strconv.Itoa(a.Priority)}, "contactType": {strconv.Itoa(a.ContactType)},
		"alarmContacts": {strings.Join(a.AlarmContacts, "\n")}, "advanced": {flag(a.Advanced)}, "hysteresis": {num(&a.Hysteresis)},
		"renotifyInterval": {strconv.Itoa(a.RenotifyInterval)}, "escalateAfter": {strconv.Itoa(a.EscalateAfter)},
		"escalationContacts": {strings.Join(a.EscalationContacts, "\n")}, "active": {flag(a.Active)},
	}
	for _, d := range a.ActiveDays {
		v.Add("activeDays", strconv.Itoa(d))
	}
	return v
}

// newValues are the values of a new rule's form: a HIGH rule on every day,
// priority A to both kinds of contact, switched on.
func newValues(r *http.Request) url.Values {
	v := url.Values{"signalType": {"0"}, "alarmDelay": {"0"}, "priority": {"0"}, "contactType": {"2"}, "digitalTrigger": {"1"},
		"active": {"true"}, "activeDays": {"0", "1", "2", "3", "4", "5", "6"}, "hysteresis": {"0"}, "renotifyInterval": {"0"}, "escalateAfter": {"0"}}
	if tag := r.URL.Query().Get("tag"); tag != "" {
		v.Set("tag", tag)
	}
	return v
}

// inputOf reads the form into the rule's input; numbers that are not
// numbers are field errors of their own.
func inputOf(vals url.Values) (rules.Input, error) {
	v := &errs.Validation{}
	in := rules.Input{Name: vals.Get("name"), TagDataKey: vals.Get("tagDataKey"), Message: vals.Get("message"),
		TriggerHigh: vals.Get("triggerHigh") == "true", TriggerLow: vals.Get("triggerLow") == "true", Advanced: vals.Get("advanced") == "true",
		AlarmContacts: lines(vals.Get("alarmContacts")), EscalationContacts: lines(vals.Get("escalationContacts")), ActiveDays: []int{}}
	active := vals.Get("active") == "true"
	in.Active = &active
	in.Tag, _ = strconv.ParseInt(vals.Get("tag"), 10, 64)
	integer := func(name string) *int {
		raw := strings.TrimSpace(vals.Get(name))
		if raw == "" {
			return nil
		}
		n, err := strconv.Atoi(raw)
		if err != nil {
			v.Add(name, alarms.IDNumberInvalid)
			return nil
		}
		return &n
	}
	float := func(name string) *float64 {
		raw := strings.TrimSpace(strings.ReplaceAll(vals.Get(name), ",", "."))
		if raw == "" {
			return nil
		}
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			v.Add(name, alarms.IDNumberInvalid)
			return nil
		}
		return &f
	}
	in.Priority, in.ContactType, in.SignalType, in.AlarmDelay = integer("priority"), integer("contactType"), integer("signalType"), integer("alarmDelay")
	if in.SignalType == nil || *in.SignalType == alarms.SignalAnalog {
		in.LimitHigh, in.LimitLow = float("limitHigh"), float("limitLow")
	}
	in.DigitalTrigger = float("digitalTrigger")
	if h := float("hysteresis"); h != nil {
		in.Hysteresis = *h
	}
	if n := integer("renotifyInterval"); n != nil {
		in.RenotifyInterval = *n
	}
	if n := integer("escalateAfter"); n != nil {
		in.EscalateAfter = *n
	}
	for _, d := range vals["activeDays"] {
		if n, err := strconv.Atoi(d); err == nil {
			in.ActiveDays = append(in.ActiveDays, n)
		}
	}
	return in, v.Err()
}

// lines splits a list typed one per line (or with commas).
func lines(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' || r == ';' }) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// view fills a form's nodes and keys.
func (p *Pages) view(ctx context.Context, company int64, v *formView) (*formView, error) {
	tags, _, err := p.companyTags(ctx, company)
	if err != nil {
		return nil, err
	}
	v.Tags = tags
	seen := map[string]bool{}
	for _, t := range tags {
		for _, k := range t.Keys {
			if !seen[k] && !strings.HasPrefix(k, "$") {
				seen[k] = true
				v.Keys = append(v.Keys, k)
			}
		}
	}
	slices.Sort(v.Keys)
	return v, nil
}

func (p *Pages) renderForm(w http.ResponseWriter, r *http.Request, title string, v *formView) error {
	return p.ui.Render(w, r, http.StatusOK, title, formPage(v), ui.Options{Islands: true})
}

// createPage is /alarm/create.
func (p *Pages) createPage(w http.ResponseWriter, r *http.Request) error {
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, "alarms.create.title", noCompany("alarms.create.title"))
	}
	v, err := p.view(r.Context(), company, &formView{Values: newValues(r), Errors: ui.NoErrors})
	if err != nil {
		return err
	}
	return p.renderForm(w, r, "alarms.create.title", v)
}

// editPage is /alarm/{id}.
func (p *Pages) editPage(w http.ResponseWriter, r *http.Request) error {
	a, err := p.pathAlarm(r)
	if err != nil {
		return err
	}
	v, err := p.view(r.Context(), a.CompanyID, &formView{ID: a.ID, Name: a.Name, Values: valuesOf(a), Errors: ui.NoErrors})
	if err != nil {
		return err
	}
	return p.renderForm(w, r, "alarms.edit.title", v)
}

// save checks a posted form and stores the rule (a new one when old is
// nil); a refused form is drawn again with its messages.
func (p *Pages) save(w http.ResponseWriter, r *http.Request, company int64, old *alarms.Alarm) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in, err := inputOf(vals)
	var a *alarms.Alarm
	if err == nil {
		a, err = rules.Build(r.Context(), in, company, func(ctx context.Context, id int64) (int64, error) {
			t, err := p.tags.Tag(ctx, id)
			if err != nil {
				return 0, err
			}
			return t.CompanyID, nil
		})
	}
	if err == nil {
		now := time.Now().UTC()
		if old == nil {
			a.CreatedAt, a.UpdatedAt = now, now
			err = store.Insert(r.Context(), p.db, a)
		} else {
			a.ID, a.CreatedAt, a.UpdatedAt, a.OpenEventID = old.ID, old.CreatedAt, now, old.OpenEventID
			err = store.Update(r.Context(), p.db, a)
		}
	}
	if err != nil {
		fv := &formView{Values: vals}
		title := "alarms.create.title"
		if old != nil {
			fv.ID, fv.Name, title = old.ID, old.Name, "alarms.edit.title"
		}
		if _, verr := p.view(r.Context(), company, fv); verr != nil {
			return verr
		}
		return p.ui.FormFailed(w, r, err, title, func(fe ui.FormErrors) templ.Component {
			fv.Errors = fe
			return ruleForm(fv)
		}, func(form templ.Component) templ.Component { return formFrame(fv, form) }, ui.Options{Islands: true})
	}
	p.engine.RulesChanged()
	if old == nil {
		p.announce(r.Context(), company, alarms.AuditCreated, a.Name)
	} else {
		p.announce(r.Context(), company, alarms.AuditUpdated, a.Name)
	}
	web.Toast(w, r, "success", p.t(r, "alarms.saved"))
	web.Redirect(w, r, "/alarm")
	return nil
}

// createSubmit saves a new rule.
func (p *Pages) createSubmit(w http.ResponseWriter, r *http.Request) error {
	company := viewedCompany(r)
	if company == 0 {
		return notFound()
	}
	return p.save(w, r, company, nil)
}

// editSubmit saves a rule.
func (p *Pages) editSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := p.pathAlarm(r)
	if err != nil {
		return err
	}
	return p.save(w, r, a.CompanyID, a)
}

// testSubmit sends the form's test message now and shows per channel what
// became of it.
func (p *Pages) testSubmit(w http.ResponseWriter, r *http.Request) error {
	company := viewedCompany(r)
	if company == 0 {
		return notFound()
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	v := &errs.Validation{}
	a := &alarms.Alarm{CompanyID: company, Name: strings.TrimSpace(vals.Get("name")), Message: vals.Get("message"), TagDataKey: vals.Get("tagDataKey")}
	a.Priority, _ = strconv.Atoi(vals.Get("priority"))
	a.ContactType, _ = strconv.Atoi(vals.Get("contactType"))
	a.AlarmContacts = rules.Contacts("alarmContacts", lines(vals.Get("alarmContacts")), v)
	if len(a.AlarmContacts) == 0 && !v.Has("alarmContacts") {
		v.Add("alarmContacts", errs.IDRequired)
	}
	if err := v.Err(); err != nil {
		fe, ok := p.ui.ErrorsOf(web.ViewerFrom(r.Context()).Lang, err)
		if !ok {
			return err
		}
		return p.ui.Fragment(w, r, http.StatusOK, testResult(nil, fe))
	}
	if a.Name == "" {
		a.Name = "Test"
	}
	loc := time.UTC
	if c, err := p.accounts.Company(r.Context(), company); err == nil {
		loc = c.Location()
	}
	text := "Test message: " + alarms.Render(a.Message, alarms.Facts{Alarm: a.Name, Node: "Test node", DevEUI: "0000000000000000",
		Key: a.TagDataKey, Time: time.Now(), Zone: loc})
	res := p.engine.SendTest(r.Context(), a, text)
	return p.ui.Fragment(w, r, http.StatusOK, testResult(&res, ui.NoErrors))
}
