package dashboards

import "github.com/fieldhub/fieldhub/kernel/config"

// Config is the dashboards module's part of the configuration: the
// forecast services of weather modules and the map tiles of map modules.
type Config struct {
	WeatherSMHIURL  string // FIELDHUB_WEATHER_SMHI_URL
	WeatherMETNOURL string // FIELDHUB_WEATHER_METNO_URL
	MapTileURL      string // FIELDHUB_MAP_TILE_URL
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "dashboards", Options: []config.Option{
		{Name: "FIELDHUB_WEATHER_SMHI_URL", Default: "https://opendata-download-metfcst.smhi.se", Help: "base address of SMHI's open-data point forecast (snow1g), which weather modules use for positions in its area (Sweden and its neighbours)", Set: config.HTTPURL(&c.WeatherSMHIURL)},
		{Name: "FIELDHUB_WEATHER_METNO_URL", Default: "https://api.met.no", Help: "base address of MET Norway's Locationforecast, which weather modules use for positions outside SMHI's area", Set: config.HTTPURL(&c.WeatherMETNOURL)},
		{Name: "FIELDHUB_MAP_TILE_URL", Default: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", Help: "map tile address of dashboard map modules, with {z}, {x} and {y} (and optionally {s}) placeholders", Set: config.MapTiles(&c.MapTileURL)},
	}}
}
