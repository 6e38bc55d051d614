package nodes_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Claiming DevEUIs: a company that registers nodes whose DevEUI another
// company's node has is refused as SPEC.md says, slowed and then paused;
// each refusal is logged for the SuperAdmin with both companies; and a
// SuperAdmin moves a node, with its data, to the company that proves it
// owns it.

const (
	claimedEUI = "70B3D57ED00C1A11" // Acme's node, which Beta claims
	claimedKey = "2B7E151628AED2A6ABF7158809CF4F3C"
)

// claimEnv is a portal with a SuperAdmin ("super") and two companies, Acme
// and Beta, each with its CompanyAdmin, integration token and application
// ("{acmeApp}", "{betaApp}"); Acme's has the node Gate ("{gate}",
// claimedEUI, AppKey claimedKey).
type claimEnv struct {
	*kerneltest.Session
	p *kerneltest.Portal[*app.App]
}

func newClaimEnv(t *testing.T, d db.Dialect) *claimEnv {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	s := kerneltest.Companies(t, p.Client, p.App,
		kerneltest.CompanySpec{Key: "acme", Name: "Acme", Country: "GB", Ingest: true, App: "Field acme",
			Nodes: []kerneltest.NodeSpec{{Key: "gate", Name: "Gate", DevEUI: claimedEUI, More: map[string]any{"appKey": claimedKey}}}},
		kerneltest.CompanySpec{Key: "beta", Name: "Beta", Country: "GB", Ingest: true, App: "Field beta"})
	return &claimEnv{Session: s, p: p}
}

func (e *claimEnv) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	if _, err := e.p.Host().DB.NewRaw(query, args...).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (e *claimEnv) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := e.p.Host().DB.NewRaw(query, args...).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// claim posts a node of Beta with deveui and returns the answer.
func (e *claimEnv) claim(t *testing.T, who, deveui string, headers ...string) kerneltest.Response {
	t.Helper()
	return e.Call(t, who, "POST", "/api/applications/{betaApp}/tag", map[string]any{"name": "Mine", "deveui": deveui}, headers...)
}

// backdate moves Beta's refused claims into the past, as if the time
// between them had passed.
func (e *claimEnv) backdate(t *testing.T, by time.Duration) {
	t.Helper()
	var rows []struct {
		ID int64     `bun:"id"`
		At time.Time `bun:"at"`
	}
	if err := e.p.Host().DB.NewRaw("SELECT id, at FROM deveui_claims WHERE company_id = ?", e.ID(t, "{beta}")).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		e.exec(t, "UPDATE deveui_claims SET at = ? WHERE id = ?", r.At.Add(-by).UTC(), r.ID)
	}
}

// logEntries lists the log entries a caller sees, of a type.
func (e *claimEnv) logEntries(t *testing.T, who, typ string) []map[string]any {
	t.Helper()
	r := e.Must(t, who, "GET", "/api/logs?type="+typ, nil, http.StatusOK)
	var out []map[string]any
	for _, x := range r.List() {
		out = append(out, x.(map[string]any))
	}
	return out
}

// waitEntry waits until who sees a log entry with messageId, and returns
// it.
func (e *claimEnv) waitEntry(t *testing.T, who, typ, messageID string) map[string]any {
	t.Helper()
	var found map[string]any
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		for _, x := range e.logEntries(t, who, typ) {
			if x["messageId"] == messageID {
				found = x
				return true
			}
		}
		return false
	}, func() string { return fmt.Sprintf("%s sees no %s entry %s", who, typ, messageID) })
	return found
}

func TestClaimsAreLimited(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newClaimEnv(t, d)
		spellings := []string{claimedEUI, strings.ToLower(claimedEUI), "70:B3:D5:7E:D0:0C:1A:11", "70-b3-d5-7e-d0-0c-1a-11", "70 B3 D5 7E D0 0C 1A 11"}
		for i := range nodes.ClaimsFree {
			r := e.claim(t, "betaAdmin", spellings[i])
			if r.Status != http.StatusBadRequest || r.FieldError("Deveui") != "Node with this DevEUI already exists on this server" {
				t.Fatalf("claim %d: %d %s", i+1, r.Status, r.Body)
			}
		}
		if n := e.count(t, "SELECT count(*) FROM deveui_claims WHERE company_id = ? AND owner_id = ? AND deveui = ?",
			e.ID(t, "{beta}"), e.ID(t, "{acme}"), claimedEUI); n != nodes.ClaimsFree {
			t.Fatalf("%d claims recorded, want %d", n, nodes.ClaimsFree)
		}

		// Slowed: the next registration waits, whatever its DevEUI, in
		// either language, and nothing is made.
		for _, lang := range []string{"en", "sv"} {
			r := e.claim(t, "betaAdmin", "0004A30B001C0530", "Accept-Language", lang)
			if r.Status != http.StatusTooManyRequests || r.Str("id") != nodes.IDClaimsSlowed {
				t.Fatalf("%s: a slowed registration: %d %s", lang, r.Status, r.Body)
			}
			if after, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || after <= 0 || after > int(nodes.ClaimFirstWait.Seconds()) {
				t.Errorf("%s: Retry-After %q", lang, r.Header.Get("Retry-After"))
			}
			if msg := r.Str("message"); !strings.Contains(msg, r.Header.Get("Retry-After")+" s") || strings.ContainsAny(msg, "{}") {
				t.Errorf("%s: message %q", lang, msg)
			}
		}
		if r := e.Must(t, "betaAdmin", "GET", "/api/companies/{beta}/tags", nil, http.StatusOK); len(r.List()) != 0 {
			t.Fatalf("a refused registration made a node: %s", r.Body)
		}
		// Another company is not held up.
		e.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/tag", map[string]any{"name": "Well", "deveui": "70B3D57ED00C1A12"}, http.StatusCreated)

		// Once the wait is over, the next refusal doubles it.
		e.backdate(t, nodes.ClaimFirstWait)
		if r := e.claim(t, "betaAdmin", claimedEUI); r.Status != http.StatusBadRequest {
			t.Fatalf("after the wait: %d %s", r.Status, r.Body)
		}
		r := e.claim(t, "betaAdmin", claimedEUI)
		if after, _ := strconv.Atoi(r.Header.Get("Retry-After")); r.Status != http.StatusTooManyRequests ||
			after <= int(nodes.ClaimFirstWait.Seconds()) || after > 2*int(nodes.ClaimFirstWait.Seconds()) {
			t.Fatalf("the second wait: %d, Retry-After %q: %s", r.Status, r.Header.Get("Retry-After"), r.Body)
		}

		// Beta's own DevEUIs: a repeat is refused as before, but learns
		// nothing and is not counted.
		e.backdate(t, time.Minute)
		e.Must(t, "betaAdmin", "POST", "/api/applications/{betaApp}/tag", map[string]any{"name": "Own", "deveui": "0004A30B001C0530"}, http.StatusCreated)
		before := e.count(t, "SELECT count(*) FROM deveui_claims")
		if r := e.claim(t, "betaAdmin", "0004A30B001C0530"); r.Status != http.StatusBadRequest || r.FieldError("Deveui") == "" {
			t.Fatalf("Beta's own DevEUI again: %d %s", r.Status, r.Body)
		}
		if n := e.count(t, "SELECT count(*) FROM deveui_claims"); n != before {
			t.Errorf("a company's own DevEUI was counted as a claim: %d, then %d", before, n)
		}

		// Paused: with ClaimsBlocked refusals in the window, no node is
		// added and no DevEUI changed for ClaimBlockFor; other changes go
		// on.
		now := time.Now().UTC()
		for range nodes.ClaimsBlocked {
			e.exec(t, "INSERT INTO deveui_claims (company_id, owner_id, deveui, at) VALUES (?, ?, ?, ?)",
				e.ID(t, "{beta}"), e.ID(t, "{acme}"), claimedEUI, now.Add(-10*time.Minute))
		}
		e.exec(t, "INSERT INTO deveui_claims (company_id, owner_id, deveui, at) VALUES (?, ?, ?, ?)", e.ID(t, "{beta}"), e.ID(t, "{acme}"), claimedEUI, now)
		for _, lang := range []string{"en", "sv"} {
			r := e.claim(t, "betaAdmin", "0004A30B001C0531", "Accept-Language", lang)
			after, _ := strconv.Atoi(r.Header.Get("Retry-After"))
			if r.Status != http.StatusTooManyRequests || r.Str("id") != nodes.IDClaimsBlocked || after <= int(nodes.ClaimBlockFor.Seconds())-120 {
				t.Fatalf("%s: a paused registration: %d, Retry-After %q: %s", lang, r.Status, r.Header.Get("Retry-After"), r.Body)
			}
			if msg := r.Str("message"); !strings.Contains(msg, " 60 ") || strings.ContainsAny(msg, "{}") {
				t.Errorf("%s: message %q", lang, msg)
			}
		}
		own := e.Must(t, "betaAdmin", "GET", "/api/companies/{beta}/tags", nil, http.StatusOK).List()[0].(map[string]any)
		path := "/api/tag/" + own["deveui"].(string)
		if r := e.Call(t, "betaAdmin", "PUT", path, map[string]any{"deveui": "0004A30B001C0532"}); r.Status != http.StatusTooManyRequests {
			t.Errorf("a DevEUI change while paused: %d %s", r.Status, r.Body)
		}
		e.Must(t, "betaAdmin", "PUT", path, map[string]any{"name": "Own, renamed"}, http.StatusOK)
		// The page form says so too.
		form := url.Values{"name": {"Mine"}, "deveui": {"0004A30B001C0533"}, "applicationId": {fmt.Sprint(e.ID(t, "{betaApp}"))}, "decoder": {"raw"}}
		p := e.p.Page(t, "POST", "/tag/create", e.Tokens["betaAdmin"], form, kerneltest.HTMX...)
		if p.Status != http.StatusOK || !strings.Contains(p.Body, "adding nodes is paused for 60 minutes") {
			t.Errorf("the create form while paused: %d %.600s", p.Status, p.Body)
		}

		// A SuperAdmin is neither limited nor counted.
		before = e.count(t, "SELECT count(*) FROM deveui_claims")
		if r := e.claim(t, "super", claimedEUI); r.Status != http.StatusBadRequest {
			t.Errorf("the SuperAdmin's claim: %d %s", r.Status, r.Body)
		}
		if n := e.count(t, "SELECT count(*) FROM deveui_claims"); n != before {
			t.Errorf("the SuperAdmin's claim was counted")
		}
	})
}

func TestClaimsAreLoggedForTheSuperAdmin(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newClaimEnv(t, d)
		if r := e.claim(t, "betaAdmin", strings.ToLower(claimedEUI)); r.Status != http.StatusBadRequest {
			t.Fatalf("claim: %d %s", r.Status, r.Body)
		}
		// A DevEUI change to the claimed one is a claim too.
		own := e.Must(t, "betaAdmin", "POST", "/api/applications/{betaApp}/tag", map[string]any{"name": "Own", "deveui": "0004A30B001C0530"}, http.StatusCreated)
		if r := e.Call(t, "betaAdmin", "PUT", "/api/tag/0004A30B001C0530", map[string]any{"deveui": claimedEUI}); r.Status != http.StatusBadRequest {
			t.Fatalf("DevEUI change: %d %s", r.Status, r.Body)
		}
		entry := e.waitEntry(t, "super", "WARNING", "logs.entry.deveuiClaim")
		data, _ := entry["data"].(map[string]any)
		if entry["companyId"] != nil || entry["deveui"] != claimedEUI || data["company"] != "Beta" || data["owner"] != "Acme" ||
			data["companyId"] != float64(e.ID(t, "{beta}")) || data["ownerId"] != float64(e.ID(t, "{acme}")) ||
			entry["message"] != "Beta tried to register DevEUI "+claimedEUI+", which a node of Acme has" {
			t.Errorf("the SuperAdmin's entry: %v", entry)
		}
		kerneltest.WaitFor(t, 10*time.Second, func() bool {
			n := 0
			for _, x := range e.logEntries(t, "super", "WARNING") {
				if x["messageId"] == "logs.entry.deveuiClaim" {
					n++
				}
			}
			return n == 2
		}, func() string { return "the DevEUI change was not logged" })
		// Neither company sees it: it names the other.
		for _, who := range []string{"acmeAdmin", "betaAdmin"} {
			for _, x := range e.logEntries(t, who, "WARNING") {
				if x["messageId"] == "logs.entry.deveuiClaim" {
					t.Errorf("%s sees the claim: %v", who, x)
				}
			}
		}
		// The node pool page lists the claims, with the way to the node.
		p := e.p.Page(t, "GET", "/tag/pool", e.Tokens["super"], nil)
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"Refused DevEUI claims", "<code>" + claimedEUI + "</code>", "<td>Beta</td>", "<td>Acme</td>",
			"<td>2</td>", `href="/tagdetails/` + claimedEUI + `#tag-move"`}, nil)
		_ = own
	})
}

// gateData posts n uplinks of Acme's node, a minute apart, and returns
// their times.
func (e *claimEnv) gateData(t *testing.T, who string, n int, start time.Time) []time.Time {
	t.Helper()
	var times []time.Time
	for i := range n {
		at := start.Add(time.Duration(i) * time.Minute)
		e.Must(t, who, "POST", "/api/ingest/generic", map[string]any{"devEui": claimedEUI, "time": at.Format(time.RFC3339Nano),
			"values": map[string]any{"temperature": 20 + float64(i), "door": "open"}}, http.StatusOK)
		times = append(times, at)
	}
	return times
}

func (e *claimEnv) series(t *testing.T, company, key string) tsdb.Series {
	return tsdb.Series{Company: e.ID(t, "{"+company+"}"), DevEUI: strings.ToLower(claimedEUI), Key: key}
}

func (e *claimEnv) points(t *testing.T, s tsdb.Series) []tsdb.Point {
	t.Helper()
	pts, err := e.p.App.Series().Range(context.Background(), s, time.Now().Add(-24*time.Hour), time.Now().Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

func TestMoveTag(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newClaimEnv(t, d)
		start := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Second)
		const n = 6
		e.gateData(t, "acmeIngest", n, start)
		e.Must(t, "acmeAdmin", "POST", "/api/tag/key/update", map[string]any{"tagId": e.ID(t, "{gate}"), "key": "temperature", "label": "Gate temperature", "unit": "°C"}, http.StatusOK)
		e.Must(t, "acmeAdmin", "POST", "/api/downlink/{gate}", map[string]any{"port": 5, "payload": "0A0B", "payloadType": "hex"}, http.StatusCreated)
		stored := e.Must(t, "acmeAdmin", "GET", "/api/tag/{gate}", nil, http.StatusOK).Num("dataPoints24h") // its values and uplinks
		if stored < 2*n {
			t.Fatalf("Acme's node holds %d points", stored)
		}
		move := "/api/tag/{gate}/move"
		unchanged := func(t *testing.T) {
			t.Helper()
			if r := e.Must(t, "acmeAdmin", "GET", "/api/tag/{gate}", nil, http.StatusOK); r.Num("companyId") != e.ID(t, "{acme}") {
				t.Fatalf("the node moved: %s", r.Body)
			}
			if got := len(e.points(t, e.series(t, "acme", "temperature"))); got != n {
				t.Fatalf("Acme has %d points, want %d", got, n)
			}
		}

		// Only a SuperAdmin moves a node.
		for _, who := range []string{"acmeAdmin", "betaAdmin"} {
			if r := e.Call(t, who, "POST", move, map[string]any{"applicationId": e.ID(t, "{betaApp}"), "appKey": claimedKey}); r.Status != http.StatusForbidden {
				t.Errorf("%s moved a node: %d %s", who, r.Status, r.Body)
			}
		}
		for _, bad := range []struct {
			name, body, field, id string
		}{
			{"no application", `{"appKey":"` + claimedKey + `"}`, "applicationId", nodes.IDMoveApplication},
			{"an unknown application", `{"applicationId":999999,"appKey":"` + claimedKey + `"}`, "applicationId", nodes.IDMoveApplication},
			{"the node's own company", `{"applicationId":{acmeApp},"appKey":"` + claimedKey + `"}`, "applicationId", nodes.IDMoveSameCompany},
			{"no proof", `{"applicationId":{betaApp}}`, "appKey", nodes.IDMoveProof},
			{"another AppKey", `{"applicationId":{betaApp},"appKey":"00000000000000000000000000000000"}`, "appKey", nodes.IDMoveAppKeyMismatch},
			{"a malformed AppKey", `{"applicationId":{betaApp},"appKey":"xyz"}`, "appKey", nodes.IDAppKeyFormat},
			{"a bad body", `{"applicationId":"x"}`, "applicationId", "error.badJsonType"},
		} {
			t.Run(bad.name, func(t *testing.T) {
				status, raw := e.Do(t, "super", "POST", move, bad.body, "sv")
				if status != http.StatusBadRequest || !strings.Contains(string(raw), `"`+bad.field+`":["`+bad.id+`"]`) {
					t.Fatalf("%d %s", status, raw)
				}
				unchanged(t)
			})
		}

		// The AppKey proves it, in any spelling.
		r := e.Must(t, "super", "POST", move, map[string]any{"applicationId": e.ID(t, "{betaApp}"), "appKey": strings.ToLower(claimedKey)}, http.StatusOK)
		tag, _ := r.Obj()["tag"].(map[string]any)
		if tag["companyId"] != float64(e.ID(t, "{beta}")) || tag["applicationId"] != float64(e.ID(t, "{betaApp}")) || tag["appKey"] != claimedKey ||
			r.Num("fromCompanyId") != e.ID(t, "{acme}") || r.Num("points") != stored {
			t.Fatalf("moved: %s", r.Body)
		}
		e.Must(t, "acmeAdmin", "GET", "/api/tag/{gate}", nil, http.StatusNotFound)
		if r := e.Must(t, "acmeAdmin", "GET", "/api/companies/{acme}/tags", nil, http.StatusOK); strings.Contains(string(r.Body), claimedEUI) {
			t.Errorf("Acme still lists the node: %s", r.Body)
		}
		got := e.Must(t, "betaAdmin", "GET", "/api/tag/{gate}", nil, http.StatusOK)
		if got.Str("name") != "Gate" || got.Num("dataPoints24h") != stored {
			t.Errorf("Beta's node: %s", got.Body)
		}
		keys := e.Must(t, "betaAdmin", "GET", "/api/tag/{gate}/keys", nil, http.StatusOK)
		if !strings.Contains(string(keys.Body), `"label":"Gate temperature"`) {
			t.Errorf("the keys did not go with the node: %s", keys.Body)
		}
		if pts := e.points(t, e.series(t, "beta", "temperature")); len(pts) != n || pts[0].Value != 20 || !pts[0].Time.Equal(start) {
			t.Errorf("Beta's temperatures: %v", pts)
		}
		if pts := e.points(t, e.series(t, "beta", "door")); len(pts) != n || pts[0].Text != "open" {
			t.Errorf("Beta's door: %v", pts)
		}
		for _, key := range []string{"temperature", "door"} {
			if pts := e.points(t, e.series(t, "acme", key)); len(pts) != 0 {
				t.Errorf("Acme keeps %d points of %s", len(pts), key)
			}
		}
		if r := e.Must(t, "betaAdmin", "GET", "/api/downlink/tag/{gate}", nil, http.StatusOK); len(r.List()) != 0 {
			t.Errorf("Acme's downlinks went with the node: %s", r.Body)
		}
		// The node now takes Beta's uplinks, not Acme's.
		e.gateData(t, "betaIngest", 1, start.Add(time.Hour))
		if pts := e.points(t, e.series(t, "beta", "temperature")); len(pts) != n+1 {
			t.Errorf("Beta's uplink after the move: %d points", len(pts))
		}

		// The SuperAdmin's log names both companies; each company's names
		// neither.
		entry := e.waitEntry(t, "super", "USEREVENT", "logs.entry.tagMoved")
		if entry["companyId"] != nil || entry["message"] != fmt.Sprintf("The node Gate (%s) was moved from Acme to Beta with %d stored values", claimedEUI, stored) {
			t.Errorf("the SuperAdmin's entry: %v", entry)
		}
		away := e.waitEntry(t, "acmeAdmin", "APP", "logs.entry.tagMovedAway")
		here := e.waitEntry(t, "betaAdmin", "APP", "logs.entry.tagMovedHere")
		for _, x := range []map[string]any{away, here} {
			if s := fmt.Sprint(x); strings.Contains(s, "Acme") || strings.Contains(s, "Beta") {
				t.Errorf("a company's entry names a company: %v", x)
			}
		}

		// A node without an AppKey moves on the SuperAdmin's word; a
		// company's own decoder does not go with it.
		dec := e.Must(t, "betaAdmin", "POST", "/api/companies/{beta}/decoders", map[string]any{"name": "Beta's",
			"source": "function decodeUplink(i) { return {data: {}} }"}, http.StatusCreated).Str("key")
		e.Must(t, "betaAdmin", "PUT", "/api/tag/"+claimedEUI, map[string]any{"appKey": "", "decoder": dec}, http.StatusOK)
		stored = e.Must(t, "betaAdmin", "GET", "/api/tag/{gate}", nil, http.StatusOK).Num("dataPoints24h")
		if r := e.Call(t, "super", "POST", move, map[string]any{"applicationId": e.ID(t, "{acmeApp}")}); r.Status != http.StatusBadRequest || r.FieldError("ownershipVerified") == "" {
			t.Fatalf("without proof: %d %s", r.Status, r.Body)
		}
		r = e.Must(t, "super", "POST", move, map[string]any{"applicationId": e.ID(t, "{acmeApp}"), "ownershipVerified": true}, http.StatusOK)
		if tag := r.Obj()["tag"].(map[string]any); tag["companyId"] != float64(e.ID(t, "{acme}")) || tag["decoder"] != "raw" || tag["appKey"] != "" || r.Num("points") != stored {
			t.Errorf("moved back: %s", r.Body)
		}
	})
}

func TestMovePage(t *testing.T) {
	t.Parallel()
	e := newClaimEnv(t, db.SQLite)
	e.gateData(t, "acmeIngest", 2, time.Now().UTC().Add(-time.Hour).Truncate(time.Second))
	stored := e.Must(t, "acmeAdmin", "GET", "/api/tag/{gate}", nil, http.StatusOK).Num("dataPoints24h")
	details := "/tagdetails/" + claimedEUI
	betaApp := fmt.Sprint(e.ID(t, "{betaApp}"))

	// Only the SuperAdmin sees the move, in either language.
	p := e.p.Page(t, "GET", details, e.Tokens["acmeAdmin"], nil)
	kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"Delete node"}, []string{"Move to another company", `id="tag-move"`})
	p = e.p.Page(t, "GET", details, e.Tokens["super"], nil)
	kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"Move to another company", `<option value="` + betaApp + `">Beta · Field beta</option>`,
		`id="f-moveApplicationId"`, `id="f-moveAppKey"`}, []string{"Acme · Field acme"})
	if n := strings.Count(p.Body, `id="f-appKey"`); n != 1 {
		t.Errorf("%d elements with the id f-appKey", n)
	}
	p = e.p.Page(t, "GET", details, e.Tokens["super"], nil, "Accept-Language", "sv")
	kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"Flytta till ett annat företag", "Jag har kontrollerat det andra företagets ägarskap på annat sätt"}, nil)
	for _, who := range []string{"acmeAdmin", "betaAdmin"} {
		p := e.p.Page(t, "POST", details+"/move", e.Tokens[who], url.Values{"moveApplicationId": {betaApp}, "moveAppKey": {claimedKey}, "confirm": {"yes"}})
		if p.Status != http.StatusSeeOther || p.Redirect() != "/" {
			t.Errorf("%s posts the move: %d to %q", who, p.Status, p.Redirect())
		}
	}

	// Without proof the form says what is missing, and keeps what was chosen.
	p = e.p.Page(t, "POST", details+"/move", e.Tokens["super"], url.Values{"moveApplicationId": {betaApp}}, kerneltest.HTMX...)
	if p.Status != http.StatusOK || !strings.Contains(p.Body, `<span class="error" id="e-moveAppKey">Give the node's AppKey as proof of ownership, or confirm that you have checked the ownership otherwise</span>`) ||
		!strings.Contains(p.Body, `<option value="`+betaApp+`" selected>`) {
		t.Fatalf("no proof: %d %.1500s", p.Status, p.Body)
	}
	p = e.p.Page(t, "POST", details+"/move", e.Tokens["super"], url.Values{"moveApplicationId": {betaApp}, "moveAppKey": {"00000000000000000000000000000000"}})
	if p.Status != http.StatusBadRequest || !p.FullPage() || !strings.Contains(p.Body, "The AppKey does not match the node's") {
		t.Fatalf("another AppKey, without htmx: %d %.600s", p.Status, kerneltest.Main(p.Body))
	}

	// With proof it asks first, and moves on the confirmation.
	form := url.Values{"moveApplicationId": {betaApp}, "moveAppKey": {claimedKey}}
	p = e.p.Page(t, "POST", details+"/move", e.Tokens["super"], form, kerneltest.HTMX...)
	kerneltest.Contains(t, p.Body, []string{`role="alertdialog"`, "Move the node Gate (" + claimedEUI + ") from Acme to the application Field beta of Beta?",
		"The AppKey matches the node's", `name="confirm" value="yes"`, "Yes, move"}, nil)
	if r := e.Must(t, "super", "GET", "/api/tag/{gate}", nil, http.StatusOK); r.Num("companyId") != e.ID(t, "{acme}") {
		t.Fatalf("the node moved before the confirmation")
	}
	form.Set("confirm", "yes")
	p = e.p.Page(t, "POST", details+"/move", e.Tokens["super"], form, kerneltest.HTMX...)
	if p.Status != http.StatusNoContent || p.Redirect() != details {
		t.Fatalf("confirmed: %d %q %.600s", p.Status, p.Redirect(), p.Body)
	}
	if want := fmt.Sprintf("The node Gate has been moved to Beta with %d stored values", stored); !strings.Contains(p.Toast(), want) {
		t.Errorf("toast %q, want %q", p.Toast(), want)
	}
	if r := e.Must(t, "betaAdmin", "GET", "/api/tag/{gate}", nil, http.StatusOK); r.Num("dataPoints24h") != stored {
		t.Errorf("Beta's node: %s", r.Body)
	}
}

func TestClaimWait(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		refused int
		ago     time.Duration
		wait    time.Duration
		blocked bool
	}{
		{0, 0, 0, false},
		{nodes.ClaimsFree - 1, 0, 0, false},
		{nodes.ClaimsFree, 0, nodes.ClaimFirstWait, false},
		{nodes.ClaimsFree, 4 * time.Second, nodes.ClaimFirstWait - 4*time.Second, false},
		{nodes.ClaimsFree, nodes.ClaimFirstWait, 0, false},
		{nodes.ClaimsFree + 1, 0, 2 * nodes.ClaimFirstWait, false},
		{nodes.ClaimsBlocked - 1, 0, nodes.ClaimFirstWait << (nodes.ClaimsBlocked - 1 - nodes.ClaimsFree), false},
		{nodes.ClaimsBlocked, 0, nodes.ClaimBlockFor, true},
		{nodes.ClaimsBlocked + 3, 10 * time.Minute, nodes.ClaimBlockFor - 10*time.Minute, true},
		{nodes.ClaimsBlocked, nodes.ClaimBlockFor, 0, false},
	} {
		wait, blocked := nodes.ClaimWait(tc.refused, now.Add(-tc.ago), now)
		if wait != tc.wait || blocked != tc.blocked {
			t.Errorf("%d refused, the last %s ago: wait %s, blocked %v; want %s, %v", tc.refused, tc.ago, wait, blocked, tc.wait, tc.blocked)
		}
	}
}
