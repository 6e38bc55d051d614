package feed

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/fieldhub/fieldhub/modules/events"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// installation is the hub's key for the connections of SuperAdmins who have
// chosen no company: they receive the log entries that belong to no
// company, and no uplink.
const installation = -1

// eventOf turns an uplink into the event the feed shows.
func eventOf(u ingest.UplinkReceived) events.Event {
	data := u.Data
	if data == nil {
		data = map[string]any{}
	}
	return events.Event{
		ID:   uuid.Must(uuid.NewV7()).String(),
		Date: u.Time.UTC(),
		Tag:  events.Tag{Name: u.Name, DevEUI: strings.ToUpper(u.DevEUI)},
		Data: data,
	}
}

// encodeEvent returns an event's JSON, encoded once for every connection
// and instance.
func encodeEvent(e events.Event) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode event of %s: %w", e.Tag.DevEUI, err)
	}
	return b, nil
}

// encodeEntry returns a log entry's JSON, as GET /api/logs lists it.
func encodeEntry(e logs.Entry) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode log entry %d: %w", e.ID, err)
	}
	return b, nil
}

// frameEntry wraps an encoded log entry into the message the clients
// receive.
func frameEntry(entry []byte) []byte {
	const head = `{"type":"` + events.MessageLogEntry + `","entry":`
	out := make([]byte, 0, len(head)+len(entry)+1)
	out = append(out, head...)
	out = append(out, entry...)
	return append(out, '}')
}

// frame wraps an encoded event into the message the clients receive.
func frame(event []byte) []byte {
	const head = `{"type":"` + events.MessageBroadcastEvent + `","event":`
	out := make([]byte, 0, len(head)+len(event)+1)
	out = append(out, head...)
	out = append(out, event...)
	return append(out, '}')
}
