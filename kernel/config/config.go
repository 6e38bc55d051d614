// Package config reads Fieldhub's settings from environment variables and an
// optional file, strictly: an unknown FIELDHUB_ key or a bad value stops
// start-up with one line that names the option.
package config

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is the whole configuration of one Fieldhub process.
type Config struct {
	Addr             string        // FIELDHUB_ADDR
	DataDir          string        // FIELDHUB_DATA
	DatabaseURL      string        // DATABASE_URL: a SQLite file path or a postgres:// URL
	PublicURL        string        // FIELDHUB_PUBLIC_URL: how users reach the portal, for links in mail
	Secret           string        // FIELDHUB_SECRET: signs tokens, seals stored credentials
	SMTPURL          string        // SMTP_URL: smtp://user:pass@host:port or smtps://...
	InfluxURL        string        // INFLUX_URL: InfluxDB for the time series; unset keeps them in the SQL database
	MQTTURL          string        // MQTT_URL: the broker ChirpStack v4 publishes to; unset turns the MQTT subscriber off
	MQTTClientID     string        // MQTT_CLIENT_ID: the subscriber's client id, under which the broker keeps its session
	OutboundPrivate  bool          // FIELDHUB_OUTBOUND_PRIVATE: addresses companies configure may be loopback, private or link-local
	MailFrom         string        // FIELDHUB_MAIL_FROM
	ContactEmail     string        // FIELDHUB_CONTACT_EMAIL: where the contact form writes to
	OpenRegistration bool          // FIELDHUB_OPEN_REGISTRATION: anyone may register a user
	WhiteLabel       bool          // FIELDHUB_WHITE_LABEL: the license allows white-label branding
	LogLevel         slog.Level    // FIELDHUB_LOG_LEVEL
	LogFormat        string        // FIELDHUB_LOG_FORMAT: json or text
	MaxBodyBytes     int64         // FIELDHUB_MAX_BODY_BYTES
	AccessTokenTTL   time.Duration // FIELDHUB_ACCESS_TOKEN_TTL
	RefreshTokenTTL  time.Duration // FIELDHUB_REFRESH_TOKEN_TTL
	AccessLog        bool          // FIELDHUB_ACCESS_LOG
	ViteDevURL       string        // FIELDHUB_VITE_DEV_URL
	ManualURL        string        // FIELDHUB_MANUAL_URL
	ShopURL          string        // FIELDHUB_SHOP_URL

	// Dashboards: the forecast services of the weather module and the map
	// tiles of map modules.
	WeatherSMHIURL  string // FIELDHUB_WEATHER_SMHI_URL
	WeatherMETNOURL string // FIELDHUB_WEATHER_METNO_URL
	MapTileURL      string // FIELDHUB_MAP_TILE_URL

	// Retention in days; 0 keeps the data for good.
	LogRetentionDays  int // FIELDHUB_LOG_RETENTION_DAYS: of the log entries
	TSDBRetentionDays int // FIELDHUB_TSDB_RETENTION_DAYS: of the tag data
}

// option describes one setting: its variable, default, help text (for the
// README and `fieldhub config`) and how to apply a value.
type option struct {
	name   string
	def    string
	help   string
	secret bool
	set    func(c *Config, v string) error
}

var options = []option{
	{"FIELDHUB_ADDR", "127.0.0.1:8080", "address the HTTP server listens on", false, func(c *Config, v string) error {
		if _, _, err := splitHostPort(v); err != nil {
			return err
		}
		c.Addr = v
		return nil
	}},
	{"FIELDHUB_DATA", "./data", "folder for the SQLite database and other local files", false, func(c *Config, v string) error {
		c.DataDir = v
		return nil
	}},
	{"DATABASE_URL", "", "a SQLite file path (default: fieldhub.db in FIELDHUB_DATA) or postgres://user@host:5432/db", true, func(c *Config, v string) error {
		if strings.Contains(v, "://") {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
				return fmt.Errorf("want a file path or a postgres:// URL")
			}
		}
		c.DatabaseURL = v
		return nil
	}},
	{"FIELDHUB_PUBLIC_URL", "", "the portal's address as users reach it, used in links in e-mails (default: http:// and FIELDHUB_ADDR)", false, urlSetter(func(c *Config, v string) { c.PublicURL = v })},
	{"FIELDHUB_SECRET", "", "at least 32 characters that sign tokens and seal stored credentials; generated and kept in the database when unset", true, func(c *Config, v string) error {
		if v != "" && len(v) < 32 {
			return fmt.Errorf("want at least 32 characters")
		}
		c.Secret = v
		return nil
	}},
	{"SMTP_URL", "", "outgoing mail server, smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465; when unset, mails are written to the log", true, func(c *Config, v string) error {
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
				return fmt.Errorf("want smtp://host:port or smtps://host:port")
			}
		}
		c.SMTPURL = v
		return nil
	}},
	{"INFLUX_URL", "", "InfluxDB for the tag data time series, http://user:password@host:8086/database (its v1 HTTP API, which InfluxDB 1.x, 2 and 3 serve); when unset, the SQL database keeps them", true, func(c *Config, v string) error {
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") == "" {
				return fmt.Errorf("want http(s)://[user:password@]host:port/database")
			}
		}
		c.InfluxURL = v
		return nil
	}},
	{"MQTT_URL", "", "MQTT broker of ChirpStack v4, mqtt://user:password@host:1883 or mqtts://host:8883; when set, the portal takes device events from it and sends ChirpStack downlinks through it", true, func(c *Config, v string) error {
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "mqtt" && u.Scheme != "mqtts") || u.Hostname() == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
				return fmt.Errorf("want mqtt://[user:password@]host[:port] or mqtts://[user:password@]host[:port]")
			}
			if p := u.Port(); p != "" {
				if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
					return fmt.Errorf("want a port from 1 to 65535")
				}
			}
		}
		c.MQTTURL = v
		return nil
	}},
	{"MQTT_CLIENT_ID", "fieldhub", "MQTT client id of the subscriber; the broker keeps its session, and the events that arrive while the portal is down, under this id, so keep it stable (installations sharing a broker need different ids)", false, func(c *Config, v string) error {
		if len(v) > 64 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != "" {
			return fmt.Errorf("want 1-64 letters, digits, '-', '_' or '.'")
		}
		c.MQTTClientID = v
		return nil
	}},
	{"FIELDHUB_OUTBOUND_PRIVATE", "false", "allow requests to addresses companies configure (The Things Stack downlink URLs) to reach loopback, private and link-local networks; leave off when companies you do not control use the portal", false, boolSetter(func(c *Config, b bool) { c.OutboundPrivate = b })},
	{"FIELDHUB_MAIL_FROM", "Fieldhub <noreply@fieldhub.local>", "sender address of outgoing mail", false, func(c *Config, v string) error {
		if _, err := mail.ParseAddress(v); err != nil {
			return fmt.Errorf("want an e-mail address")
		}
		c.MailFrom = v
		return nil
	}},
	{"FIELDHUB_CONTACT_EMAIL", "", "address that receives the contact form", false, func(c *Config, v string) error {
		if v != "" {
			if _, err := mail.ParseAddress(v); err != nil {
				return fmt.Errorf("want an e-mail address")
			}
		}
		c.ContactEmail = v
		return nil
	}},
	{"FIELDHUB_OPEN_REGISTRATION", "true", "whether anyone may register a user account (POST /api/users without a token)", false, boolSetter(func(c *Config, b bool) { c.OpenRegistration = b })},
	{"FIELDHUB_WHITE_LABEL", "false", "whether the license allows white-label branding", false, boolSetter(func(c *Config, b bool) { c.WhiteLabel = b })},
	{"FIELDHUB_LOG_LEVEL", "info", "debug, info, warn or error", false, func(c *Config, v string) error {
		return c.LogLevel.UnmarshalText([]byte(v))
	}},
	{"FIELDHUB_LOG_FORMAT", "json", "json or text", false, func(c *Config, v string) error {
		if v != "json" && v != "text" {
			return fmt.Errorf("want json or text")
		}
		c.LogFormat = v
		return nil
	}},
	{"FIELDHUB_ACCESS_LOG", "true", "whether every HTTP request is logged", false, boolSetter(func(c *Config, b bool) { c.AccessLog = b })},
	{"FIELDHUB_MAX_BODY_BYTES", "1048576", "largest accepted JSON request body in bytes", false, func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1024 {
			return fmt.Errorf("want a whole number of bytes, at least 1024")
		}
		c.MaxBodyBytes = n
		return nil
	}},
	{"FIELDHUB_VITE_DEV_URL", "", "development only: load the web assets from this Vite dev server (http://localhost:5173) for hot reload", false, urlSetter(func(c *Config, v string) { c.ViteDevURL = v })},
	{"FIELDHUB_MANUAL_URL", "", "address of the user manual linked from the side menu; unset hides the link", false, urlSetter(func(c *Config, v string) { c.ManualURL = v })},
	{"FIELDHUB_SHOP_URL", "", "address of a node shop linked from the side menu; unset hides the link", false, urlSetter(func(c *Config, v string) { c.ShopURL = v })},
	{"FIELDHUB_WEATHER_SMHI_URL", "https://opendata-download-metfcst.smhi.se", "base address of SMHI's open-data point forecast (snow1g), which weather modules use for positions in its area (Sweden and its neighbours)", false, urlSetter(func(c *Config, v string) { c.WeatherSMHIURL = v })},
	{"FIELDHUB_WEATHER_METNO_URL", "https://api.met.no", "base address of MET Norway's Locationforecast, which weather modules use for positions outside SMHI's area", false, urlSetter(func(c *Config, v string) { c.WeatherMETNOURL = v })},
	{"FIELDHUB_MAP_TILE_URL", "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "map tile address of dashboard map modules, with {z}, {x} and {y} (and optionally {s}) placeholders", false, tileSetter(func(c *Config, v string) { c.MapTileURL = v })},
	{"FIELDHUB_ACCESS_TOKEN_TTL", "15m", "lifetime of an access token (a Go duration)", false, durationSetter(func(c *Config, d time.Duration) { c.AccessTokenTTL = d })},
	{"FIELDHUB_REFRESH_TOKEN_TTL", "720h", "lifetime of a refresh token, the longest a session lasts unused", false, durationSetter(func(c *Config, d time.Duration) { c.RefreshTokenTTL = d })},
	{"FIELDHUB_LOG_RETENTION_DAYS", "90", "days the log entries (GET /api/logs) are kept; a daily job deletes older ones; 0 keeps them for good", false, daysSetter(func(c *Config, n int) { c.LogRetentionDays = n })},
	{"FIELDHUB_TSDB_RETENTION_DAYS", "0", "days the tag data (the stored values of the nodes) is kept; a daily job deletes older values; 0 keeps them for good", false, daysSetter(func(c *Config, n int) { c.TSDBRetentionDays = n })},
}

func boolSetter(apply func(*Config, bool)) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		apply(c, b)
		return nil
	}
}

func urlSetter(apply func(*Config, string)) func(*Config, string) error {
	return func(c *Config, v string) error {
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("want an http:// or https:// URL")
			}
		}
		apply(c, strings.TrimRight(v, "/"))
		return nil
	}
}

// tileSetter reads a map tile address: an http(s) URL template that holds
// the {z}, {x} and {y} placeholders.
func tileSetter(apply func(*Config, string)) func(*Config, string) error {
	return func(c *Config, v string) error {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("want an http:// or https:// URL")
		}
		for _, p := range []string{"{z}", "{x}", "{y}"} {
			if !strings.Contains(v, p) {
				return fmt.Errorf("want the placeholders {z}, {x} and {y}")
			}
		}
		apply(c, v)
		return nil
	}
}

func durationSetter(apply func(*Config, time.Duration)) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("want a positive duration such as 15m or 720h")
		}
		apply(c, d)
		return nil
	}
}

// daysSetter reads a number of days for a retention setting: 0 (keep for
// good) up to 100 years.
func daysSetter(apply func(*Config, int)) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 36500 {
			return fmt.Errorf("want a whole number of days from 0 (keep for good) to 36500")
		}
		apply(c, n)
		return nil
	}
}

// FileVar names the optional configuration file: lines of NAME=value.
const FileVar = "FIELDHUB_CONFIG_FILE"

// Load builds the configuration from the environment (a function so tests can
// pass their own), the file named by FIELDHUB_CONFIG_FILE, and the defaults;
// overrides (from command-line flags) win over all of them.
func Load(getenv func(string) string, environ []string, overrides map[string]string) (*Config, error) {
	values := map[string]string{}
	if path := getenv(FileVar); path != "" {
		fileValues, err := readFile(path)
		if err != nil {
			return nil, err
		}
		values = fileValues
	}
	known := map[string]bool{FileVar: true}
	for _, o := range options {
		known[o.name] = true
		known[o.name+"_FILE"] = o.secret
	}
	for name := range values {
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
	c := &Config{}
	for _, o := range options {
		v, origin, err := lookup(o, getenv, values, overrides)
		if err != nil {
			return nil, err
		}
		if err := o.set(c, v); err != nil {
			return nil, fmt.Errorf("config: %s%s: %q: %w", o.name, origin, redact(o, v), err)
		}
	}
	if c.DatabaseURL == "" {
		c.DatabaseURL = filepath.Join(c.DataDir, "fieldhub.db")
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
	}
	return c, nil
}

func lookup(o option, getenv func(string) string, file, overrides map[string]string) (value, origin string, err error) {
	if v, ok := overrides[o.name]; ok {
		return v, " (flag)", nil
	}
	if o.secret {
		if path := firstNonEmpty(getenv(o.name+"_FILE"), file[o.name+"_FILE"]); path != "" {
			raw, err := os.ReadFile(path)
			if err != nil {
				return "", "", fmt.Errorf("config: %s_FILE: %w", o.name, err)
			}
			return strings.TrimSpace(string(raw)), "_FILE", nil
		}
	}
	if v := getenv(o.name); v != "" {
		return v, "", nil
	}
	if v, ok := file[o.name]; ok {
		return v, " (config file)", nil
	}
	return o.def, " (default)", nil
}

func redact(o option, v string) string {
	if o.secret && v != "" {
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

// Help lists every option with its default and meaning, for `fieldhub config`
// and the README.
func Help() string {
	var b strings.Builder
	for _, o := range options {
		def := o.def
		if def == "" {
			def = "(unset)"
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", o.name, def, o.help)
	}
	return b.String()
}

// IsPostgres reports whether the database is PostgreSQL.
func (c *Config) IsPostgres() bool { return strings.Contains(c.DatabaseURL, "://") }
