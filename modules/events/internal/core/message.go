package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// MessageBroadcastEvent is the type of the message that carries an Event.
const MessageBroadcastEvent = "BroadcastEvent"

// MessageLogEntry is the type of the message that carries a log entry.
const MessageLogEntry = "LogEntry"

// installation is the hub's key for the connections of SuperAdmins who have
// chosen no company: they receive the log entries that belong to no
// company, and no uplink.
const installation = -1

// CloseSessionExpired is the close code sent when the access token that
// opened a connection lapses: the client renews its session and reconnects.
const CloseSessionExpired = 4001

// Tag names the node of an Event.
type Tag struct {
	Name string `json:"name"`
	// DevEUI is upper case, as GET /api/tag spells it.
	DevEUI string `json:"deveui"`
}

// Event is what the feed pushes about one uplink (SPEC.md section 3,
// "Event": id, date, tag, data).
type Event struct {
	// ID is unique across instances and sorts by creation (a UUIDv7).
	ID string `json:"id"`
	// Date is when the network server received the uplink.
	Date time.Time      `json:"date"`
	Tag  Tag            `json:"tag"`
	Data map[string]any `json:"data"`
}

// Envelope is one message of the feed: Event for a BroadcastEvent, Entry
// for a LogEntry.
type Envelope struct {
	Type  string      `json:"type"`
	Event *Event      `json:"event,omitempty"`
	Entry *logs.Entry `json:"entry,omitempty"`
}

// eventOf turns an uplink into the event the feed shows.
func eventOf(u ingest.UplinkReceived) Event {
	data := u.Data
	if data == nil {
		data = map[string]any{}
	}
	return Event{
		ID:   uuid.Must(uuid.NewV7()).String(),
		Date: u.Time.UTC(),
		Tag:  Tag{Name: u.Name, DevEUI: strings.ToUpper(u.DevEUI)},
		Data: data,
	}
}

// encodeEvent returns an event's JSON, encoded once for every connection
// and instance.
func encodeEvent(e Event) ([]byte, error) {
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
	const head = `{"type":"` + MessageLogEntry + `","entry":`
	out := make([]byte, 0, len(head)+len(entry)+1)
	out = append(out, head...)
	out = append(out, entry...)
	return append(out, '}')
}

// frame wraps an encoded event into the message the clients receive.
func frame(event []byte) []byte {
	const head = `{"type":"` + MessageBroadcastEvent + `","event":`
	out := make([]byte, 0, len(head)+len(event)+1)
	out = append(out, head...)
	out = append(out, event...)
	return append(out, '}')
}
