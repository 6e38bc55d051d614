package pages

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// catalog is a decoder list that may fail to be read (an empty one).
type catalog []decoders.Entry

func (c catalog) Has(_ context.Context, _ int64, key string) (bool, error) {
	for _, e := range c {
		if e.Key == key {
			return true, nil
		}
	}
	return false, nil
}

func (c catalog) Catalog(context.Context, int64) ([]decoders.Entry, error) { return c, nil }

func (catalog) SwitchedOff(context.Context, int64, string) (*decoders.SwitchOff, error) {
	return nil, nil
}

func TestDecoderOptions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		catalog catalog
		current string
		want    []string // option values
		ok      bool
	}{
		{"the catalog after the prompt", catalog{{Key: "elsys", Name: "Elsys"}, {Key: "raw", Name: "Raw"}}, "raw", []string{"", "elsys", "raw"}, true},
		{"a current decoder the catalog lacks stays", catalog{{Key: "raw", Name: "Raw"}}, "acrios_load", []string{"", "raw", "acrios_load"}, true},
		{"the built-in list when the catalog cannot be read", nil, "", []string{"", "raw"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pg := &Pages{decoders: tc.catalog, host: &kernel.Host{Catalogs: &i18n.Catalogs{}}}
			opts, ok := pg.decoderOptions(context.Background(), 1, tc.current)
			var got []string
			for _, o := range opts {
				got = append(got, o.Value)
			}
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestTagFieldsSayWhenDecodersFailed(t *testing.T) {
	t.Parallel()
	pg := &Pages{decoders: catalog(nil), host: &kernel.Host{Catalogs: &i18n.Catalogs{}}}
	opts, ok := pg.decoderOptions(context.Background(), 1, "")
	var b strings.Builder
	if err := tagFields(nil, tagFormData{Decoders: opts, DecodersBad: !ok}, ui.NoErrors).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	// Without a page the texts are their message IDs.
	if !strings.Contains(b.String(), "decoders.fetchFailed") || !strings.Contains(b.String(), `<option value="raw">`) {
		t.Errorf("form: %s", b.String())
	}
}
