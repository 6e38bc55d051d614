// Command license-sign makes Fieldhub license files, for the project's own
// use:
//
//	go run ./scripts/license-sign -genkey private.key    # a new key pair; prints the public key
//	go run ./scripts/license-sign -key private.key -name "Acme AB" -email ops@acme.example \
//	    -max-companies 25 -white-label > license.json
//
// The private key file holds the base64 of the key's 32-byte seed. The
// private half of the key built into the portal (kernel/license.BuiltInKey)
// is kept by the project outside the repository; a license signed with
// another key verifies only where FIELDHUB_LICENSE_PUBLIC_KEY names it.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/license"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "license-sign:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("license-sign", flag.ContinueOnError)
	genkey := fs.String("genkey", "", "write a new private key to this file and print its public key")
	keyFile := fs.String("key", "", "the private key file to sign with")
	var t license.Terms
	fs.StringVar(&t.Name, "name", "", "who the license is for")
	fs.StringVar(&t.Email, "email", "", "the licensee's contact address")
	fs.IntVar(&t.MaxCompanies, "max-companies", 0, "how many companies the installation may have; 0 for no limit")
	fs.BoolVar(&t.DecoderIncluded, "decoder-included", true, "whether decoders are included")
	fs.BoolVar(&t.WhiteLabel, "white-label", false, "whether white-label branding is allowed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *genkey != "" {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		if err := os.WriteFile(*genkey, []byte(base64.StdEncoding.EncodeToString(priv.Seed())+"\n"), 0o600); err != nil {
			return err
		}
		fmt.Println(base64.StdEncoding.EncodeToString(pub))
		return nil
	}
	if *keyFile == "" || t.Name == "" {
		return errors.New("-key and -name are required (or -genkey)")
	}
	raw, err := os.ReadFile(*keyFile)
	if err != nil {
		return err
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return fmt.Errorf("%s: want the base64 of a %d-byte Ed25519 seed", *keyFile, ed25519.SeedSize)
	}
	data, err := license.Sign(t, ed25519.NewKeyFromSeed(seed))
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(data)
	return err
}
