// Package license reads and verifies the installation's license: terms
// (who it is for, how many companies the installation may have, whether a
// decoder is included and whether white-label branding is allowed) signed
// with Ed25519 by Fieldhub's key, whose public half is built in.
//
// A license file is JSON in exactly this layout (docs/license.md):
//
//	{
//	  "terms": {"email":"ops@acme.example","name":"Acme AB","maxCompanies":25,"decoderIncluded":true,"whiteLabel":true},
//	  "signature": "<base64 of the Ed25519 signature of the terms' bytes as written>"
//	}
//
// The signature covers the bytes of the terms object as they stand in the
// file, and the rest of the file must be that layout to the byte (a final
// newline is optional), so that any changed byte refuses the file. Without
// a license file the installation runs under Free.
package license

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Terms are what a license grants.
type Terms struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	// MaxCompanies is how many companies the installation may have; 0
	// means no limit.
	MaxCompanies    int  `json:"maxCompanies"`
	DecoderIncluded bool `json:"decoderIncluded"`
	WhiteLabel      bool `json:"whiteLabel"`
}

// Free is what an installation without a license file may do: three
// companies, the decoders, no white-label branding.
var Free = Terms{Name: "Fieldhub Free", MaxCompanies: 3, DecoderIncluded: true}

// License is the installation's license as read at start.
type License struct {
	Terms
	// File is the license file read; "" under Free.
	File string
}

// CompanyLimit is how many companies the installation may have; 0 means
// no limit. The accounts module asks it before it creates a company.
func (l *License) CompanyLimit() int { return l.MaxCompanies }

// BuiltInKey is the public half of Fieldhub's license signing key. The
// private half is kept by the project, outside the repository.
const BuiltInKey = "NIKc6DVB0RJqok3bHFgV2GVfqQJBoQo4+uFGItyK/jo="

// ParseKey decodes a public key written in base64 (32 bytes).
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("want the base64 of a %d-byte Ed25519 public key", ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// Load reads the license at path, verified with key; path "" gives Free.
// An error says why the file is refused, for the operator to read at
// start.
func Load(path string, key ed25519.PublicKey) (*License, error) {
	if path == "" {
		return &License{Terms: Free}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("license file (FIELDHUB_LICENSE_FILE): %w", err)
	}
	t, err := Verify(data, key)
	if err != nil {
		return nil, fmt.Errorf("license file %s is refused: %w", path, err)
	}
	return &License{Terms: t, File: path}, nil
}

// The reasons Verify refuses a file.
var (
	ErrLayout    = errors.New("it is not a Fieldhub license file (JSON with terms and signature), or its layout was changed after signing")
	ErrSignature = errors.New("its signature does not match its terms: the file was changed after signing, or it was signed by another key")
)

// file is the license file's JSON.
type file struct {
	Terms     json.RawMessage `json:"terms"`
	Signature string          `json:"signature"`
}

// Verify checks data, a license file, against key and returns its terms.
func Verify(data []byte, key ed25519.PublicKey) (Terms, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil || len(f.Terms) == 0 || f.Signature == "" {
		return Terms{}, ErrLayout
	}
	sig, err := base64.StdEncoding.DecodeString(f.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return Terms{}, ErrSignature
	}
	if !bytes.Equal(bytes.TrimSuffix(data, []byte("\n")), bytes.TrimSuffix(layout(f.Terms, f.Signature), []byte("\n"))) {
		return Terms{}, ErrLayout
	}
	if !ed25519.Verify(key, f.Terms, sig) {
		return Terms{}, ErrSignature
	}
	var t Terms
	td := json.NewDecoder(bytes.NewReader(f.Terms))
	td.DisallowUnknownFields()
	if err := td.Decode(&t); err != nil {
		return Terms{}, fmt.Errorf("its terms do not read: %w", err)
	}
	if t.MaxCompanies < 0 {
		return Terms{}, fmt.Errorf("its maxCompanies is negative")
	}
	return t, nil
}

// Sign writes the license file of t signed with key, in the layout Verify
// takes: the project's signing tool (scripts/license-sign) and the tests
// use it.
func Sign(t Terms, key ed25519.PrivateKey) ([]byte, error) {
	terms, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	return layout(terms, base64.StdEncoding.EncodeToString(ed25519.Sign(key, terms))), nil
}

// layout is the file's one accepted form.
func layout(terms []byte, sig string) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"terms\": ")
	b.Write(terms)
	b.WriteString(",\n  \"signature\": \"")
	b.WriteString(sig)
	b.WriteString("\"\n}\n")
	return b.Bytes()
}
