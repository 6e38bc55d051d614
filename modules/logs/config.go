package logs

import "github.com/fieldhub/fieldhub/kernel/config"

// Config is the logs module's part of the configuration.
type Config struct {
	// RetentionDays is how long log entries are kept; 0 keeps them for
	// good.
	RetentionDays int // FIELDHUB_LOG_RETENTION_DAYS
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "logs", Options: []config.Option{
		{Name: "FIELDHUB_LOG_RETENTION_DAYS", Default: "90", Help: "days the log entries (GET /api/logs) are kept; a daily job deletes older ones; 0 keeps them for good", Set: config.Days(&c.RetentionDays)},
	}}
}
