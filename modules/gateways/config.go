package gateways

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the gateways module's part of the configuration.
type Config struct {
	// OfflineAfter is the silence after which a gateway counts as offline.
	OfflineAfter time.Duration // FIELDHUB_GATEWAY_OFFLINE_AFTER
	// GeocodeURL is the base address of a Nominatim-compatible service for
	// the address of a gateway's position; "" switches the lookup off.
	GeocodeURL string // FIELDHUB_GEOCODE_URL
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "gateways", Options: []config.Option{
		{Name: "FIELDHUB_GATEWAY_OFFLINE_AFTER", Default: "10m", Help: "silence after which a gateway that the company's uplinks named counts as offline on /gateways", Set: config.Duration(&c.OfflineAfter)},
		{Name: "FIELDHUB_GEOCODE_URL", Default: "", Help: "base address of a Nominatim-compatible reverse geocoding service (such as https://nominatim.openstreetmap.org) that the gateway form asks, through the server, for the address of a position; empty switches the lookup off", Set: config.HTTPURL(&c.GeocodeURL)},
	}}
}
