package license_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/license"
)

func key(seed string) ed25519.PrivateKey {
	s := sha256.Sum256([]byte(seed))
	return ed25519.NewKeyFromSeed(s[:])
}

func pub(k ed25519.PrivateKey) ed25519.PublicKey { return k.Public().(ed25519.PublicKey) }

var terms = license.Terms{Email: "ops@acme.example", Name: "Acme AB", MaxCompanies: 25, DecoderIncluded: true, WhiteLabel: true}

func TestVerify(t *testing.T) {
	t.Parallel()
	signer := key("signer")
	good, err := license.Sign(terms, signer)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(at int) []byte {
		b := append([]byte(nil), good...)
		b[at] ^= 0x01
		return b
	}
	termsAt := strings.Index(string(good), `"Acme AB"`) + 2
	sigAt := strings.Index(string(good), `"signature": "`) + 20
	spaceAt := strings.Index(string(good), `"terms": `) + 8
	tests := []struct {
		name string
		data []byte
		key  ed25519.PublicKey
		want error
	}{
		{name: "good", data: good, key: pub(signer)},
		{name: "good without the final newline", data: good[:len(good)-1], key: pub(signer)},
		{name: "a byte of the terms changed", data: flip(termsAt), key: pub(signer), want: license.ErrSignature},
		{name: "a byte of the signature changed", data: flip(sigAt), key: pub(signer), want: license.ErrSignature},
		{name: "a space outside the terms changed", data: []byte(strings.Replace(string(good), `"terms": {`, "\"terms\":\t{", 1)), key: pub(signer), want: license.ErrLayout},
		{name: "a space byte flipped", data: flip(spaceAt), key: pub(signer), want: license.ErrLayout},
		{name: "another key", data: good, key: pub(key("someone else")), want: license.ErrSignature},
		{name: "not JSON", data: []byte("hello"), key: pub(signer), want: license.ErrLayout},
		{name: "an unknown field", data: []byte(`{"terms":{},"signature":"x","extra":1}`), key: pub(signer), want: license.ErrLayout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := license.Verify(tc.data, tc.key)
			if tc.want == nil {
				if err != nil || got != terms {
					t.Fatalf("Verify = %+v, %v; want %+v", got, err, terms)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Verify error = %v; want %v", err, tc.want)
			}
		})
	}
}

// TestEveryChangedByteIsRefused flips each byte of a license file in turn.
func TestEveryChangedByteIsRefused(t *testing.T) {
	t.Parallel()
	signer := key("signer")
	good, err := license.Sign(terms, signer)
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(good) - 1 { // the final newline is optional
		b := append([]byte(nil), good...)
		b[i] ^= 0x20
		if got, err := license.Verify(b, pub(signer)); err == nil {
			t.Errorf("byte %d (%q) changed: accepted as %+v", i, good[i], got)
		}
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	signer := key("signer")
	dir := t.TempDir()
	good, _ := license.Sign(terms, signer)
	path := filepath.Join(dir, "license.json")
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}

	free, err := license.Load("", pub(signer))
	if err != nil || free.Terms != license.Free || free.File != "" {
		t.Errorf("no file: %+v, %v; want the free license", free, err)
	}
	if license.Free.MaxCompanies != 3 || license.Free.WhiteLabel || !license.Free.DecoderIncluded {
		t.Errorf("the free license changed (update README and docs/license.md): %+v", license.Free)
	}
	l, err := license.Load(path, pub(signer))
	if err != nil || l.Terms != terms || l.File != path || l.CompanyLimit() != 25 {
		t.Errorf("good file: %+v, %v", l, err)
	}
	if _, err := license.Load(filepath.Join(dir, "missing.json"), pub(signer)); err == nil || !strings.Contains(err.Error(), "FIELDHUB_LICENSE_FILE") {
		t.Errorf("a named file that is missing: %v; want an error naming the option", err)
	}
	if _, err := license.Load(path, pub(key("other"))); err == nil || !strings.Contains(err.Error(), "is refused: its signature does not match") {
		t.Errorf("another key: %v", err)
	}
}

func TestParseKey(t *testing.T) {
	t.Parallel()
	if _, err := license.ParseKey(license.BuiltInKey); err != nil {
		t.Errorf("built-in key: %v", err)
	}
	for _, bad := range []string{"", "not base64!", base64.StdEncoding.EncodeToString([]byte("short"))} {
		if _, err := license.ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}
