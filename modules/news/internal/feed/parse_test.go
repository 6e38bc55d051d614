package feed

import (
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/news"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParse(t *testing.T) {
	t.Parallel()
	base, _ := url.Parse("https://news.example/feed.xml")
	tests := []struct {
		name      string
		file      string
		wantTitle string
		want      []news.Item
	}{
		{
			name: "RSS 2.0", file: "rss.xml", wantTitle: "Fieldhub & friends",
			want: []news.Item{
				// Markup and scripts are dropped; a relative link resolves
				// against the feed's address; newest first.
				{Title: "New LoRaWAN node", Summary: "The new node is here.", Link: "https://news.example/2026/node",
					PublishedAt: time.Date(2026, 11, 27, 8, 30, 0, 0, time.UTC)},
				// A javascript: link is dropped; a Dublin Core date is read.
				{Title: "A link that runs code", Summary: "Should keep no link", PublishedAt: time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)},
				{Title: "Older gateway firmware", Summary: "Plain text < with an escaped angle", Link: "https://news.example/2026/gateway",
					PublishedAt: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)},
				// Undated items come last; a GUID that is an address is the link.
				{Title: "Undated", Link: "https://news.example/undated"},
			},
		},
		{
			name: "Atom", file: "atom.xml", wantTitle: "Provider updates",
			want: []news.Item{
				// published wins over updated; xhtml content is the summary
				// when there is none.
				{Title: "Price list", Summary: "New prices from December.", Link: "https://provider.example/posts/prices",
					PublishedAt: time.Date(2026, 11, 25, 6, 15, 0, 0, time.UTC)},
				// An html title and summary become text; the alternate link
				// is taken, not self.
				{Title: "Maintenance window", Summary: "Servers are down here for an hour.", Link: "https://provider.example/posts/maintenance",
					PublishedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			title, items, err := Parse(readFixture(t, tc.file), base)
			if err != nil {
				t.Fatal(err)
			}
			if title != tc.wantTitle {
				t.Errorf("title %q, want %q", title, tc.wantTitle)
			}
			if len(items) != len(tc.want) {
				t.Fatalf("%d items, want %d: %+v", len(items), len(tc.want), items)
			}
			for i := range items {
				if items[i] != tc.want[i] {
					t.Errorf("item %d:\n got %+v\nwant %+v", i, items[i], tc.want[i])
				}
			}
		})
	}
}

func TestParseRefusesOtherDocuments(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{"", "<html><body>Not a feed</body></html>", `{"json": true}`, "<feed><entry/></feed>"} {
		if _, _, err := Parse([]byte(doc), nil); err == nil {
			t.Errorf("Parse(%q) accepted", doc)
		}
	}
}

func TestParseKeepsTheNewestItems(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`<rss version="2.0"><channel><title>Many</title>`)
	for i := range 50 {
		b.WriteString("<item><title>n</title><pubDate>" + time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC).Format(time.RFC1123Z) + "</pubDate></item>")
	}
	b.WriteString(`</channel></rss>`)
	_, items, err := Parse([]byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != MaxItems || items[0].PublishedAt.Minute() != 49 {
		t.Errorf("%d items, first at minute %d", len(items), items[0].PublishedAt.Minute())
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	if got := clip(strings.Repeat("å", 20), 10); got != strings.Repeat("å", 9)+"…" {
		t.Errorf("clip: %q", got)
	}
}
