package logs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/logs"
)

const superEmail = "super@fieldhub.test"

// userID looks up a user's id by email.
func (e *env) userID(t *testing.T, email string) int64 {
	t.Helper()
	var id int64
	if err := e.p.Host().DB.NewRaw("SELECT id FROM users WHERE email = ?", email).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// auditSince returns the audit entries of company (0: the installation's
// own) with an id above after, written before a marker announced now: the
// changes are written in the order they were announced, so every entry a
// call made is in once the marker is.
func (e *env) auditSince(t *testing.T, company int64, after float64) []entry {
	t.Helper()
	marker := fmt.Sprintf("MARKER-%d", time.Now().UnixNano())
	e.p.Host().Bus.Publish(context.Background(), audit.Change{UserID: e.userID(t, superEmail), CompanyID: company,
		MessageID: accounts.AuditCompanyLogo, Args: map[string]any{"name": marker}, At: time.Now()})
	query := "type=USEREVENT&limit=1000"
	if company != 0 {
		query += fmt.Sprintf("&companyId=%d", company)
	}
	e.await(t, e.Super, query, func(en entry) bool { return strings.Contains(fmt.Sprint(en["message"]), marker) })
	var out []entry
	for _, en := range e.list(t, e.Super, query) {
		own := company != 0 || en["companyId"] == nil
		if en["id"].(float64) > after && own && !strings.Contains(fmt.Sprint(en["message"]), "MARKER-") {
			out = append(out, en)
		}
	}
	return out
}

// newestID is the id of the newest entry the SuperAdmin lists in company
// (0: the installation).
func (e *env) newestID(t *testing.T, company int64) float64 {
	t.Helper()
	query := "limit=1"
	if company != 0 {
		query += fmt.Sprintf("&companyId=%d", company)
	}
	var newest float64
	for _, en := range e.list(t, e.Super, query) {
		newest = en["id"].(float64)
	}
	return newest
}

// TestAuditTrail checks that a change a person makes through the API, in
// every module, writes exactly one USEREVENT entry: in the right company,
// naming who made it (id and email), with its message from the catalog,
// the values before and after where the change has them, and no secret.
func TestAuditTrail(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		acme := e.ID["acme"]
		id := func(key string) string { return fmt.Sprint(e.ID[key]) }
		// made holds ids that earlier steps made, for later steps' paths.
		made := map[string]string{}
		path := func(format string, keys ...string) func() string {
			return func() string {
				args := make([]any, len(keys))
				for i, k := range keys {
					if v, ok := made[k]; ok {
						args[i] = v
					} else {
						args[i] = id(k)
					}
				}
				return fmt.Sprintf(format, args...)
			}
		}
		const secret = "s3cret-Value-42"
		const newPassword = "An0ther-passw0rd!"
		cases := []struct {
			name         string
			as, email    string // the caller's token and email
			method       string
			path         func() string
			body         any
			status       int
			keep         string // a field of the answer to keep in made under the case's name
			installation bool   // the entry belongs to no company
			messageID    string
			message      string // the English message
			before       map[string]any
			after        map[string]any
			secrets      []string // texts the entry must not hold
		}{
			{name: "a user created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/users"),
				body: person("new@acme.se"), status: http.StatusCreated, keep: "userId", messageID: "audit.user.created",
				message: "admin@acme.se created the user new@acme.se (User)", secrets: []string{password}},
			{name: "a user edited", as: e.Admin["acme"], email: "admin@acme.se", method: "PUT", path: path("/api/users/%s", "a user created"),
				body: map[string]any{"firstName": "Grace", "phoneNumber": "46709999999"}, status: http.StatusOK, messageID: "audit.user.edited",
				message: "admin@acme.se edited the user new@acme.se", before: map[string]any{"firstName": "Ada", "phoneNumber": "46701234567"},
				after: map[string]any{"firstName": "Grace", "phoneNumber": "46709999999"}},
			{name: "a role changed", as: e.Admin["acme"], email: "admin@acme.se", method: "PUT", path: path("/api/users/%s/role/CompanyAdmin", "a user created"),
				status: http.StatusOK, messageID: "audit.user.roleChanged", message: "admin@acme.se changed the role of new@acme.se from User to CompanyAdmin",
				before: map[string]any{"role": "User"}, after: map[string]any{"role": "CompanyAdmin"}},
			{name: "one's own password changed", as: e.User["acme"], email: "user@acme.se", method: "PUT", path: func() string { return fmt.Sprintf("/api/users/%d", e.userID(t, "user@acme.se")) },
				body: map[string]any{"password": newPassword, "confirmPassword": newPassword, "currentPassword": password}, status: http.StatusOK,
				messageID: "audit.user.passwordChanged", message: "user@acme.se changed the password of user@acme.se", secrets: []string{newPassword, password}},
			{name: "a user deleted", as: e.Super, email: superEmail, method: "DELETE", path: path("/api/users/%s", "a user created"),
				status: http.StatusNoContent, messageID: "audit.user.deleted", message: superEmail + " deleted the user new@acme.se"},
			{name: "a company edited", as: e.Admin["acme"], email: "admin@acme.se", method: "PUT", path: path("/api/companies/%s", "acme"),
				body: map[string]any{"refrenceNmuber": "R-17"}, status: http.StatusOK, messageID: "audit.company.edited",
				message: "admin@acme.se edited the company " + companyName(e, t), before: map[string]any{"refrenceNmuber": ""}, after: map[string]any{"refrenceNmuber": "R-17"}},
			{name: "a user's settings", as: e.User["acme"], email: "user@acme.se", method: "POST", path: path("/api/settings"),
				body: map[string]any{"theme": "Scientific"}, status: http.StatusOK, messageID: "audit.settings.user",
				message: "user@acme.se changed their settings", before: map[string]any{"theme": "Colors"}, after: map[string]any{"theme": "Scientific"}},
			{name: "a company's settings, a secret among them", as: e.Admin["acme"], email: "admin@acme.se", method: "PUT", path: path("/api/settings/company/%s", "acme"),
				body: map[string]any{"SMS_PROVIDER": "46elks", "ELKS_PASSWORD": secret}, status: http.StatusOK, messageID: "audit.settings.company",
				message: "admin@acme.se changed the company settings", before: map[string]any{"SMS_PROVIDER": "", "ELKS_PASSWORD": ""},
				after: map[string]any{"SMS_PROVIDER": "46elks", "ELKS_PASSWORD": audit.Masked}, secrets: []string{secret}},
			{name: "the global settings", as: e.Super, email: superEmail, method: "POST", path: path("/api/settings/global"),
				body: map[string]any{"TWILIO_AUTH_TOKEN": secret, "TWILIO_ACCOUNT_SID": "AC1"}, status: http.StatusOK, installation: true,
				messageID: "audit.settings.global", message: superEmail + " changed the global settings",
				before: map[string]any{"TWILIO_AUTH_TOKEN": "", "TWILIO_ACCOUNT_SID": ""}, after: map[string]any{"TWILIO_AUTH_TOKEN": audit.Masked, "TWILIO_ACCOUNT_SID": "AC1"},
				secrets: []string{secret}},
			{name: "an application created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/applications/%s", "acme"),
				body: map[string]any{"name": "Cellar"}, status: http.StatusCreated, keep: "id", messageID: "audit.application.created",
				message: "admin@acme.se created the application Cellar"},
			{name: "an application edited", as: e.Admin["acme"], email: "admin@acme.se", method: "PUT", path: path("/api/applications/%s", "an application created"),
				body: map[string]any{"name": "Wine cellar", "networkServer": "tts", "ttsApiKey": secret}, status: http.StatusOK, messageID: "audit.application.edited",
				message: "admin@acme.se edited the application Wine cellar",
				before:  map[string]any{"name": "Cellar", "networkServer": "generic", "ttsApiKey": ""}, after: map[string]any{"name": "Wine cellar", "networkServer": "tts", "ttsApiKey": audit.Masked},
				secrets: []string{secret}},
			{name: "a node created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/applications/%s/tag", "an application created"),
				body: map[string]any{"name": "Barrel", "deveui": "70B3D57ED00000A1", "appKey": "00112233445566778899AABBCCDDEEFF"}, status: http.StatusCreated, keep: "id",
				messageID: "audit.node.created", message: "admin@acme.se created the node Barrel (70B3D57ED00000A1)", secrets: []string{"00112233445566778899AABBCCDDEEFF"}},
			{name: "a node edited", as: e.Admin["acme"], email: "admin@acme.se", method: "PUT", path: path("/api/tag/70B3D57ED00000A1"),
				body: map[string]any{"name": "Oak barrel", "appKey": "FFEEDDCCBBAA99887766554433221100"}, status: http.StatusOK, messageID: "audit.node.edited",
				message: "admin@acme.se edited the node Oak barrel (70B3D57ED00000A1)",
				before:  map[string]any{"name": "Barrel", "appKey": audit.Masked}, after: map[string]any{"name": "Oak barrel", "appKey": audit.Masked},
				secrets: []string{"FFEEDDCCBBAA99887766554433221100", "00112233445566778899AABBCCDDEEFF"}},
			{name: "a downlink queued", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/downlink/%s", "acmeNode"),
				body: map[string]any{"port": 10, "payload": "0102", "payloadType": "hex"}, status: http.StatusCreated, messageID: "audit.downlink.queued"},
			{name: "a node deleted", as: e.Admin["acme"], email: "admin@acme.se", method: "DELETE", path: path("/api/tag/%s", "a node created"),
				status: http.StatusNoContent, messageID: "audit.node.deleted", message: "admin@acme.se deleted the node Oak barrel (70B3D57ED00000A1)"},
			{name: "an integration token created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/integration/tokens/%s", "acme"),
				body: map[string]any{"label": "Gateway", "isCompany": true}, status: http.StatusCreated, keep: "id", messageID: "audit.token.created",
				message: "admin@acme.se created the integration token Gateway"},
			{name: "an integration token revoked", as: e.Admin["acme"], email: "admin@acme.se", method: "DELETE", path: path("/api/integration/tokens/%s", "an integration token created"),
				status: http.StatusNoContent, messageID: "audit.token.revoked", message: "admin@acme.se revoked the integration token Gateway"},
			{name: "a decoder created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/companies/%s/decoders", "acme"),
				body: map[string]any{"name": "Level", "source": "function decodeUplink(input) { return {data: {level: input.bytes[0]}} }"}, status: http.StatusCreated, keep: "id",
				messageID: "audit.decoder.created", message: "admin@acme.se created the decoder Level", secrets: []string{"decodeUplink"}},
			{name: "a decoder's new version", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/decoders/%s/versions", "a decoder created"),
				body: map[string]any{"source": "function decodeUplink(input) { return {data: {level: input.bytes[0] * 2}} }"}, status: http.StatusCreated,
				messageID: "audit.decoder.versionAdded", message: "admin@acme.se saved version 2 of the decoder Level",
				before: map[string]any{"activeVersion": 1.0}, after: map[string]any{"activeVersion": 2.0}, secrets: []string{"decodeUplink"}},
			{name: "a decoder rolled back", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/decoders/%s/versions/1/activate", "a decoder created"),
				status: http.StatusOK, messageID: "audit.decoder.activated", message: "admin@acme.se made version 1 of the decoder Level the active one",
				before: map[string]any{"activeVersion": 2.0}, after: map[string]any{"activeVersion": 1.0}},
			{name: "a decoder deleted", as: e.Admin["acme"], email: "admin@acme.se", method: "DELETE", path: path("/api/decoders/%s", "a decoder created"),
				status: http.StatusNoContent, messageID: "audit.decoder.deleted", message: "admin@acme.se deleted the decoder Level"},
			{name: "a category created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/dashboards/categories/%s", "acme"),
				body: map[string]any{"title": "Cellars"}, status: http.StatusCreated, keep: "dashboardCategoryId", messageID: "audit.category.created",
				message: "admin@acme.se created the category Cellars"},
			{name: "a category edited", as: e.Admin["acme"], email: "admin@acme.se", method: "PUT", path: path("/api/dashboards/categories/%s", "a category created"),
				body: map[string]any{"title": "Cellars", "color": "#FF0000"}, status: http.StatusOK, messageID: "audit.category.edited",
				before: map[string]any{"color": "#2196F3"}, after: map[string]any{"color": "#FF0000"}},
			{name: "a dashboard created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST", path: path("/api/dashboards"),
				body: map[string]any{"name": "Temperatures"}, status: http.StatusCreated, keep: "dashboardId", messageID: "audit.dashboard.created",
				message: "admin@acme.se created the dashboard Temperatures"},
			{name: "a public link created", as: e.Admin["acme"], email: "admin@acme.se", method: "POST",
				path: func() string {
					return fmt.Sprintf("/api/dashboards/public/%d/%s/%d", acme, made["a dashboard created"], time.Now().Add(24*time.Hour).UnixMilli())
				},
				status: http.StatusCreated, keep: "token", messageID: "audit.publicLink.created"},
			{name: "a dashboard deleted", as: e.Admin["acme"], email: "admin@acme.se", method: "DELETE", path: path("/api/dashboards/%s", "a dashboard created"),
				status: http.StatusNoContent, messageID: "audit.dashboard.deleted", message: "admin@acme.se deleted the dashboard Temperatures"},
			{name: "a category deleted", as: e.Admin["acme"], email: "admin@acme.se", method: "DELETE", path: path("/api/dashboards/categories/%s", "a category created"),
				status: http.StatusNoContent, messageID: "audit.category.deleted", message: "admin@acme.se deleted the category Cellars"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				company := acme
				if tc.installation {
					company = 0
				}
				after := e.newestID(t, company)
				r := e.c.Must(t, tc.method, tc.path(), tc.as, tc.body, tc.status)
				if tc.keep != "" {
					made[tc.name] = fmt.Sprint(r.Obj()[tc.keep])
					if v, ok := r.Obj()[tc.keep].(float64); ok {
						made[tc.name] = fmt.Sprint(int64(v))
					}
				}
				got := e.auditSince(t, company, after)
				if len(got) != 1 {
					t.Fatalf("%d entries, want 1: %v", len(got), got)
				}
				en := got[0]
				data, _ := en["data"].(map[string]any)
				if en["type"] != logs.TypeUserEvent || en["messageId"] != tc.messageID || en["userId"] != nil || data["userId"] != float64(e.userID(t, tc.email)) ||
					data["user"] != tc.email || data["kind"] != logs.KindAudit {
					t.Errorf("entry %v, want %s by %s", en, tc.messageID, tc.email)
				}
				if tc.installation && en["companyId"] != nil || !tc.installation && (en["companyId"] != float64(acme) || data["company"] != companyName(e, t)) {
					t.Errorf("entry of company %v (%v)", en["companyId"], data["company"])
				}
				if tc.message != "" && en["message"] != tc.message {
					t.Errorf("message %q, want %q", en["message"], tc.message)
				}
				if tc.before != nil || tc.after != nil {
					if fmt.Sprint(data["before"]) != fmt.Sprint(tc.before) || fmt.Sprint(data["after"]) != fmt.Sprint(tc.after) {
						t.Errorf("before %v after %v, want %v and %v", data["before"], data["after"], tc.before, tc.after)
					}
				} else if data["before"] != nil || data["after"] != nil {
					t.Errorf("before %v after %v, want none", data["before"], data["after"])
				}
				raw, _ := json.Marshal(en)
				secrets := tc.secrets
				if tc.keep == "token" {
					secrets = append(secrets, made[tc.name])
				}
				for _, s := range secrets {
					if s != "" && strings.Contains(string(raw), s) {
						t.Errorf("the entry holds the secret %q: %s", s, raw)
					}
				}
			})
		}

		t.Run("a company created is told in it, its deletion in the installation", func(t *testing.T) {
			after := e.newestID(t, 0)
			id := e.c.Must(t, "POST", "/api/companies", e.Super, map[string]any{"name": "Gamma AB", "orgNumber": "5566778899", "invoiceAdress": "a@gamma.se", "country": "SE"},
				http.StatusCreated).Num("companyId")
			created := e.auditSince(t, id, 0)
			if len(created) != 1 || created[0]["message"] != superEmail+" created the company Gamma AB" {
				t.Errorf("in the new company: %v", created)
			}
			e.c.Must(t, "DELETE", fmt.Sprintf("/api/companies/%d", id), e.Super, nil, http.StatusNoContent)
			got := e.auditSince(t, 0, after)
			if len(got) != 1 || got[0]["message"] != superEmail+" deleted the company Gamma AB" || got[0]["companyId"] != nil {
				t.Errorf("in the installation: %v", got)
			}
		})

		t.Run("an entry outlives the person who made the change", func(t *testing.T) {
			gone := person("gone@acme.se")
			gone["role"] = "CompanyAdmin"
			e.c.Must(t, "POST", "/api/users", e.Admin["acme"], gone, http.StatusCreated)
			token := e.c.Login(t, "gone@acme.se", password)
			after := e.newestID(t, acme)
			e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", acme), token, map[string]any{"name": "Left behind"}, http.StatusCreated)
			if got := e.auditSince(t, acme, after); len(got) != 1 {
				t.Fatalf("%v", got)
			}
			e.c.Must(t, "DELETE", fmt.Sprintf("/api/users/%d", e.userID(t, "gone@acme.se")), e.Super, nil, http.StatusNoContent)
			if got := e.auditSince(t, acme, after); len(got) != 2 || got[1]["message"] != "gone@acme.se created the application Left behind" {
				t.Errorf("after the deletion of who made it: %v", got)
			}
		})

		t.Run("the entry of a created integration token does not hold it", func(t *testing.T) {
			after := e.newestID(t, acme)
			r := e.c.Must(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", acme), e.Admin["acme"], map[string]any{"label": "Second", "isCompany": true}, http.StatusCreated)
			got := e.auditSince(t, acme, after)
			raw, _ := json.Marshal(got)
			if len(got) != 1 || strings.Contains(string(raw), r.Str("token")) {
				t.Errorf("%s", raw)
			}
		})

		t.Run("an edit that changes nothing writes nothing", func(t *testing.T) {
			after := e.newestID(t, acme)
			e.c.Must(t, "POST", "/api/settings", e.User["acme"], map[string]any{"theme": "Scientific"}, http.StatusOK)
			if got := e.auditSince(t, acme, after); len(got) != 0 {
				t.Errorf("%v", got)
			}
		})
	})
}

// companyName is Acme's name as the fixtures made it.
func companyName(e *env, t *testing.T) string {
	t.Helper()
	var name string
	if err := e.p.Host().DB.NewRaw("SELECT name FROM companies WHERE id = ?", e.ID["acme"]).Scan(context.Background(), &name); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestAuditScope checks who lists the audit trail: a company's
// administrators their own company's, never another's; its Users none; the
// SuperAdmin every company's, also without a chosen company.
func TestAuditScope(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		for _, company := range []string{"acme", "beta"} {
			e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", e.ID[company]), e.Admin[company], map[string]any{"name": "Audited " + company}, http.StatusCreated)
		}
		for _, company := range []string{"acme", "beta"} {
			e.auditSince(t, e.ID[company], 0)
		}
		audited := func(en entry) string {
			if en["type"] != logs.TypeUserEvent {
				return ""
			}
			return fmt.Sprint(en["message"])
		}
		cases := []struct {
			name, token, query string
			want               []string // the applications whose creation is listed
		}{
			{"Acme's CompanyAdmin", e.Admin["acme"], "", []string{"Audited acme"}},
			{"Beta's CompanyAdmin", e.Admin["beta"], "type=USEREVENT", []string{"Audited beta"}},
			{"Acme's User", e.User["acme"], "", nil},
			{"Acme's User asking for the type", e.User["acme"], "type=USEREVENT", nil},
			{"the SuperAdmin naming Beta", e.Super, fmt.Sprintf("companyId=%d", e.ID["beta"]), []string{"Audited beta"}},
			{"the SuperAdmin without a chosen company", e.Super, "type=USEREVENT", []string{"Audited acme", "Audited beta"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				var got []string
				for _, en := range e.list(t, tc.token, tc.query+"&limit=1000") {
					m := audited(en)
					for _, app := range []string{"Audited acme", "Audited beta"} {
						if strings.HasSuffix(m, "created the application "+app) {
							got = append(got, app)
						}
					}
				}
				if fmt.Sprint(slices.Sorted(slices.Values(got))) != fmt.Sprint(tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
					t.Errorf("listed %v, want %v", got, tc.want)
				}
			})
		}
		t.Run("a CompanyAdmin naming another company is refused", func(t *testing.T) {
			if r := e.c.Call(t, "GET", fmt.Sprintf("/api/logs?type=USEREVENT&companyId=%d", e.ID["beta"]), e.Admin["acme"], nil); r.Status != http.StatusNotFound {
				t.Errorf("%d %s", r.Status, r.Body)
			}
		})
	})
}

// TestAuditOnSuperAdminPage checks the /superadmin page's latest changes:
// every company's, naming the company and who, with the fields before and
// after.
func TestAuditOnSuperAdminPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite, nil)
	app := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", e.ID["beta"]), e.Admin["beta"], map[string]any{"name": "Greenhouse"}, http.StatusCreated).Num("id")
	e.c.Must(t, "PUT", fmt.Sprintf("/api/applications/%d", app), e.Admin["beta"], map[string]any{"name": "Glasshouse"}, http.StatusOK)
	e.auditSince(t, e.ID["beta"], 0)
	page := e.c.Page(t, "GET", "/superadmin", e.Super, nil)
	main := kerneltest.Main(page.Body)
	for _, want := range []string{"Latest changes", "admin@beta.se edited the application Glasshouse", "<dt>name</dt>", "Greenhouse → Glasshouse",
		"admin@acme.se created the node Node of acme (70B3D57ED0000001)"} {
		if !strings.Contains(main, want) {
			t.Errorf("/superadmin lacks %q", want)
		}
	}
}
