package decoders_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

func TestDecoderList(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		k := kerneltest.New(t, kerneltest.Config(t, d, nil))
		acc := accounts.New(k.Host(), accounts.Deps{})
		k.Add(acc)
		k.Add(decoders.New(k.Host(), decoders.Deps{}))
		c := kerneltest.NewClient(kerneltest.Serve(t, k))
		if err := acc.CreateSuperAdmin(context.Background(), "super@fieldhub.test", "secret123"); err != nil {
			t.Fatal(err)
		}
		token := c.Login(t, "super@fieldhub.test", "secret123")
		r := c.Call(t, "GET", "/api/decoder", token, nil)
		want := []any{map[string]any{"key": "", "name": ""}, map[string]any{"key": "raw", "name": "Raw payload (hex)"}}
		if r.Status != http.StatusOK || !reflect.DeepEqual(r.JSON, want) {
			t.Errorf("GET /api/decoder: %d %s", r.Status, r.Body)
		}
		if r := c.Call(t, "GET", "/api/decoder", "", nil); r.Status != http.StatusUnauthorized {
			t.Errorf("a visitor: %d %s", r.Status, r.Body)
		}
	})
}

func TestDecode(t *testing.T) {
	t.Parallel()
	k := kerneltest.New(t, kerneltest.Config(t, db.SQLite, nil))
	m := decoders.New(k.Host(), decoders.Deps{})
	ctx := context.Background()
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		in   []byte
		want map[string]any
	}{
		{"two bytes", []byte{0xAA, 0x01}, map[string]any{"raw": "aa01", "length": 2}},
		{"one byte", []byte{0}, map[string]any{"raw": "00", "length": 1}},
		{"empty", nil, map[string]any{"length": 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := m.Decode(ctx, decoders.Raw, decoders.Input{FPort: 1, Bytes: tc.in, RecvTime: at})
			if err != nil || !reflect.DeepEqual(out.Data, tc.want) || out.Warnings != nil || out.Errors != nil {
				t.Errorf("Decode = %+v, %v; want %v", out, err, tc.want)
			}
		})
	}
	var e *errs.Error
	if _, err := m.Decode(ctx, "elsys", decoders.Input{Bytes: []byte{1}}); !errors.As(err, &e) || e.Kind != errs.NotFound || e.ID != decoders.IDUnknown {
		t.Errorf("unknown decoder: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Decode(cancelled, decoders.Raw, decoders.Input{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if !m.Has("raw") || m.Has("") || m.Has("RAW") {
		t.Error("Has")
	}
	if got := m.Catalog(); !reflect.DeepEqual(got, []decoders.Entry{{Key: "raw", Name: "Raw payload (hex)"}}) {
		t.Errorf("Catalog = %v", got)
	}
}
