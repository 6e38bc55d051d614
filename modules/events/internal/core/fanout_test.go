package core

import (
	"encoding/json"
	"testing"
)

func TestFanoutKnowsItsOwnNotifications(t *testing.T) {
	f := &pgFanout{origin: "abc123-_X"}
	own, _ := json.Marshal(envelope{Origin: f.origin, Company: 7, Event: json.RawMessage(`{"a":1}`)})
	other, _ := json.Marshal(envelope{Origin: "zzz", Company: 7, Event: json.RawMessage(`{"a":1}`)})
	longer, _ := json.Marshal(envelope{Origin: f.origin + "more", Company: 7})
	cases := []struct {
		payload string
		want    bool
	}{
		{string(own), true},
		{string(other), false},
		{string(longer), false},
		{`{"o" : "abc123-_X", "c" : 7, "t" : "", "r" : 5}`, false}, // a large event's row: decoded, then dropped by origin
	}
	for _, tc := range cases {
		if got := f.fromHere(tc.payload); got != tc.want {
			t.Errorf("fromHere(%s) = %v, want %v", tc.payload, got, tc.want)
		}
	}
}
