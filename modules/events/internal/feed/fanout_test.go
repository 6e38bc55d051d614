package feed

import (
	"encoding/json"
	"testing"

	"github.com/fieldhub/fieldhub/modules/events"
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

// TestInlineNotificationsReadAsEnvelopes: a notification written without
// json.Marshal decodes to the envelope it stands for, and its instance knows
// it as its own.
func TestInlineNotificationsReadAsEnvelopes(t *testing.T) {
	f := &pgFanout{origin: "abc123-_X"}
	cases := []outgoing{
		{company: 7, event: []byte(`{"id":"1","tag":{"name":"Door <1> & \"2\"","deveui":"70B3D57ED005A1B2"},"data":{"t":21.5}}`)},
		{company: installation, kind: events.MessageLogEntry, event: []byte(`{"type":"join","message":"ünïcode ✓"}`)},
		{company: 1 << 60, kind: `odd "kind"`, event: []byte(`[1,2]`)},
	}
	for _, o := range cases {
		payload := f.inline(o)
		var got envelope
		if err := json.Unmarshal([]byte(payload), &got); err != nil {
			t.Fatalf("%s: %v", payload, err)
		}
		want := envelope{Origin: f.origin, Company: o.company, Kind: o.kind, Event: o.event}
		if got.Origin != want.Origin || got.Company != want.Company || got.Kind != want.Kind || string(got.Event) != string(want.Event) || got.Row != 0 {
			t.Errorf("%s decodes to %+v, want %+v", payload, got, want)
		}
		if !f.fromHere(payload) {
			t.Errorf("%s is not known as this instance's own", payload)
		}
	}
}
