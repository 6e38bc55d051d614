package webapp

import "github.com/fieldhub/fieldhub/kernel/config"

// Config is the web shell's part of the configuration: where the assets
// come from in development, and the side menu's outside links.
type Config struct {
	ViteDevURL string // FIELDHUB_VITE_DEV_URL
	ManualURL  string // FIELDHUB_MANUAL_URL
	ShopURL    string // FIELDHUB_SHOP_URL
}

// Section declares the web shell's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "webapp", Options: []config.Option{
		{Name: "FIELDHUB_VITE_DEV_URL", Help: "development only: load the web assets from this Vite dev server (http://localhost:5173) for hot reload", Set: config.HTTPURL(&c.ViteDevURL)},
		{Name: "FIELDHUB_MANUAL_URL", Help: "address of the user manual linked from the side menu; unset hides the link", Set: config.HTTPURL(&c.ManualURL)},
		{Name: "FIELDHUB_SHOP_URL", Help: "address of a node shop linked from the side menu; unset hides the link", Set: config.HTTPURL(&c.ShopURL)},
	}}
}
