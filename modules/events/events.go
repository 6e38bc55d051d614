// Package events is the contract of the events module: the live event
// feed, a WebSocket at GET /api/events that pushes every uplink of the
// caller's company as it is stored, and every log entry of that company as
// it is written (the live log list).
//
// The route is open to CompanyOrUser roles. Browsers authenticate with the
// session cookie (a WebSocket cannot carry an Authorization header); other
// clients send "Authorization: Bearer <token>" or, where they cannot set
// headers either, ?token=<access token>. A caller only ever receives events
// of one company: their own, or for a SuperAdmin the company given as
// ?companyId= or else the one chosen in the company switcher (the
// fieldhub_company cookie), else the installation: a SuperAdmin who has
// chosen no company receives the log entries that belong to no company and
// every company's audit trail. The audit trail (USEREVENT entries) goes
// only to a company's CompanyAdmins and Admins, never its Users. A request
// without a WebSocket upgrade is refused with 400.
//
// Each event is one text message:
//
//	{"type":"BroadcastEvent","event":{"id":"…","date":"2024-05-01T12:00:00Z",
//	 "tag":{"name":"Cellar","deveui":"70B3D57ED0000001"},"data":{"temperature":21.5}}}
//
// Each log entry is one text message, the entry as GET /api/logs lists it:
//
//	{"type":"LogEntry","entry":{"id":42,"companyId":7,"userId":null,
//	 "type":"APP","message":"The device joined the network",
//	 "messageId":"logs.entry.join","deveui":"70B3D57ED0000001",
//	 "data":{"kind":"join","source":"chirpstack"},"createdAt":"2024-05-01T12:00:00Z"}}
//
// Other modules send messages to chosen users through the kernel's
// events.ToUsers, which the feed pushes to every connection of those users
// as they are; the notifications module's tells that the user's
// notifications changed:
//
//	{"type":"Notification"}
//
// A connection opened with ?only=user receives only the messages to its
// user, not the company's uplinks and log entries: the notification bell
// of every page opens one.
//
// The server sends nothing else; it pings every 30 seconds, and closes the
// connection when the access token that opened it lapses (close code 4001:
// renew the session, then reconnect), when the client falls too far behind
// (1013: reconnect), and at shutdown (1001). A connection over the caps of
// the module's Config (connections per user, per company) is closed as
// soon as it opens, with 4029: close another first, or try again later.
// Events that happen while a client is not connected are not replayed.
//
// Several instances share events through the database: on PostgreSQL by
// LISTEN/NOTIFY, on SQLite (a single instance) in process. The same
// fan-out hands other modules every stored uplink of every instance
// (Uplinks), which the partner API's Watch streams. Package module builds
// the module; the feed lives in internal/feed.
package events

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// Route is the feed's path.
const Route = "/api/events"

// MessageBroadcastEvent is the type of the message that carries an Event.
const MessageBroadcastEvent = "BroadcastEvent"

// MessageLogEntry is the type of the message that carries a log entry.
const MessageLogEntry = "LogEntry"

// Close codes the feed ends a connection with, beside the standard ones.
const (
	// CloseSessionExpired: the access token lapsed; renew it and reconnect.
	CloseSessionExpired = 4001
	// CloseTooMany: the user, or the users of their company together,
	// hold as many connections as they may (Config); close one, or try
	// again later.
	CloseTooMany = 4029
)

// IDOnlyInvalid is the message of a request with an ?only= other than
// "user".
const IDOnlyInvalid = "events.only.invalid"

// IDWebSocketOnly is the message of a request to the feed without a
// WebSocket upgrade (a key of the locale catalogs).
const IDWebSocketOnly = "events.websocketOnly"

// Tag names the node of an Event.
type Tag struct {
	Name string `json:"name"`
	// DevEUI is upper case, as GET /api/tag spells it.
	DevEUI string `json:"deveui"`
}

// Event is what the feed pushes about one uplink: an id, the time, the
// node and the uplink's values.
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

// Uplinks hands subscribers the stored uplinks of every instance: this
// instance's as the ingest announces them (ingest.UplinkReceived on the
// bus), the other instances' as the fan-out receives them, with the same
// fields (company, node, time, values, fCnt, spreading factor, receptions,
// source). Nothing is replayed: an uplink stored while an instance's
// listener is reconnecting, or that the fan-out could not queue, is missed.
type Uplinks interface {
	// SubscribeUplinks calls fn with every uplink of company until cancel
	// is called. fn runs on the module's own goroutines, possibly two at
	// once (this instance's uplinks and the others'), and must not wait
	// (hand the uplink on through a buffered channel, or drop it) nor call
	// cancel itself.
	SubscribeUplinks(company int64, fn func(ingest.UplinkReceived)) (cancel func())
}

// Module is the events module as the kernel and the application see it.
// Start connects the fan-out between instances; Stop closes every
// connection.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Uplinks
}
