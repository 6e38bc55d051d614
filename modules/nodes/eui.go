package nodes

import (
	"regexp"
	"strings"
)

var (
	euiStrip = strings.NewReplacer(" ", "", "-", "", ":", "")
	hex16    = regexp.MustCompile(`^[0-9A-F]{16}$`)
)

// NormaliseEUI strips spaces, dashes and colons from an EUI and upper-cases
// it, the form in which DevEUIs are stored: "70-b3-d5-7e-d0-05-a1-b2" and
// "70B3D57ED005A1B2" name the same device.
func NormaliseEUI(s string) string { return strings.ToUpper(euiStrip.Replace(strings.TrimSpace(s))) }

// ValidDevEUI reports whether s, normalised, is 16 hexadecimal digits.
func ValidDevEUI(s string) bool { return hex16.MatchString(s) }
