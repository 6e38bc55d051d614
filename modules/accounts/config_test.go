package accounts_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// TestConfigSection checks the module's options: their defaults, values
// read, and refused values named on one line.
func TestConfigSection(t *testing.T) {
	load := func(env map[string]string) (accounts.Config, error) {
		var cfg accounts.Config
		c, err := config.Load(func(k string) string { return env[k] }, nil, nil, cfg.Section())
		if err != nil {
			return cfg, err
		}
		return cfg, c.Apply(cfg.Section())
	}
	cfg, err := load(nil)
	if err != nil || !cfg.OpenRegistration || cfg.AccessTokenTTL != 15*time.Minute || cfg.RefreshTokenTTL != 720*time.Hour {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
	cfg, err = load(map[string]string{"FIELDHUB_OPEN_REGISTRATION": "false", "FIELDHUB_ACCESS_TOKEN_TTL": "2m", "FIELDHUB_REFRESH_TOKEN_TTL": "24h"})
	if err != nil || cfg.OpenRegistration || cfg.AccessTokenTTL != 2*time.Minute || cfg.RefreshTokenTTL != 24*time.Hour {
		t.Errorf("set: %+v, %v", cfg, err)
	}
	for name, value := range map[string]string{"FIELDHUB_OPEN_REGISTRATION": "maybe", "FIELDHUB_ACCESS_TOKEN_TTL": "-5m", "FIELDHUB_REFRESH_TOKEN_TTL": "forever"} {
		if _, err := load(map[string]string{name: value}); err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s=%s: got %v, want one line naming it", name, value, err)
		}
	}
}
