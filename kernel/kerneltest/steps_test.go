package kerneltest

import (
	"reflect"
	"testing"
)

func TestEntry(t *testing.T) {
	answer := map[string]any{"position.lat": 1.0, "position": map[string]any{"lat": 2.0}, "series": []any{map[string]any{"v": 3.0}}}
	for key, want := range map[string]any{"position.lat": 1.0, "series.0.v": 3.0, "series.1.v": nil, "position.lng": nil, "": answer} {
		if got := entry(answer, key); !reflect.DeepEqual(got, want) {
			t.Errorf("entry(%q) = %v, want %v", key, got, want)
		}
	}
	if got := At([]any{"a", "b"}, "1"); got != "b" {
		t.Errorf("At of a list: %v", got)
	}
}
