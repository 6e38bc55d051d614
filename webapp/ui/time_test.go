package ui

import (
	"context"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/web"
)

func TestTimesShowInTheViewersZoneWithItsName(t *testing.T) {
	sthlm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	at := func(loc *time.Location) context.Context {
		return context.WithValue(context.Background(), pageKey{}, &pageState{viewer: &web.Viewer{Location: loc}})
	}
	winter := time.Date(2026, 11, 27, 5, 27, 29, 0, time.UTC)
	summer := time.Date(2026, 7, 1, 22, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"winter in Stockholm", DateTime(at(sthlm), winter), "2026-11-27 06:27:29 CET"},
		{"summer in Stockholm", DateTimeMinutes(at(sthlm), summer), "2026-07-02 00:30 CEST"},
		{"the local date", Date(at(sthlm), summer), "2026-07-02"},
		{"no zone is UTC", DateTime(at(nil), winter), "2026-11-27 05:27:29 UTC"},
		{"outside a page is UTC", DateTime(context.Background(), winter), "2026-11-27 05:27:29 UTC"},
		{"machine time in UTC", ISOTime(winter.In(sthlm)), "2026-11-27T05:27:29Z"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
