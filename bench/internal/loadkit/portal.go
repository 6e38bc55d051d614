package loadkit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The SuperAdmin every portal of StartPortal has, and the password of the
// CompanyAdmins NewCompany makes. The password meets the strictest policy
// a benchmark has met, so one works for all.
const (
	SuperAdminEmail = "bench@bench.example"
	Password        = "Bench-Passw0rd-1"
)

// PortalOptions say how StartPortal starts a portal.
type PortalOptions struct {
	// Name is the benchmark's name: it names the temporary folder and the
	// database, and prefixes what is printed about kept things.
	Name string
	// Bin is the fieldhub binary to run; empty builds one (with Tags) into
	// the temporary folder.
	Bin  string
	Tags []string
	// PGAdmin is the PostgreSQL admin URL a fresh database is made with;
	// empty runs the portal on SQLite in the temporary folder.
	PGAdmin string
	// Instances is how many servers share the database; 0 means 1.
	Instances int
	// Env is added to the servers' environment.
	Env []string
	// Keep leaves the temporary folder and the database for a look
	// afterwards.
	Keep bool
}

// Portal is a running portal: one or more `fieldhub serve` on one database,
// with a SuperAdmin logged in.
type Portal struct {
	Dir         string // the temporary folder: binary, data, server logs
	Bin         string
	Env         []string // the servers' environment
	DatabaseURL string   // empty on SQLite
	Servers     []*Server
	RootToken   string // the SuperAdmin's access token
	RootID      int64  // the SuperAdmin's user id
}

// Server is the first (or only) server.
func (p *Portal) Server() *Server { return p.Servers[0] }

// Base is the first server's http://host:port.
func (p *Portal) Base() string { return p.Servers[0].Base }

// StartPortal makes a temporary folder, builds the binary unless o.Bin is
// given, makes a PostgreSQL database when o.PGAdmin is set, creates the
// SuperAdmin, starts o.Instances servers and logs in as the SuperAdmin. The
// function it returns stops the servers, drops the database and removes the
// folder (unless o.Keep); on an error StartPortal has already done that.
func StartPortal(ctx context.Context, o PortalOptions) (_ *Portal, _ func() error, err error) {
	p := &Portal{}
	var undo []func() error // run in reverse by stop
	stop := func() error {
		var errs []error
		for i := len(undo) - 1; i >= 0; i-- {
			errs = append(errs, undo[i]())
		}
		return errors.Join(errs...)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, stop())
		}
	}()

	if p.Dir, err = os.MkdirTemp("", "fieldhub-bench-"+o.Name+"-"); err != nil {
		return nil, nil, err
	}
	undo = append(undo, func() error {
		if o.Keep {
			fmt.Fprintf(os.Stderr, "%s: kept %s\n", o.Name, p.Dir)
			return nil
		}
		return os.RemoveAll(p.Dir)
	})
	p.Bin = o.Bin
	if p.Bin == "" {
		p.Bin = filepath.Join(p.Dir, "fieldhub")
		if err := BuildBinary(p.Bin, o.Tags...); err != nil {
			return nil, nil, err
		}
	}
	p.Env = append(CleanEnv(), "FIELDHUB_DATA="+filepath.Join(p.Dir, "data"), "FIELDHUB_ACCESS_LOG=false")
	if o.PGAdmin != "" {
		// Database names cannot hold the dashes a benchmark name may have.
		dbURL, drop, err := CreatePostgres(ctx, o.PGAdmin, "fieldhub_bench_"+strings.ReplaceAll(o.Name, "-", "_"))
		if err != nil {
			return nil, nil, err
		}
		p.DatabaseURL = dbURL
		undo = append(undo, func() error {
			if o.Keep {
				fmt.Fprintf(os.Stderr, "%s: kept the database %s\n", o.Name, dbURL)
				return nil
			}
			return drop()
		})
		p.Env = append(p.Env, "DATABASE_URL="+dbURL)
	}
	p.Env = append(p.Env, o.Env...)

	admin := exec.Command(p.Bin, "admin", "create-superadmin", "--email", SuperAdminEmail, "--password", Password)
	admin.Env = p.Env
	if out, err := admin.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("fieldhub admin create-superadmin: %v\n%s", err, out)
	}
	n := max(o.Instances, 1)
	for i := range n {
		logName := "server.log"
		if n > 1 {
			logName = fmt.Sprintf("server-%c.log", 'a'+i)
		}
		s, err := StartServer(p.Bin, p.Env, filepath.Join(p.Dir, logName))
		if err != nil {
			return nil, nil, err
		}
		p.Servers = append(p.Servers, s)
		undo = append(undo, func() error { s.Stop(); return nil })
	}
	if p.RootToken, p.RootID, err = Login(p.Base(), SuperAdminEmail, Password); err != nil {
		return nil, nil, p.Server().Fail(fmt.Errorf("log in as the SuperAdmin: %w", err))
	}
	return p, stop, nil
}

// CompanyOptions say what NewCompany makes besides the company and its
// CompanyAdmin.
type CompanyOptions struct {
	// Name is the company's; its first word is the CompanyAdmin's first
	// name. Empty means "Bench AB".
	Name string
	// AdminEmail is the CompanyAdmin's e-mail; empty means
	// admin@bench.example.
	AdminEmail string
	// Application, when not nil, is the body of an application to make.
	Application map[string]any
	// TokenLabel, when not empty, makes a company integration token.
	TokenLabel string
}

// Company is a company made by NewCompany.
type Company struct {
	ID               int64
	AdminToken       string // the CompanyAdmin's access token
	App              int64  // the application, when one was asked for
	IntegrationToken string // when one was asked for
}

// NewCompany makes a company with its CompanyAdmin as the SuperAdmin
// (rootToken), logs in as the CompanyAdmin, and, as it, makes the
// application and the integration token o asks for.
func NewCompany(base, rootToken string, o CompanyOptions) (*Company, error) {
	if o.Name == "" {
		o.Name = "Bench AB"
	}
	if o.AdminEmail == "" {
		o.AdminEmail = "admin@bench.example"
	}
	firstName, _, _ := strings.Cut(o.Name, " ")
	var created struct {
		Company struct {
			ID int64 `json:"companyId"`
		} `json:"company"`
	}
	if err := Call(base, "POST", "/api/users/create/company", rootToken, map[string]any{
		"company": map[string]any{"name": o.Name, "orgNumber": "556677-8899", "invoiceAdress": o.AdminEmail, "country": "SE"},
		"user": map[string]any{"firstName": firstName, "lastName": "Admin", "email": o.AdminEmail,
			"phoneNumber": "46701234567", "password": Password},
	}, 201, &created); err != nil {
		return nil, err
	}
	c := &Company{ID: created.Company.ID}
	var err error
	if c.AdminToken, _, err = Login(base, o.AdminEmail, Password); err != nil {
		return nil, fmt.Errorf("log in as the CompanyAdmin: %w", err)
	}
	if o.Application != nil {
		if c.App, err = NewApplication(base, c.AdminToken, c.ID, o.Application); err != nil {
			return nil, err
		}
	}
	if o.TokenLabel != "" {
		var tok struct {
			Token string `json:"token"`
		}
		if err := Call(base, "POST", fmt.Sprintf("/api/integration/tokens/%d", c.ID), c.AdminToken,
			map[string]any{"label": o.TokenLabel, "isCompany": true}, 201, &tok); err != nil {
			return nil, err
		}
		c.IntegrationToken = tok.Token
	}
	return c, nil
}

// NewApplication makes an application of company from body and returns its
// id.
func NewApplication(base, token string, company int64, body map[string]any) (int64, error) {
	var app struct {
		ID int64 `json:"id"`
	}
	if err := Call(base, "POST", fmt.Sprintf("/api/applications/%d", company), token, body, 201, &app); err != nil {
		return 0, err
	}
	return app.ID, nil
}
