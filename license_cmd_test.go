package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/license"
)

// TestLicenseVerify runs `fieldhub license verify FILE` on a good file, the
// same file with one changed byte, and a good file under the built-in key.
func TestLicenseVerify(t *testing.T) {
	env := kerneltest.License(t, license.Terms{Name: "Acme AB", Email: "ops@acme.example", MaxCompanies: 25, WhiteLabel: true})
	path := env["FIELDHUB_LICENSE_FILE"]
	t.Setenv("FIELDHUB_LICENSE_PUBLIC_KEY", env["FIELDHUB_LICENSE_PUBLIC_KEY"])
	ctx := context.Background()

	var out bytes.Buffer
	if err := run(ctx, []string{"license", "verify", path}, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("good file: %v", err)
	}
	for _, want := range []string{"is valid", "Acme AB", "ops@acme.example", "maxCompanies:    25", "whiteLabel:      true"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := bytes.Replace(data, []byte("Acme AB"), []byte("Acme AC"), 1)
	bad := path + ".changed"
	if err := os.WriteFile(bad, changed, 0o600); err != nil {
		t.Fatal(err)
	}
	err = run(ctx, []string{"license", "verify", bad}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "is refused: its signature does not match its terms") {
		t.Errorf("changed file: %v", err)
	}

	t.Setenv("FIELDHUB_LICENSE_PUBLIC_KEY", "")
	if err := run(ctx, []string{"license", "verify", path}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Errorf("a file of the tests' key verified with the built-in key")
	}
	if err := run(ctx, []string{"license", "check", path}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("unknown subcommand: %v", err)
	}
}

// TestServeRefusesChangedLicense: `fieldhub serve` with a license file one
// byte of which was changed does not start, and says why.
func TestServeRefusesChangedLicense(t *testing.T) {
	env := kerneltest.License(t, license.Terms{Name: "Acme AB", MaxCompanies: 5})
	path := env["FIELDHUB_LICENSE_FILE"]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(`"maxCompanies":5`), []byte(`"maxCompanies":6`), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FIELDHUB_DATA", t.TempDir())
	t.Setenv("FIELDHUB_LICENSE_FILE", path)
	t.Setenv("FIELDHUB_LICENSE_PUBLIC_KEY", env["FIELDHUB_LICENSE_PUBLIC_KEY"])
	err = run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "license file "+path+" is refused: its signature does not match its terms") {
		t.Errorf("serve with a changed license: %v", err)
	}
}
