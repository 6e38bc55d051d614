package audit

import (
	"context"
	"fmt"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/events"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		before, after map[string]any
		wantB, wantA  string
	}{
		{"only what changed", map[string]any{"a": "x", "b": 1}, map[string]any{"a": "y", "b": 1}, "map[a:x]", "map[a:y]"},
		{"a key gone", map[string]any{"a": "x"}, map[string]any{}, "map[a:x]", "map[a:<nil>]"},
		{"a key new", map[string]any{}, map[string]any{"a": "x"}, "map[a:<nil>]", "map[a:x]"},
		{"nothing", map[string]any{"a": 1}, map[string]any{"a": 1}, "map[]", "map[]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, a := Diff(tc.before, tc.after)
			if fmt.Sprint(b) != tc.wantB || fmt.Sprint(a) != tc.wantA {
				t.Errorf("got %v %v", b, a)
			}
		})
	}
}

func TestMask(t *testing.T) {
	t.Parallel()
	b, a := map[string]any{"key": "", "name": "n"}, map[string]any{"key": "secret", "name": "m"}
	Mask([]string{"key"}, b, a)
	if b["key"] != "" || a["key"] != Masked || a["name"] != "m" {
		t.Errorf("%v %v", b, a)
	}
}

// recorder is a bus that keeps what is published.
type recorder struct{ got []events.Event }

func (r *recorder) Publish(_ context.Context, e events.Event)       { r.got = append(r.got, e) }
func (r *recorder) Subscribe(string, events.Handler)                {}
func (r *recorder) SubscribeBatch(string, int, events.BatchHandler) {}

func TestAnnounce(t *testing.T) {
	t.Parallel()
	bus := &recorder{}
	Announce(context.Background(), bus, Change{MessageID: "x"})
	if len(bus.got) != 0 {
		t.Fatalf("a change without a person was announced: %v", bus.got)
	}
	ctx := auth.WithCaller(context.Background(), auth.Caller{UserID: 7, Role: auth.CompanyAdmin, CompanyID: 3})
	Announce(ctx, bus, Change{CompanyID: 3, MessageID: "x"})
	c, ok := bus.got[0].(Change)
	if !ok || c.UserID != 7 || c.At.IsZero() || c.Args == nil {
		t.Errorf("%+v", bus.got)
	}
}
