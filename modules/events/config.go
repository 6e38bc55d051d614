package events

import (
	"fmt"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the events module's part of the configuration: how many feed
// connections one user and one company may hold open.
type Config struct {
	// MaxPerUser caps the open connections of one user (all their tabs
	// and clients).
	MaxPerUser int // FIELDHUB_EVENTS_MAX_PER_USER
	// MaxPerCompany caps the open connections of a company's users
	// together.
	MaxPerCompany int // FIELDHUB_EVENTS_MAX_PER_COMPANY
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "events", Options: []config.Option{
		{Name: "FIELDHUB_EVENTS_MAX_PER_USER", Default: "16", Help: "live feed connections (GET /api/events) one user may hold open at once, counted across instances on PostgreSQL; another is closed with 4029", Set: count(&c.MaxPerUser)},
		{Name: "FIELDHUB_EVENTS_MAX_PER_COMPANY", Default: "500", Help: "live feed connections the users of one company may hold open at once, together", Set: count(&c.MaxPerCompany)},
	}}
}

func count(dst *int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1_000_000 {
			return fmt.Errorf("want a whole number from 1 to 1000000")
		}
		*dst = n
		return nil
	}
}
