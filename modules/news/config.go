package news

import (
	"fmt"
	"net/url"
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the news module's part of the configuration.
type Config struct {
	FeedURL string        // FIELDHUB_NEWS_FEED_URL
	Refresh time.Duration // FIELDHUB_NEWS_REFRESH
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "news", Options: []config.Option{
		{Name: "FIELDHUB_NEWS_FEED_URL", Help: "an RSS 2.0 or Atom feed whose entries the /news page shows beside the installation's own news; the operator's choice, so it may be on a private network; unset shows only the own news", Set: func(v string) error {
			if v != "" {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return fmt.Errorf("want an http:// or https:// URL")
				}
			}
			c.FeedURL = v // as written: a feed's address may end in a slash that matters
			return nil
		}},
		{Name: "FIELDHUB_NEWS_REFRESH", Default: "15m", Help: "how long the news feed is kept before it is fetched again (a Go duration, at least 1m); a failed fetch keeps showing the entries fetched before", Set: func(v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Minute {
				return fmt.Errorf("want a duration of at least 1m, such as 15m")
			}
			c.Refresh = d
			return nil
		}},
	}}
}
