package kerneltest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// FixturePassword is the password of every account Companies makes.
const FixturePassword = "secret123"

// SuperAdmins makes SuperAdmins; app.App does (through the accounts
// module), and so does the accounts module itself.
type SuperAdmins interface {
	CreateSuperAdmin(ctx context.Context, email, password string) error
}

// CompanySpec is one company Companies makes, and what it makes in it.
// Its Key names all of it: the company's placeholder "{acme}", its people's
// mail at acme.se and their callers "acmeAdmin" and "acmeUser", its
// integration token "acmeIngest" and its application "{acmeApp}".
type CompanySpec struct {
	// Key names the company and what is made in it, as above.
	Key string
	// Name is the company's name; "" is Key.
	Name string
	// Country is the company's country, which sets its people's language;
	// "" is SE.
	Country string
	// Admin changes the body that makes the CompanyAdmin admin@<key>.se:
	// first name A, last name B, phone 46701234567.
	Admin map[string]any
	// User asks for a User user@<key>.se, made by the CompanyAdmin after all
	// the companies; UserBody changes its body: first name U, last name S,
	// phone 46701234568.
	User     bool
	UserBody map[string]any
	// Ingest asks for a company integration token "network server".
	Ingest bool
	// App, when not "", names the application to make; Nodes are made in
	// it.
	App   string
	Nodes []NodeSpec
}

// NodeSpec is a node Companies makes in a company's application.
type NodeSpec struct {
	// Key names its placeholder: "acmeNode" is "{acmeNode}".
	Key string
	// Name and DevEUI are the node's.
	Name, DevEUI string
	// More are other entries of its body, such as "lat" and "long".
	More map[string]any
}

// Companies makes, through the API of c's portal, the people and things
// most tests of two companies start from, and returns a session that
// names them: the SuperAdmin super@fieldhub.test ("super"); then, company
// by company, the company with its CompanyAdmin, integration token,
// application and nodes as its spec asks (see CompanySpec for their
// names); then the Users the specs ask for. Every account has the password
// FixturePassword.
func Companies(tb testing.TB, c *Client, admins SuperAdmins, specs ...CompanySpec) *Session {
	tb.Helper()
	s := NewSession(c)
	if err := admins.CreateSuperAdmin(context.Background(), "super@fieldhub.test", FixturePassword); err != nil {
		tb.Fatalf("create superadmin: %v", err)
	}
	s.SignIn(tb, "super", "super@fieldhub.test", FixturePassword)
	for _, spec := range specs {
		s.company(tb, spec)
	}
	for _, spec := range specs {
		if spec.User {
			s.Must(tb, spec.Key+"Admin", "POST", "/api/users", person("U", "S", "user@"+spec.Key+".se", "46701234568", spec.UserBody), http.StatusCreated)
			s.SignIn(tb, spec.Key+"User", "user@"+spec.Key+".se", FixturePassword)
		}
	}
	return s
}

// company makes one company of Companies.
func (s *Session) company(tb testing.TB, spec CompanySpec) {
	tb.Helper()
	key, name, country := spec.Key, spec.Name, spec.Country
	if name == "" {
		name = key
	}
	if country == "" {
		country = "SE"
	}
	r := s.Must(tb, "super", "POST", "/api/users/create/company", map[string]any{
		"company": map[string]any{"name": name, "orgNumber": "556677-8899", "invoiceAdress": "a@" + key + ".se", "country": country},
		"user":    person("A", "B", "admin@"+key+".se", "46701234567", spec.Admin),
	}, http.StatusCreated)
	s.IDs["{"+key+"}"] = fmt.Sprint(int64(r.Obj()["company"].(map[string]any)["companyId"].(float64)))
	admin := key + "Admin"
	s.SignIn(tb, admin, "admin@"+key+".se", FixturePassword)
	if spec.Ingest {
		s.Tokens[key+"Ingest"] = s.Must(tb, admin, "POST", "/api/integration/tokens/{"+key+"}",
			map[string]any{"label": "network server", "isCompany": true}, http.StatusCreated).Str("token")
	}
	if spec.App == "" {
		return
	}
	s.IDs["{"+key+"App}"] = fmt.Sprint(s.Must(tb, admin, "POST", "/api/applications/{"+key+"}", map[string]any{"name": spec.App}, http.StatusCreated).Num("id"))
	for _, n := range spec.Nodes {
		body := map[string]any{"name": n.Name, "deveui": n.DevEUI}
		for k, v := range n.More {
			body[k] = v
		}
		s.IDs["{"+n.Key+"}"] = fmt.Sprint(s.Must(tb, admin, "POST", "/api/applications/{"+key+"App}/tag", body, http.StatusCreated).Num("id"))
	}
}

// person is the body that makes an account of Companies, changed by
// changes.
func person(first, last, email, phone string, changes map[string]any) map[string]any {
	b := map[string]any{"firstName": first, "lastName": last, "email": email, "phoneNumber": phone, "password": FixturePassword}
	for k, v := range changes {
		b[k] = v
	}
	return b
}

// LoneAdmin makes, as the SuperAdmin, an Admin without a company,
// lone@free.se ("loneAdmin").
func (s *Session) LoneAdmin(tb testing.TB) {
	tb.Helper()
	s.Must(tb, "super", "POST", "/api/users", person("L", "A", "lone@free.se", "46701234569", map[string]any{"role": "Admin"}), http.StatusCreated)
	s.SignIn(tb, "loneAdmin", "lone@free.se", FixturePassword)
}

// Tenants is a session seen by company, as tests that call the API with
// tokens rather than callers' names use it: the keys are the companies'
// ("acme").
type Tenants struct {
	// Super is the SuperAdmin's token.
	Super string
	// Admin, User and Token are a company's CompanyAdmin's and User's access
	// tokens and its integration token.
	Admin, User, Token map[string]string
	// ID are the companies' ids and those of the other things Companies
	// made, by their placeholders' names: "acme", "acmeApp", "acmeNode".
	ID map[string]int64
}

// Tenants returns the callers and ids of s by company.
func (s *Session) Tenants(tb testing.TB) *Tenants {
	tb.Helper()
	t := &Tenants{Super: s.Tokens["super"], Admin: map[string]string{}, User: map[string]string{}, Token: map[string]string{}, ID: map[string]int64{}}
	for who, token := range s.Tokens {
		for suffix, m := range map[string]map[string]string{"Admin": t.Admin, "User": t.User, "Ingest": t.Token} {
			if key, ok := strings.CutSuffix(who, suffix); ok && s.IDs["{"+key+"}"] != "" {
				m[key] = token
			}
		}
	}
	for placeholder := range s.IDs {
		t.ID[strings.Trim(placeholder, "{}")] = s.ID(tb, placeholder)
	}
	return t
}
