package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fieldhub/fieldhub/kernel/license"
)

// licenseCommand runs `fieldhub license verify FILE`: it checks a license
// file as start-up would (with FIELDHUB_LICENSE_PUBLIC_KEY, else the
// built-in key) and prints its terms, so that an operator can try a file
// before installing it.
func licenseCommand(args []string, stdout io.Writer) error {
	if len(args) != 2 || args[0] != "verify" {
		return errors.New("usage: fieldhub license verify FILE")
	}
	cfg, err := loadConfig(nil)
	if err != nil {
		return err
	}
	key := cfg.LicenseKey
	if key == "" {
		key = license.BuiltInKey
	}
	pub, err := license.ParseKey(key)
	if err != nil {
		return fmt.Errorf("FIELDHUB_LICENSE_PUBLIC_KEY: %w", err)
	}
	data, err := os.ReadFile(args[1])
	if err != nil {
		return err
	}
	t, err := license.Verify(data, pub)
	if err != nil {
		return fmt.Errorf("license file %s is refused: %w", args[1], err)
	}
	limit := "no limit"
	if t.MaxCompanies > 0 {
		limit = fmt.Sprint(t.MaxCompanies)
	}
	fmt.Fprintf(stdout, "License %s is valid.\n  name:            %s\n  email:           %s\n  maxCompanies:    %s\n  decoderIncluded: %t\n  whiteLabel:      %t\n",
		args[1], t.Name, t.Email, limit, t.DecoderIncluded, t.WhiteLabel)
	return nil
}
