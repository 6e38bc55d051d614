package accounts

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the accounts module's part of the configuration: who may
// register, and how long sessions last.
type Config struct {
	OpenRegistration bool          // FIELDHUB_OPEN_REGISTRATION
	AccessTokenTTL   time.Duration // FIELDHUB_ACCESS_TOKEN_TTL
	RefreshTokenTTL  time.Duration // FIELDHUB_REFRESH_TOKEN_TTL
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "accounts", Options: []config.Option{
		{Name: "FIELDHUB_OPEN_REGISTRATION", Default: "true", Help: "whether anyone may register a user account (POST /api/users without a token)", Set: config.Bool(&c.OpenRegistration)},
		{Name: "FIELDHUB_ACCESS_TOKEN_TTL", Default: "15m", Help: "lifetime of an access token (a Go duration)", Set: config.Duration(&c.AccessTokenTTL)},
		{Name: "FIELDHUB_REFRESH_TOKEN_TTL", Default: "720h", Help: "lifetime of a refresh token, the longest a session lasts unused", Set: config.Duration(&c.RefreshTokenTTL)},
	}}
}
