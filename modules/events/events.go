// Package events is the contract of the events module: the live event feed
// of SPEC.md section 7 ("Real-time feed"), a WebSocket at GET /api/events
// that pushes every uplink of the caller's company as it is stored, and
// every log entry of that company as it is written (the live log list).
//
// The route is open to CompanyOrUser roles. Browsers authenticate with the
// session cookie (a WebSocket cannot carry an Authorization header); other
// clients send "Authorization: Bearer <token>" or, where they cannot set
// headers either, ?token=<access token>. A caller only ever receives events
// of one company: their own, or for a SuperAdmin the company given as
// ?companyId= or else the one chosen in the company switcher (the
// fieldhub_company cookie), else the installation: a SuperAdmin who has
// chosen no company receives the log entries that belong to no company. A
// request without a WebSocket upgrade is refused with 400.
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
// The server sends nothing else; it pings every 30 seconds, and closes the
// connection when the access token that opened it lapses (close code 4001:
// renew the session, then reconnect), when the client falls too far behind
// (1013: reconnect), and at shutdown (1001). Events that happen while a
// client is not connected are not replayed.
//
// Several instances share events through the database: on PostgreSQL by
// LISTEN/NOTIFY, on SQLite (a single instance) in process.
package events

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/events/internal/core"
)

// Event is what the feed pushes about one uplink.
type Event = core.Event

// Tag names the node of an Event.
type Tag = core.Tag

// Envelope is one message of the feed.
type Envelope = core.Envelope

// MessageBroadcastEvent is the type of the message that carries an Event.
const MessageBroadcastEvent = core.MessageBroadcastEvent

// MessageLogEntry is the type of the message that carries a log entry.
const MessageLogEntry = core.MessageLogEntry

// Close codes the feed ends a connection with, beside the standard ones.
const (
	// CloseSessionExpired: the access token lapsed; renew it and reconnect.
	CloseSessionExpired = core.CloseSessionExpired
)

// Deps tunes the module; the zero value is what production uses.
type Deps struct {
	// QueueSize is how many messages may wait for one connection before it
	// is dropped as too slow (default 256).
	QueueSize int
	// PingInterval is how often the server pings each connection
	// (default 30 s).
	PingInterval time.Duration
}

// Module is the events module as the kernel and main.go see it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
}

// New builds the module. It subscribes to ingest.UplinkReceived and
// logs.EntryWritten on the host's bus.
func New(host *kernel.Host, deps Deps) Module {
	return core.New(host, core.Options{QueueSize: deps.QueueSize, PingInterval: deps.PingInterval})
}
