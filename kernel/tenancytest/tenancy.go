// Package tenancytest walks every registered /api route as each role of one
// company with the ids of another, and fails on any answer that reveals or
// changes the other company's data. Modules plug in by naming the path
// parameters of their routes (so that each gets a foreign id), adding
// bodies that would succeed on the caller's own data, and adding their
// tables to the snapshot of the foreign company.
package tenancytest

import (
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// Caller is one party of the own company the walk acts as.
type Caller struct {
	Name  string // for messages, such as "CompanyAdmin"
	Token string // empty for a visitor without a session
}

// Fixture describes the foreign company and how to reach its data.
type Fixture struct {
	// Callers of the own company, every role but SuperAdmin (who may see
	// every company), plus a visitor and a user without a company.
	Callers []Caller
	// Params gives, for every path parameter name of every route, a value
	// that names a resource of the foreign company. A route with a
	// parameter missing here fails the walk, so new routes cannot be left out.
	Params map[string]string
	// Bodies gives, by route pattern ("PUT /api/companies/{companyId}"), a
	// body that would succeed on the caller's own data. Others get {}.
	Bodies map[string]any
	// Queries gives, by route pattern, a query string (without "?") that
	// names resources of the foreign company, for routes that take their
	// ids there ("GET /api/tag/tagdata": "tagId=7"). Such a route counts as
	// called with foreign ids.
	Queries map[string]string
	// Markers are strings found only in the foreign company's data; an answer
	// that contains one leaks it.
	Markers []string
	// Exempt lists routes, by pattern, that by design answer 2xx for foreign
	// parameters, with the reason.
	Exempt map[string]string
	// Snapshot renders every stored row of the foreign company; it must read
	// the same before and after each call.
	Snapshot func(tb testing.TB) string
}

var param = regexp.MustCompile(`\{([A-Za-z0-9_]+)\.{0,3}\}`)

// Walk calls every /api route in routes as every caller.
func Walk(t *testing.T, base string, routes []web.Route, fx Fixture) {
	t.Helper()
	client := kerneltest.NewClient(base)
	settle(t, fx.Snapshot)
	for _, rt := range routes {
		if !strings.HasPrefix(rt.Path, "/api/") {
			continue
		}
		path, foreign, err := fill(rt.Path, fx.Params)
		if err != nil {
			t.Errorf("%s: %v; add it to the tenancy fixture", rt.Pattern(), err)
			continue
		}
		if q, ok := fx.Queries[rt.Pattern()]; ok {
			path, foreign = path+"?"+q, true
		}
		_, exempt := fx.Exempt[rt.Pattern()]
		for _, c := range fx.Callers {
			name := fmt.Sprintf("%s as %s", rt.Pattern(), c.Name)
			before := fx.Snapshot(t)
			body := fx.Bodies[rt.Pattern()]
			if body == nil && (rt.Method == http.MethodPost || rt.Method == http.MethodPut) {
				body = map[string]any{}
			}
			res := client.Call(t, rt.Method, path, c.Token, body)
			for _, m := range fx.Markers {
				if strings.Contains(string(res.Body), m) {
					t.Errorf("%s: answer %d leaks foreign data %q: %.300s", name, res.Status, m, res.Body)
				}
			}
			if exempt {
				continue
			}
			if foreign && res.Status < 300 {
				t.Errorf("%s: answered %d for another company's ids: %.300s", name, res.Status, res.Body)
			}
			if res.Status >= 500 {
				t.Errorf("%s: answered %d: %.300s", name, res.Status, res.Body)
			}
			if after := fx.Snapshot(t); after != before {
				t.Errorf("%s: answered %d and changed the other company's data:\n%s", name, res.Status, changedLines(before, after))
			}
		}
	}
}

// settle waits until the snapshot reads the same twice, settleQuiet apart:
// what the fixture set going in the background (a log entry, a flush) is
// written before the first call, not during it.
func settle(t *testing.T, snapshot func(testing.TB) string) {
	t.Helper()
	last := snapshot(t)
	for deadline := time.Now().Add(settleWithin); ; {
		time.Sleep(settleQuiet)
		now := snapshot(t)
		if now == last {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the foreign company's data still changes %s after the fixture:\n%s", settleWithin, changedLines(last, now))
		}
		t.Logf("the foreign company's data changed after the fixture:\n%s", changedLines(last, now))
		last = now
	}
}

// How long settle waits without a change, and at most.
const (
	settleQuiet  = 300 * time.Millisecond
	settleWithin = 15 * time.Second
)

// fill replaces a path's parameters with foreign values and reports whether
// it has any.
func fill(path string, values map[string]string) (string, bool, error) {
	var missing []string
	out := param.ReplaceAllStringFunc(path, func(p string) string {
		name := param.FindStringSubmatch(p)[1]
		v, ok := values[name]
		if !ok {
			missing = append(missing, name)
		}
		return v
	})
	if len(missing) > 0 {
		sort.Strings(missing)
		return "", false, fmt.Errorf("no foreign value for path parameter %s", strings.Join(missing, ", "))
	}
	return out, out != path, nil
}

// changedLines lists the snapshot lines that only one of before and after
// holds: the whole snapshot is too long for a test log to keep.
func changedLines(before, after string) string {
	count := map[string]int{}
	for _, l := range strings.Split(before, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(after, "\n") {
		count[l]--
	}
	var b strings.Builder
	for _, l := range strings.Split(before, "\n") {
		if count[l] > 0 {
			count[l]--
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(after, "\n") {
		if count[l] < 0 {
			count[l]++
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}
