// Package feed reads RSS 2.0 and Atom feeds into the news module's items,
// as text, and keeps the configured feed fetched (see Cache).
package feed

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/fieldhub/fieldhub/modules/news"
)

// Limits of what a feed gives the page.
const (
	MaxItems   = 30   // the newest items shown
	maxTitle   = 300  // characters of a title
	maxSummary = 1000 // characters of a summary
)

// ErrNotAFeed is a document that is neither RSS nor Atom.
var ErrNotAFeed = errors.New("not an RSS 2.0 or Atom feed")

// rss is the part of an RSS 2.0 document the page uses.
type rss struct {
	XMLName xml.Name `xml:"rss"`
	Channel struct {
		Title string    `xml:"title"`
		Items []rssItem `xml:"item"`
	} `xml:"channel"`
}

type rssItem struct {
	Title       string `xml:"title"`
	Link        string `xml:"link"`
	GUID        string `xml:"guid"`
	Description string `xml:"description"`
	PubDate     string `xml:"pubDate"`
	DCDate      string `xml:"http://purl.org/dc/elements/1.1/ date"`
}

// atom is the part of an Atom document the page uses.
type atom struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   atomText    `xml:"title"`
	Entries []atomEntry `xml:"entry"`
}

type atomEntry struct {
	Title     atomText   `xml:"title"`
	Links     []atomLink `xml:"link"`
	Summary   atomText   `xml:"summary"`
	Content   atomText   `xml:"content"`
	Published string     `xml:"published"`
	Updated   string     `xml:"updated"`
}

// atomText is a text construct: type "text", "html" or "xhtml".
type atomText struct {
	Type  string `xml:"type,attr"`
	Inner []byte `xml:",innerxml"`
	Text  string `xml:",chardata"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
}

// Parse reads an RSS 2.0 or Atom document into the feed's title and its
// items, newest first, at most MaxItems. Item links are resolved against
// base and kept only when they are http or https.
func Parse(data []byte, base *url.URL) (title string, items []news.Item, err error) {
	root, err := rootElement(data)
	if err != nil {
		return "", nil, err
	}
	switch {
	case root.Local == "rss":
		var doc rss
		if err := decode(data, &doc); err != nil {
			return "", nil, err
		}
		for _, it := range doc.Channel.Items {
			link := it.Link
			if link == "" && strings.HasPrefix(it.GUID, "http") {
				link = it.GUID
			}
			items = append(items, news.Item{
				Title:       clip(text(it.Title), maxTitle),
				Summary:     clip(htmlText(it.Description), maxSummary),
				Link:        safeLink(base, link),
				PublishedAt: parseTime(first(it.PubDate, it.DCDate)),
			})
		}
		title = clip(text(doc.Channel.Title), maxTitle)
	case root.Local == "feed" && root.Space == "http://www.w3.org/2005/Atom":
		var doc atom
		if err := decode(data, &doc); err != nil {
			return "", nil, err
		}
		for _, e := range doc.Entries {
			summary := e.Summary
			if len(bytes.TrimSpace(summary.Inner)) == 0 {
				summary = e.Content
			}
			items = append(items, news.Item{
				Title:       clip(e.Title.String(), maxTitle),
				Summary:     clip(summary.String(), maxSummary),
				Link:        safeLink(base, alternate(e.Links)),
				PublishedAt: parseTime(first(e.Published, e.Updated)),
			})
		}
		title = clip(doc.Title.String(), maxTitle)
	default:
		return "", nil, ErrNotAFeed
	}
	sortNewestFirst(items)
	if len(items) > MaxItems {
		items = items[:MaxItems]
	}
	return title, items, nil
}

// rootElement is the name of the document's first element.
func rootElement(data []byte) (xml.Name, error) {
	d := newDecoder(data)
	for {
		tok, err := d.Token()
		if err != nil {
			return xml.Name{}, fmt.Errorf("%w: %v", ErrNotAFeed, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name, nil
		}
	}
}

func decode(data []byte, v any) error {
	if err := newDecoder(data).Decode(v); err != nil {
		return fmt.Errorf("read feed: %w", err)
	}
	return nil
}

// newDecoder reads feeds as browsers do: HTML entities such as &nbsp; are
// known, and a declared charset other than UTF-8 is read as UTF-8 (text
// outside ASCII may then show wrongly, but the feed still shows).
func newDecoder(data []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return d
}

// String is the construct as text: markup of an "html" or "xhtml" one is
// dropped.
func (t atomText) String() string {
	switch t.Type {
	case "html":
		return htmlText(t.Text)
	case "xhtml":
		return htmlText(string(t.Inner))
	default:
		return text(t.Text)
	}
}

// alternate is an entry's link to its page: rel "alternate" (the default),
// else the first.
func alternate(links []atomLink) string {
	for _, l := range links {
		if l.Rel == "" || l.Rel == "alternate" {
			return l.Href
		}
	}
	if len(links) > 0 {
		return links[0].Href
	}
	return ""
}

// htmlText is the text of an HTML fragment: tags dropped (with the content
// of script and style), entities decoded, white space folded. The page
// escapes it again, so no markup of the feed reaches the browser.
func htmlText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return text(b.String())
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				skip++
			case "br", "p", "div", "li", "h1", "h2", "h3", "h4", "tr":
				b.WriteByte(' ')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				if skip > 0 {
					skip--
				}
			case "p", "div", "li", "h1", "h2", "h3", "h4", "tr":
				b.WriteByte(' ')
			}
		}
	}
}

// text folds white space and drops control characters.
func text(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// clip cuts s to n characters, with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// safeLink resolves link against base and keeps it only when it is an
// http or https address: a javascript: or data: link never reaches the page.
func safeLink(base *url.URL, link string) string {
	link = strings.TrimSpace(link)
	if link == "" {
		return ""
	}
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

func first(values ...string) string {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// timeLayouts are the date forms feeds use: RFC 822 and its variants (RSS)
// and RFC 3339 (Atom, Dublin Core).
var timeLayouts = []string{
	time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04:05 MST", "Mon, 02 Jan 2006 15:04 -0700", time.RFC822Z, time.RFC822,
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02",
}

// parseTime reads a feed's date; zero when it cannot.
func parseTime(s string) time.Time {
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// sortNewestFirst orders items by date, newest first; items without a date
// keep their place after the dated ones.
func sortNewestFirst(items []news.Item) {
	slices.SortStableFunc(items, func(a, b news.Item) int {
		switch {
		case a.PublishedAt.IsZero() && b.PublishedAt.IsZero():
			return 0
		case a.PublishedAt.IsZero():
			return 1
		case b.PublishedAt.IsZero():
			return -1
		}
		return b.PublishedAt.Compare(a.PublishedAt)
	})
}
