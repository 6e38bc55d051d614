// Package pages holds the ingest's part of the decoder pages: the
// re-decode section of /decoders/{decoderId} (a decoders.PageSection: the
// form that starts a job and the decoder's jobs with their progress) and
// its page routes: POST /decoders/{decoderId}/redecode, the jobs fragment
// GET /decoders/{decoderId}/jobs (htmx, polling itself while a job runs)
// and POST /decoders/{decoderId}/jobs/{jobId}/cancel.
package pages

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Section is the re-decode section; it satisfies decoders.PageSection.
type Section struct {
	host     *kernel.Host
	ui       *ui.Env
	decoders ingest.DecoderPages
	users    ingest.DecoderUsers
	jobs     *redecode.Jobs
}

// New returns the section; register it with the decoder pages.
func New(host *kernel.Host, env *ui.Env, pages ingest.DecoderPages, users ingest.DecoderUsers, jobs *redecode.Jobs) *Section {
	return &Section{host: host, ui: env, decoders: pages, users: users, jobs: jobs}
}

// Routes registers the section's page routes.
func (s *Section) Routes(r *web.ModuleRoutes) {
	r.Page("POST /decoders/{decoderId}/redecode", auth.AdminOrCompanyAdmin, s.redecodeSubmit)
	r.Page("GET /decoders/{decoderId}/jobs", auth.AdminOrCompanyAdmin, s.jobsFragment)
	r.Page("POST /decoders/{decoderId}/jobs/{jobId}/cancel", auth.AdminOrCompanyAdmin, s.cancelSubmit)
}

// sectionView is what the section shows.
type sectionView struct {
	D *decoders.Decoder
	// Nodes are the nodes that use the decoder, to choose from.
	Nodes []decoders.NodeRef
	Form  redecodeForm
	Jobs  []ingest.RedecodeJob
}

// redecodeForm is the re-decode form: the values shown and their errors.
type redecodeForm struct {
	Vals   url.Values
	Errors ui.FormErrors
}

// view is the section of d with a fresh form: the last 30 days.
func (s *Section) view(ctx context.Context, d *decoders.Decoder) (*sectionView, error) {
	nodes, err := s.users.DecoderNodes(ctx, d.CompanyID, d.Key)
	if err != nil {
		return nil, fmt.Errorf("nodes of decoder %d: %w", d.ID, err)
	}
	today := time.Now().UTC()
	v := &sectionView{D: d, Nodes: nodes, Form: redecodeForm{Errors: ui.NoErrors, Vals: url.Values{
		"from": {today.AddDate(0, 0, -30).Format(time.DateOnly)}, "to": {today.Format(time.DateOnly)}}}}
	if v.Jobs, err = s.jobs.List(ctx, d.CompanyID, d.Key); err != nil {
		return nil, err
	}
	return v, nil
}

// DecoderSection draws the section on d's page; see decoders.PageSection.
func (s *Section) DecoderSection(r *http.Request, d *decoders.Decoder) (templ.Component, error) {
	v, err := s.view(r.Context(), d)
	if err != nil {
		return nil, err
	}
	return redecodeSection(v), nil
}

// t translates id in the language of the page being answered.
func (s *Section) t(r *http.Request, id string) string {
	return s.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, map[string]any{})
}

// redecodeSubmit starts a re-decode job from the form of the decoder page:
// whole UTC days from the from date to the to date.
func (s *Section) redecodeSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := s.decoders.PageDecoder(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in, verr := redecodeInput(d.Key, vals)
	if verr == nil {
		_, verr = s.jobs.Create(r.Context(), d.CompanyID, in)
	}
	if verr != nil {
		v, err := s.view(r.Context(), d)
		if err != nil {
			return err
		}
		v.Form.Vals = vals
		page, err := s.decoders.DecoderPage(r, d, s)
		if err != nil {
			return err
		}
		return s.ui.FormFailed(w, r, verr, "decoders.edit.title", func(fe ui.FormErrors) templ.Component {
			v.Form.Errors = fe
			return redecodeSection(v)
		}, page, ui.Options{Islands: true})
	}
	web.Toast(w, r, "success", s.t(r, "decoders.redecode.started"))
	web.Redirect(w, r, decoderPath(d.ID, "#redecode"))
	return nil
}

// redecodeInput reads the re-decode form.
func redecodeInput(key string, vals url.Values) (redecode.Input, error) {
	in := redecode.Input{Decoder: &key}
	v := errs.Validation{}
	if raw := vals.Get("tagId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			v.Add("tagId", ingest.IDRedecodeTagNotUsing)
		} else {
			in.TagID = &id
		}
	}
	for _, f := range []struct {
		name string
		dst  **time.Time
		next bool
	}{{"from", &in.From, false}, {"to", &in.To, true}} {
		raw := strings.TrimSpace(vals.Get(f.name))
		if raw == "" {
			v.Add(f.name, errs.IDRequired)
			continue
		}
		day, err := time.Parse(time.DateOnly, raw)
		if err != nil {
			v.Add(f.name, ingest.IDRedecodeRange)
			continue
		}
		if f.next { // the to date is included: the window ends at its midnight
			day = day.AddDate(0, 0, 1)
		}
		*f.dst = &day
	}
	return in, v.Err()
}

// jobsFragment is the list of the decoder's jobs, which polls itself while
// one is under way.
func (s *Section) jobsFragment(w http.ResponseWriter, r *http.Request) error {
	d, err := s.decoders.PageDecoder(r)
	if err != nil {
		return err
	}
	jobs, err := s.jobs.List(r.Context(), d.CompanyID, d.Key)
	if err != nil {
		return err
	}
	return s.ui.Fragment(w, r, http.StatusOK, jobList(d, jobs))
}

// cancelSubmit cancels a job of the decoder.
func (s *Section) cancelSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := s.decoders.PageDecoder(r)
	if err != nil {
		return err
	}
	j, err := s.jobs.PathJob(r)
	if err != nil {
		return err
	}
	if j.DecoderKey != d.Key {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err := s.jobs.Cancel(r.Context(), j); err != nil {
		return err
	}
	if web.IsHTMX(r) {
		return s.jobsFragment(w, r)
	}
	web.Redirect(w, r, decoderPath(d.ID, "#redecode"))
	return nil
}

func decoderPath(id int64, rest string) string { return fmt.Sprintf("/decoders/%d%s", id, rest) }

// jobsRunning tells whether a job of the list is under way.
func jobsRunning(jobs []ingest.RedecodeJob) bool {
	for _, j := range jobs {
		if j.Running() {
			return true
		}
	}
	return false
}

// percent shows a job's progress.
func percent(p float64) string { return strconv.Itoa(int(p*100+0.5)) + " %" }

// formatTime shows a time in the viewer's zone, to the minute, as the decoder pages do.
func formatTime(ctx context.Context, t time.Time) string { return ui.DateTimeMinutes(ctx, t) }

// nodeOptions are the choices of the re-decode form's node select.
func nodeOptions(ctx context.Context, nodes []decoders.NodeRef) []ui.Option {
	opts := []ui.Option{{Value: "", Label: ui.Tf(ctx, "decoders.redecode.allNodes", "count", len(nodes))}}
	for _, n := range nodes {
		opts = append(opts, ui.Option{Value: strconv.FormatInt(n.ID, 10), Label: n.Name + " (" + n.DevEUI + ")"})
	}
	return opts
}
