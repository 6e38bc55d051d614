package config

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Option is one setting: its variable, its default, its meaning (for the
// README and `fieldhub config`) and how a value is read.
type Option struct {
	Name    string
	Default string
	Help    string
	// Secret options may be read from the file that NAME_FILE names, and
	// their values are never printed.
	Secret bool
	// Set reads a value (the default when none is given) into its
	// destination, or says in a few words what is wrong with it.
	Set func(v string) error
}

// Section is the options of one part of the portal: the kernel's, or one
// module's. A module declares its section beside the type its options are
// read into, and validates its values in Set.
type Section struct {
	Name    string
	Options []Option
}

// Bool reads true or false into dst.
func Bool(dst *bool) func(string) error {
	return func(v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		*dst = b
		return nil
	}
}

// Prefixes reads comma-separated IP addresses and CIDR ranges into dst;
// an address is a range of its own.
func Prefixes(dst *[]netip.Prefix) func(string) error {
	return func(v string) error {
		var out []netip.Prefix
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if p, err := netip.ParsePrefix(part); err == nil {
				out = append(out, p.Masked())
				continue
			}
			a, err := netip.ParseAddr(part)
			if err != nil {
				return fmt.Errorf("want IP addresses or CIDR ranges such as 10.0.0.0/8, separated by commas; %q is neither", part)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
		*dst = out
		return nil
	}
}

// HTTPURL reads an http:// or https:// address, or nothing, into dst,
// without a trailing slash.
func HTTPURL(dst *string) func(string) error {
	return func(v string) error {
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("want an http:// or https:// URL")
			}
		}
		*dst = strings.TrimRight(v, "/")
		return nil
	}
}

// MapTiles reads a map tile address into dst: an http(s) URL template
// that holds the {z}, {x} and {y} placeholders.
func MapTiles(dst *string) func(string) error {
	return func(v string) error {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("want an http:// or https:// URL")
		}
		for _, p := range []string{"{z}", "{x}", "{y}"} {
			if !strings.Contains(v, p) {
				return fmt.Errorf("want the placeholders {z}, {x} and {y}")
			}
		}
		*dst = v
		return nil
	}
}

// Duration reads a positive Go duration (15m, 720h) into dst.
func Duration(dst *time.Duration) func(string) error {
	return func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("want a positive duration such as 15m or 720h")
		}
		*dst = d
		return nil
	}
}

// Days reads a number of days for a retention setting into dst: 0 (keep
// for good) up to 100 years.
func Days(dst *int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 36500 {
			return fmt.Errorf("want a whole number of days from 0 (keep for good) to 36500")
		}
		*dst = n
		return nil
	}
}
