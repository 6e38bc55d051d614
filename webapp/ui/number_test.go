package ui

import (
	"context"
	"math"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/web"
)

func TestQuantityFollowsThePageLanguage(t *testing.T) {
	for _, c := range []struct {
		lang     string
		v        float64
		decimals int
		unit     string
		want     string
	}{
		{"sv", 3.6, 2, "V", "3,6\u00a0V"},
		{"en", 3.6, 2, "V", "3.6\u00a0V"},
		{"sv", 3.027, 2, "V", "3,03\u00a0V"},
		{"en", 87.4, 0, "%", "87\u00a0%"},
		{"sv", 3600, 0, "mV", "3\u00a0600\u00a0mV"},
		{"en", 3600, 0, "mV", "3,600\u00a0mV"},
		{"en", math.NaN(), 2, "V", ""},
	} {
		ctx := context.WithValue(context.Background(), pageKey{}, &pageState{viewer: &web.Viewer{Lang: c.lang}})
		if got := Quantity(ctx, c.v, c.decimals, c.unit); got != c.want {
			t.Errorf("%s %v %s = %q, want %q", c.lang, c.v, c.unit, got, c.want)
		}
	}
}
