package registry

import (
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Limits of stored values.
const (
	maxAppName = 254 // an application's name must be under 255 characters
	// MaxName bounds the names of tags and tokens (and the node list's
	// search, which looks for them).
	MaxName     = 255
	maxText     = 255
	maxType     = 64
	maxURL      = 2048
	maxAPIKey   = 1024
	maxUnit     = 32
	maxDecimals = 10
)

var (
	hex16      = regexp.MustCompile(`^[0-9A-F]{16}$`)
	hex32      = regexp.MustCompile(`^[0-9A-F]{32}$`)
	keyPattern = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,64}$`)
	uuid       = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// cleanText reports whether s holds only printable text: control characters
// (NUL above all, which PostgreSQL refuses) are not accepted.
func cleanText(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' {
			return false
		}
	}
	return utf8.ValidString(s)
}

// checkText validates a free text into field: required when asked, at most
// max characters, and printable.
func checkText(v *errs.Validation, field, value string, max int, required bool) {
	switch {
	case value == "" && required:
		v.Add(field, errs.IDRequired)
	case utf8.RuneCountInString(value) > max:
		if max == MaxName {
			v.Add(field, errs.IDMaxChars255)
		} else {
			v.Add(field, errs.IDTooLong)
		}
	case !cleanText(value):
		v.Add(field, nodes.IDTextInvalid)
	}
}

func checkHexField(v *errs.Validation, field, value string, pattern *regexp.Regexp, id string) {
	if value != "" && !pattern.MatchString(value) {
		v.Add(field, id)
	}
}

// ValidKey reports whether k may name a data key: 1 to 64 letters, digits,
// dots, dashes and underscores (so no spaces).
func ValidKey(k string) bool { return keyPattern.MatchString(k) }

// BadKey is the error of a malformed key name.
func BadKey() error {
	v := errs.Validation{}
	v.Add("key", nodes.IDKeyFormat)
	return v.Err()
}

// badDevEUI is the error of a DevEUI that is not 16 hexadecimal digits.
func badDevEUI() error {
	v := errs.Validation{}
	v.Add("deveui", nodes.IDDevEUIFormat)
	return v.Err()
}

func validHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && len(s) <= maxURL && cleanText(s)
}

// publicHost reports whether an http(s) URL's host may be on the public
// internet: a name ("localhost" aside), which is resolved and checked at
// each delivery (kernel/egress), or an address egress allows. Telling a
// literal private address at once saves a company a downlink that fails.
func publicHost(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err != nil || egress.Check(a) == nil
}
