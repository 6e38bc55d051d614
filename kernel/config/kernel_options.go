package config

import (
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/license"
)

// kernelSection is the kernel's own options, read into c.
func kernelSection(c *Config) Section {
	return Section{Name: "kernel", Options: []Option{
		{Name: "FIELDHUB_ADDR", Default: "127.0.0.1:8080", Help: "address the HTTP server listens on", Set: func(v string) error {
			if _, _, err := splitHostPort(v); err != nil {
				return err
			}
			c.Addr = v
			return nil
		}},
		{Name: "FIELDHUB_DATA", Default: "./data", Help: "folder for the SQLite database and other local files", Set: func(v string) error {
			c.DataDir = v
			return nil
		}},
		{Name: "DATABASE_URL", Help: "a SQLite file path (default: fieldhub.db in FIELDHUB_DATA) or postgres://user@host:5432/db", Secret: true, Set: func(v string) error {
			if strings.Contains(v, "://") {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
					return fmt.Errorf("want a file path or a postgres:// URL")
				}
			}
			c.DatabaseURL = v
			return nil
		}},
		{Name: "FIELDHUB_PUBLIC_URL", Help: "the portal's address as users reach it: links in e-mails use it, state-changing browser requests must come from its origin (or the one they were sent to), and an https address turns HSTS on (default: http:// and FIELDHUB_ADDR)", Set: HTTPURL(&c.PublicURL)},
		{Name: "FIELDHUB_SECRET", Help: "at least 32 characters that sign tokens and seal stored credentials; generated and kept in the database when unset", Secret: true, Set: func(v string) error {
			if v != "" && len(v) < 32 {
				return fmt.Errorf("want at least 32 characters")
			}
			c.Secret = v
			return nil
		}},
		{Name: "SMTP_URL", Help: "outgoing mail server, smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465; when unset, mails are written to the log", Secret: true, Set: func(v string) error {
			if v != "" {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
					return fmt.Errorf("want smtp://host:port or smtps://host:port")
				}
			}
			c.SMTPURL = v
			return nil
		}},
		{Name: "INFLUX_URL", Help: "InfluxDB for the tag data time series, http://user:password@host:8086/database (its v1 HTTP API, which InfluxDB 1.x, 2 and 3 serve); when unset, the SQL database keeps them", Secret: true, Set: func(v string) error {
			if v != "" {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") == "" {
					return fmt.Errorf("want http(s)://[user:password@]host:port/database")
				}
			}
			c.InfluxURL = v
			return nil
		}},
		{Name: "FIELDHUB_OUTBOUND_PRIVATE", Default: "false", Help: "allow requests to addresses companies configure (The Things Stack downlink URLs) to reach loopback, private and link-local networks; leave off when companies you do not control use the portal", Set: Bool(&c.OutboundPrivate)},
		{Name: "FIELDHUB_MAIL_FROM", Default: "Fieldhub <noreply@fieldhub.local>", Help: "sender address of outgoing mail", Set: func(v string) error {
			if _, err := mail.ParseAddress(v); err != nil {
				return fmt.Errorf("want an e-mail address")
			}
			c.MailFrom = v
			return nil
		}},
		{Name: "FIELDHUB_CONTACT_EMAIL", Help: "address that receives the contact form", Set: func(v string) error {
			if v != "" {
				if _, err := mail.ParseAddress(v); err != nil {
					return fmt.Errorf("want an e-mail address")
				}
			}
			c.ContactEmail = v
			return nil
		}},
		{Name: "FIELDHUB_LICENSE_FILE", Help: "the license file, signed by Fieldhub (it decides how many companies the installation may have and whether white-label branding is allowed); a file that does not verify stops start-up; when unset, the free license: 3 companies, no white-label", Set: func(v string) error {
			c.LicenseFile = v
			return nil
		}},
		{Name: "FIELDHUB_LICENSE_PUBLIC_KEY", Help: "the Ed25519 public key (base64 of 32 bytes) license files are verified with, for tests and for licenses of another issuer; when unset, Fieldhub's built-in key", Set: func(v string) error {
			if v != "" {
				if _, err := license.ParseKey(v); err != nil {
					return err
				}
			}
			c.LicenseKey = v
			return nil
		}},
		{Name: "FIELDHUB_LOG_LEVEL", Default: "info", Help: "debug, info, warn or error", Set: func(v string) error {
			return c.LogLevel.UnmarshalText([]byte(v))
		}},
		{Name: "FIELDHUB_LOG_FORMAT", Default: "json", Help: "json or text", Set: func(v string) error {
			if v != "json" && v != "text" {
				return fmt.Errorf("want json or text")
			}
			c.LogFormat = v
			return nil
		}},
		{Name: "FIELDHUB_ACCESS_LOG", Default: "true", Help: "whether every HTTP request is logged", Set: Bool(&c.AccessLog)},
		{Name: "FIELDHUB_MAX_BODY_BYTES", Default: "1048576", Help: "largest accepted JSON request body in bytes", Set: func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1024 {
				return fmt.Errorf("want a whole number of bytes, at least 1024")
			}
			c.MaxBodyBytes = n
			return nil
		}},
		{Name: "FIELDHUB_TSDB_RETENTION_DAYS", Default: "0", Help: "days the tag data (the stored values of the nodes) is kept; a daily job deletes older values; 0 keeps them for good", Set: Days(&c.TSDBRetentionDays)},
		{Name: "FIELDHUB_TRUSTED_PROXIES", Help: "reverse proxies in front of the portal, as comma-separated addresses or CIDR ranges (10.0.0.0/8, ::1); a request from one of them is taken to come from the address its X-Forwarded-For names, which the login rate limit counts by; when unset, the connection's address counts", Set: Prefixes(&c.TrustedProxies)},
		{Name: "FIELDHUB_EMBED_ORIGINS", Help: "sites that may show public dashboard pages (/public/...) in a frame, as origins separated by spaces (https://example.com https://*.example.org); every other page, and these when unset, may be framed by no site", Set: Origins(&c.EmbedOrigins)},
		{Name: "FIELDHUB_METRICS_ADDR", Help: "address (127.0.0.1:9464) of a separate HTTP server for the Prometheus metrics, GET /metrics; unset serves them nowhere. Keep it on loopback or a private network: the metrics are not authenticated", Set: func(v string) error {
			if v != "" {
				if _, _, err := splitHostPort(v); err != nil {
					return err
				}
			}
			c.MetricsAddr = v
			return nil
		}},
		{Name: "FIELDHUB_PLUGIN_DIR", Default: "bin/plugins", Help: "folder of the SMS provider plugins (executables sms-46elks, sms-twilio, sms-<provider>), relative to the working folder; the README's run and test commands build the bundled ones there", Set: func(v string) error {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("want a folder")
			}
			c.PluginDir = v
			return nil
		}},
	}}
}
