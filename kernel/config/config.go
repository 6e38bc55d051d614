// Package config reads Fieldhub's settings from environment variables and an
// optional file, strictly: an unknown FIELDHUB_ key or a bad value stops
// start-up with one line that names the option.
package config

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is the whole configuration of one Fieldhub process.
type Config struct {
	Addr            string     // FIELDHUB_ADDR
	DataDir         string     // FIELDHUB_DATA
	DatabaseURL     string     // DATABASE_URL: a SQLite file path or a postgres:// URL
	PublicURL       string     // FIELDHUB_PUBLIC_URL: how users reach the portal, for links in mail
	Secret          string     // FIELDHUB_SECRET: signs tokens, seals stored credentials
	SMTPURL         string     // SMTP_URL: smtp://user:pass@host:port or smtps://...
	InfluxURL       string     // INFLUX_URL: InfluxDB for the time series; unset keeps them in the SQL database
	OutboundPrivate bool       // FIELDHUB_OUTBOUND_PRIVATE: addresses companies configure may be loopback, private or link-local
	MailFrom        string     // FIELDHUB_MAIL_FROM
	ContactEmail    string     // FIELDHUB_CONTACT_EMAIL: where the contact form writes to
	LicenseFile     string     // FIELDHUB_LICENSE_FILE: the signed license; "" runs the free license
	LicenseKey      string     // FIELDHUB_LICENSE_PUBLIC_KEY: the key licenses are verified with; "" is the built-in one
	LogLevel        slog.Level // FIELDHUB_LOG_LEVEL
	LogFormat       string     // FIELDHUB_LOG_FORMAT: json or text
	MaxBodyBytes    int64      // FIELDHUB_MAX_BODY_BYTES
	AccessLog       bool       // FIELDHUB_ACCESS_LOG

	// TSDBRetentionDays is how long the tag data is kept; 0 keeps it for
	// good.
	TSDBRetentionDays int // FIELDHUB_TSDB_RETENTION_DAYS

	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client; empty trusts none.
	TrustedProxies []netip.Prefix // FIELDHUB_TRUSTED_PROXIES
	// EmbedOrigins may frame the public dashboard pages; none when empty.
	EmbedOrigins []string // FIELDHUB_EMBED_ORIGINS
	// MetricsAddr is where GET /metrics is served, apart from the portal;
	// "" serves it nowhere.
	MetricsAddr string // FIELDHUB_METRICS_ADDR
	// PluginDir holds the SMS provider plugins, sms-<provider>.
	PluginDir string // FIELDHUB_PLUGIN_DIR

	source source // where Apply reads the modules' options
}

// FileVar names the optional configuration file: lines of NAME=value.
const FileVar = "FIELDHUB_CONFIG_FILE"

// Load builds the kernel's configuration from the environment (a function
// so tests can pass their own), the file named by FIELDHUB_CONFIG_FILE, and
// the defaults; overrides (from command-line flags) win over all of them.
// modules are the modules' sections: their names are options too (an
// unknown FIELDHUB_ variable or file key stops start-up), and their values
// are read later by Apply.
func Load(getenv func(string) string, environ []string, overrides map[string]string, modules ...Section) (*Config, error) {
	src := source{getenv: getenv, overrides: overrides, file: map[string]string{}}
	if path := getenv(FileVar); path != "" {
		fileValues, err := readFile(path)
		if err != nil {
			return nil, err
		}
		src.file = fileValues
	}
	c := &Config{source: src}
	kernel := kernelSection(c)
	known := map[string]bool{FileVar: true}
	for _, s := range append([]Section{kernel}, modules...) {
		for _, o := range s.Options {
			known[o.Name] = true
			known[o.Name+"_FILE"] = o.Secret
		}
	}
	for name := range src.file {
		if !known[name] {
			return nil, fmt.Errorf("config: %s in %s is not a Fieldhub option", name, getenv(FileVar))
		}
	}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		// FIELDHUB_TEST_* variables belong to the test suite, not to the portal.
		if strings.HasPrefix(name, "FIELDHUB_") && !strings.HasPrefix(name, "FIELDHUB_TEST_") && !known[name] {
			return nil, fmt.Errorf("config: %s is not a Fieldhub option", name)
		}
	}
	if err := c.Apply(kernel); err != nil {
		return nil, err
	}
	if c.DatabaseURL == "" {
		c.DatabaseURL = filepath.Join(c.DataDir, "fieldhub.db")
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
	}
	return c, nil
}

// Apply reads the options of sections from the sources Load read (flags,
// environment, file, defaults). An error names the option, where its value
// came from and what is wrong, on one line.
func (c *Config) Apply(sections ...Section) error {
	for _, s := range sections {
		for _, o := range s.Options {
			v, origin, err := c.source.lookup(o)
			if err != nil {
				return err
			}
			if err := o.Set(v); err != nil {
				return fmt.Errorf("config: %s%s: %q: %w", o.Name, origin, redact(o, v), err)
			}
		}
	}
	return nil
}

// source is where option values come from, in order: flags, a secret's
// file, the environment, the configuration file, the default.
type source struct {
	getenv    func(string) string
	file      map[string]string
	overrides map[string]string
}

func (s source) lookup(o Option) (value, origin string, err error) {
	if v, ok := s.overrides[o.Name]; ok {
		return v, " (flag)", nil
	}
	if o.Secret {
		if path := firstNonEmpty(s.getenv(o.Name+"_FILE"), s.file[o.Name+"_FILE"]); path != "" {
			raw, err := os.ReadFile(path)
			if err != nil {
				return "", "", fmt.Errorf("config: %s_FILE: %w", o.Name, err)
			}
			return strings.TrimSpace(string(raw)), "_FILE", nil
		}
	}
	if v := s.getenv(o.Name); v != "" {
		return v, "", nil
	}
	if v, ok := s.file[o.Name]; ok {
		return v, " (config file)", nil
	}
	return o.Default, " (default)", nil
}

func redact(o Option, v string) string {
	if o.Secret && v != "" {
		return "***"
	}
	return v
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func readFile(path string) (map[string]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %s: %w", FileVar, err)
	}
	values := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("config: %s line %d: want NAME=value", path, n)
		}
		values[strings.TrimSpace(name)] = strings.Trim(strings.TrimSpace(value), `"`)
	}
	return values, nil
}

func splitHostPort(addr string) (string, int, error) {
	i := strings.LastIndex(addr, ":")
	if i < 0 {
		return "", 0, fmt.Errorf("want host:port")
	}
	port, err := strconv.Atoi(addr[i+1:])
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("want host:port with a port from 0 to 65535")
	}
	return addr[:i], port, nil
}

// Help lists every option, the kernel's and then each module section's,
// with its default and meaning: the table of `fieldhub config` and the
// README.
func Help(modules ...Section) string {
	var b strings.Builder
	for _, s := range append([]Section{kernelSection(&Config{})}, modules...) {
		for _, o := range s.Options {
			def := o.Default
			if def == "" {
				def = "(unset)"
			}
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", o.Name, def, o.Help)
		}
	}
	return b.String()
}

// IsPostgres reports whether the database is PostgreSQL.
func (c *Config) IsPostgres() bool { return strings.Contains(c.DatabaseURL, "://") }
