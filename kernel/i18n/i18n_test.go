package i18n_test

import (
	"testing"

	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/webapp/locales"
)

// TestCatalogsHaveTheSameKeys fails when a message exists in one language
// and not the other.
func TestCatalogsHaveTheSameKeys(t *testing.T) {
	c, err := i18n.Load(locales.FS)
	if err != nil {
		t.Fatal(err)
	}
	langs := c.Languages()
	if len(langs) < 2 || langs[0] != "en" {
		t.Fatalf("languages %v", langs)
	}
	en := map[string]bool{}
	for _, k := range c.Keys("en") {
		en[k] = true
	}
	for _, lang := range langs[1:] {
		have := map[string]bool{}
		for _, k := range c.Keys(lang) {
			have[k] = true
			if !en[k] {
				t.Errorf("%s has %q, en does not", lang, k)
			}
		}
		for k := range en {
			if !have[k] {
				t.Errorf("en has %q, %s does not", k, lang)
			}
		}
	}
}

func TestMatchAndTranslate(t *testing.T) {
	c, err := i18n.Load(locales.FS)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ header, want string }{
		{"", "en"}, {"sv-SE,sv;q=0.9,en;q=0.8", "sv"}, {"de-DE", "en"}, {"en-GB", "en"}, {"nb, sv;q=0.5", "sv"}, {";;garbage", "en"},
	}
	for _, tc := range cases {
		if got := c.Match(tc.header); got != tc.want {
			t.Errorf("Match(%q) = %q, want %q", tc.header, got, tc.want)
		}
	}
	if got := c.T("en", "error.badJsonType", map[string]any{"field": "name", "type": "string"}); got != "The field name must be a string" {
		t.Errorf("placeholders: %q", got)
	}
	if got := c.T("en", "no.such.key", nil); got != "no.such.key" {
		t.Errorf("missing key: %q", got)
	}
}
