package kerneltest

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/license"
)

// LicenseKey is the tests' license signing key, never Fieldhub's own:
// portals of tests verify licenses with its public half
// (FIELDHUB_LICENSE_PUBLIC_KEY).
var LicenseKey = ed25519.NewKeyFromSeed(testSeed[:])

var testSeed = sha256.Sum256([]byte("fieldhub test license key"))

// LicensePublicKey is the base64 of LicenseKey's public half.
func LicensePublicKey() string {
	return base64.StdEncoding.EncodeToString(LicenseKey.Public().(ed25519.PublicKey))
}

// TestTerms is the license test portals run under unless a test names
// another: no limit on companies, no white-label.
var TestTerms = license.Terms{Email: "test@example.com", Name: "Fieldhub tests", DecoderIncluded: true}

// License writes a license file of t signed with LicenseKey and returns
// the options that make a portal run under it:
//
//	p := kerneltest.Start(t, d, kerneltest.License(t, license.Terms{WhiteLabel: true}), app.Build)
func License(tb testing.TB, t license.Terms) map[string]string {
	tb.Helper()
	data, err := license.Sign(t, LicenseKey)
	if err != nil {
		tb.Fatalf("sign a test license: %v", err)
	}
	path := filepath.Join(tb.TempDir(), "license.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatalf("write a test license: %v", err)
	}
	return map[string]string{"FIELDHUB_LICENSE_FILE": path, "FIELDHUB_LICENSE_PUBLIC_KEY": LicensePublicKey()}
}
