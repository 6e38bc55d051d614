package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadDefaults(t *testing.T) {
	c, err := Load(func(string) string { return "" }, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.DatabaseURL != filepath.Join("data", "fieldhub.db") || c.PublicURL != "http://127.0.0.1:8080" ||
		c.IsPostgres() || c.OutboundPrivate {
		t.Errorf("defaults: %+v", c)
	}
}

// TestBadValueNamesTheOption checks that every refused value stops start-up
// with a line that names the option.
func TestBadValueNamesTheOption(t *testing.T) {
	cases := []struct {
		name, value string
	}{
		{"FIELDHUB_ADDR", "nonsense"},
		{"DATABASE_URL", "mysql://x"},
		{"FIELDHUB_PUBLIC_URL", "ftp://x"},
		{"FIELDHUB_SECRET", "short"},
		{"SMTP_URL", "http://mail"},
		{"INFLUX_URL", "udp://influx:8089/fieldhub"},
		{"INFLUX_URL", "http://influx:8086"},
		{"FIELDHUB_MAIL_FROM", "not an address"},
		{"FIELDHUB_OUTBOUND_PRIVATE", "lan"},
		{"FIELDHUB_LOG_LEVEL", "loud"},
		{"FIELDHUB_LOG_FORMAT", "xml"},
		{"FIELDHUB_MAX_BODY_BYTES", "12"},
		{"FIELDHUB_METRICS_ADDR", "9464"},
		{"FIELDHUB_EMBED_ORIGINS", "https://example.com/path"},
		{"FIELDHUB_EMBED_ORIGINS", "example.com"},
		{"FIELDHUB_EMBED_ORIGINS", "https://example.com; script-src *"},
		{"FIELDHUB_EMBED_ORIGINS", "*"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(func(k string) string {
				if k == tc.name {
					return tc.value
				}
				return ""
			}, nil, nil)
			if err == nil || !strings.Contains(err.Error(), tc.name) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line naming %s", err, tc.name)
			}
		})
	}
}

func TestUnknownOptionIsAnError(t *testing.T) {
	_, err := Load(func(string) string { return "" }, []string{"FIELDHUB_ADRR=1.2.3.4:80"}, nil)
	if err == nil || !strings.Contains(err.Error(), "FIELDHUB_ADRR") {
		t.Errorf("got %v", err)
	}
}

func TestFileAndSecretFiles(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte(strings.Repeat("s", 40)+"\n"), 0o600)
	file := filepath.Join(dir, "fieldhub.env")
	os.WriteFile(file, []byte("# comment\nFIELDHUB_ADDR=0.0.0.0:9000\nFIELDHUB_SECRET_FILE="+secret+"\nFIELDHUB_LOG_LEVEL=debug\n"), 0o600)
	env := map[string]string{FileVar: file, "FIELDHUB_LOG_LEVEL": "warn"}
	c, err := Load(func(k string) string { return env[k] }, nil, map[string]string{"FIELDHUB_DATA": "/srv/fh"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "0.0.0.0:9000" || c.Secret != strings.Repeat("s", 40) || c.LogLevel.String() != "WARN" || c.DataDir != "/srv/fh" {
		t.Errorf("file, env and flag precedence: %+v", c)
	}
	os.WriteFile(file, []byte("FIELDHUB_NOPE=1\n"), 0o600)
	if _, err := Load(func(k string) string { return env[k] }, nil, nil); err == nil || !strings.Contains(err.Error(), "FIELDHUB_NOPE") {
		t.Errorf("unknown key in file: %v", err)
	}
}

func TestTestVariablesAreNotOptions(t *testing.T) {
	if _, err := Load(func(string) string { return "" }, []string{"FIELDHUB_TEST_POSTGRES=postgres://x"}, nil); err != nil {
		t.Errorf("a test variable stopped start-up: %v", err)
	}
}

// TestEmbedOriginsAndMetrics reads the embedding origins (separated by
// spaces or commas, in lower case, a wildcard subdomain allowed) and the
// metrics address, which is unset by default: no metrics are served.
func TestEmbedOriginsAndMetrics(t *testing.T) {
	c, err := Load(func(string) string { return "" }, nil, nil)
	if err != nil || c.EmbedOrigins != nil || c.MetricsAddr != "" {
		t.Fatalf("defaults: %v %+v", err, c)
	}
	env := map[string]string{"FIELDHUB_EMBED_ORIGINS": "https://Customer.example,  http://*.intranet.example:8080 'self'", "FIELDHUB_METRICS_ADDR": "127.0.0.1:9464"}
	c, err = Load(func(k string) string { return env[k] }, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.EmbedOrigins, " ") != "https://customer.example http://*.intranet.example:8080 'self'" || c.MetricsAddr != "127.0.0.1:9464" {
		t.Errorf("read: %q %q", c.EmbedOrigins, c.MetricsAddr)
	}
}
