// Package ingest is the contract of the ingest module: the routes that
// network servers and devices post uplinks and device events to, and what
// becomes of them.
//
//   - POST /api/ingest/chirpstack?event=up|join|status|ack|txack|log: the
//     HTTP integration of ChirpStack v4 with the JSON encoding (location and
//     integration events are acknowledged and left alone).
//   - POST /api/ingest/tts: a webhook of The Things Stack v3 (uplink
//     messages, join accepts, downlink ack, nack, sent and failed messages;
//     others are acknowledged and left alone).
//   - POST /api/ingest/generic: Fieldhub's own JSON form (README.md,
//     "Generic ingest JSON").
//
// Each route authenticates its caller by an integration token of a company
// (nodes.Service.TokenCompany) sent as "Authorization: Bearer <token>", and
// acts for that company alone: an uplink of a DevEUI that has no tag in it
// (none at all, or another company's) goes to the node pool and is not
// stored. For a node of the company, the payload is decoded with the tag's
// decoder (under its company's sandbox limits; a decoder that fails leaves
// the payload raw and its errors kept), the values are flattened to dotted
// keys and stored as time series (with the radio's rssi and snr), the
// payload, port and radio values are kept as they came under
// decoders.UplinkKey (for decoding again, Redecode), the keys are registered, the
// tag's latest data, time, battery and RSSI are updated, and UplinkReceived
// is published. Uplinks that arrive together are handled together (group
// commit): one lookup of their tags, one transaction for their values, one
// statement for their nodes' states. The route answers 200 once the
// uplink's own values and its node's state are durable, 202 for an uplink that went to the pool, 204 for
// other events, and 4xx, having changed nothing, for a body it cannot read.
//
// With MQTT_URL set, the module also subscribes to ChirpStack v4's MQTT
// integration (application/+/device/+/event/+, QoS 1) in a persistent
// session under MQTT_CLIENT_ID, so that events published while the portal
// is down arrive once it is back. An event acts for the company whose
// application names the topic's ChirpStack application id
// (chirpstackApplicationId); an uplink of an application that none names
// goes to the node pool. An event is acknowledged to the broker only once
// what it reports is durable. On PostgreSQL one instance at a time holds
// the subscription.
//
// The downlink worker, a scheduler job that runs on one instance at a time
// every few seconds and whenever a downlink is queued, hands queued
// downlinks to their application's network server: ChirpStack by
// publishing to application/{id}/device/{devEui}/command/down with the
// downlink's DownlinkRef as the queue item id, The Things Stack by posting
// to the application's downlink push URL with its API key. A downlink the
// network server took is sent; one it refused, or that failed a few times
// with backoff, is failed with the reason. The network servers' ack, txack
// and downlink_* messages, by MQTT or by the routes, then mark it
// acknowledged or failed.
//
// The parsers are pure functions, for the MQTT subscriber as much as for the
// routes.
package ingest

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/core"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Message is one body of a network server or device, normalised: an uplink,
// a join, a device status, a report about a downlink, or a log entry.
type Message = parse.Message

// Uplink is one uplink of a node: DevEUI (lower case), time, port, frame
// counter, payload, radio metadata of the best gateway, and the network
// server's decoded object when it has one.
type Uplink = parse.Uplink

// Status, Downlink and Log are what the other messages carry.
type (
	Status   = parse.Status
	Downlink = parse.Downlink
	Log      = parse.Log
)

// Kind is what a message reports.
type Kind = parse.Kind

// The kinds of message.
const (
	KindUplink         = parse.KindUplink
	KindJoin           = parse.KindJoin
	KindStatus         = parse.KindStatus
	KindDownlinkSent   = parse.KindDownlinkSent
	KindDownlinkAck    = parse.KindDownlinkAck
	KindDownlinkFailed = parse.KindDownlinkFailed
	KindLog            = parse.KindLog
	KindOther          = parse.KindOther
)

// UplinkReceived is published after an uplink's values are stored and its
// node's state updated. Its DevEUI is lower case, as the time series name
// it; Data holds the stored values by key (float64, or string for texts).
type UplinkReceived = core.UplinkReceived

// DeviceEvent is published for what the ingest learns about a device beside
// the values of its uplinks, for the log: a join of a node, a device status,
// a network server's log message, what became of a downlink (handed to the
// network server, transmitted, acknowledged, failed), a decoder that failed
// or warned, a DevEUI heard without a node that went to the node pool (the
// last two at most once per DevEUI every 15 minutes). Events about a device
// name only nodes of the company the message acted for, or a DevEUI that
// company's own network server sent. Publishing one never holds up the
// message it is about: subscribers must not block.
type DeviceEvent = core.DeviceEvent

// Level is how much a DeviceEvent matters.
type Level = core.Level

// The levels of a DeviceEvent.
const (
	LevelInfo    = core.LevelInfo
	LevelWarning = core.LevelWarning
	LevelError   = core.LevelError
)

// The kinds of DeviceEvent.
const (
	EventJoin     = core.EventJoin
	EventStatus   = core.EventStatus
	EventLog      = core.EventLog
	EventDownlink = core.EventDownlink
	EventDecoder  = core.EventDecoder
	EventPool     = core.EventPool
)

// Limits of one message.
const (
	MaxBody    = core.MaxBody     // bytes of a request body
	MaxPayload = parse.MaxPayload // bytes of a payload
	MaxValues  = parse.MaxValues  // values of an uplink, once flattened
	MaxDepth   = parse.MaxDepth   // nesting of the values
	MaxFuture  = parse.MaxFuture  // how far ahead of the clock a message's time may be
)

// ParseChirpStack parses a ChirpStack v4 event in its JSON encoding; event
// is the event type (up, join, status, ack, txack, log, location,
// integration). now is the time of arrival, used when the event names no
// time. A body it cannot read is an errs.Invalid error naming the field.
func ParseChirpStack(event string, body []byte, now time.Time) (Message, error) {
	return parse.ChirpStack(event, body, now)
}

// ParseTTS parses a webhook message of The Things Stack v3.
func ParseTTS(body []byte, now time.Time) (Message, error) { return parse.TTS(body, now) }

// ParseGeneric parses Fieldhub's generic ingest JSON.
func ParseGeneric(body []byte, now time.Time) (Message, error) { return parse.Generic(body, now) }

// Flatten turns decoded values into the flat map that is stored: nested
// objects and arrays become dotted keys ("position.lat", "bytes.0"), numbers
// float64, booleans 0 and 1, strings text; nulls are left out; keys keep
// letters, digits, '.', '-' and '_' (others become '_') and at most 64
// characters.
func Flatten(values map[string]any) (map[string]any, error) { return parse.Flatten(values) }

// DownlinkRef is the identifier the downlink worker gives a downlink at the
// network server, as ChirpStack's queue item id (a UUID) and as a
// correlation id of The Things Stack, so that the network server's ack,
// txack and downlink messages name the downlink they are about.
func DownlinkRef(downlinkID int64) string { return core.DownlinkRef(downlinkID) }

// ParseDownlinkRef returns the downlink id of a DownlinkRef.
func ParseDownlinkRef(ref string) (int64, bool) { return core.ParseDownlinkRef(ref) }

// Nodes is the part of nodes.Service that the ingest uses: the routes and
// the MQTT subscriber find tags and keep the nodes' state (in batches), the
// downlink worker reads the queue and records what became of each downlink.
type Nodes interface {
	Tag(ctx context.Context, id int64) (*nodes.Tag, error)
	TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error)
	TagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*nodes.Tag, error)
	CachedTagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*nodes.Tag, error)
	AddToPool(ctx context.Context, deveui, source string) error
	EnsureKeys(ctx context.Context, tagID int64, keys []string) error
	EnsureKeysOfTags(ctx context.Context, keys map[int64][]string) error
	UpdateStates(ctx context.Context, states []nodes.TagState) error
	TokenCompany(ctx context.Context, token string) (int64, error)
	Downlink(ctx context.Context, id int64) (*nodes.Downlink, error)
	SetDownlinkStatus(ctx context.Context, id int64, status, detail string) error
	Application(ctx context.Context, id int64) (*nodes.Application, error)
	ApplicationsByChirpStackID(ctx context.Context, chirpstackID string) ([]nodes.Application, error)
	TTSAPIKey(ctx context.Context, applicationID int64) (string, error)
	Queued(ctx context.Context, limit int, networkServers ...string) ([]nodes.Downlink, error)
	RecordDownlinkAttempt(ctx context.Context, id int64, a nodes.DownlinkAttempt) error
}

// Decoders is the part of decoders.Service that the ingest uses.
type Decoders interface {
	Decode(ctx context.Context, key string, in decoders.Input) (decoders.Output, error)
}

// Deps is what the ingest module needs. All are required.
type Deps struct {
	// Nodes finds tags, authenticates tokens and keeps the nodes' state;
	// the nodes module satisfies it.
	Nodes Nodes
	// Decoders decodes payloads; the decoders module satisfies it.
	Decoders Decoders
	// TSDB stores the values; main.go opens it.
	TSDB tsdb.Store
}

// Module is the ingest module as the kernel and main.go see it. Start
// begins the downlink worker and, with MQTT_URL, the MQTT subscriber; both
// end with Start's context, and Stop waits for the MQTT connections to
// close.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	// Redecode decodes kept uplinks again for the decoders module's
	// re-decode job; see decoders.Uplinks.
	Redecode(ctx context.Context, company, tagID int64, from, to time.Time, limit int) (decoders.RedecodeBatch, error)
}

// New builds the module. It panics when a dependency is missing, so that a
// wiring mistake in main.go stops the program at start.
func New(host *kernel.Host, deps Deps) Module {
	if deps.Nodes == nil || deps.Decoders == nil || deps.TSDB == nil {
		panic("ingest.New: Deps.Nodes, Deps.Decoders and Deps.TSDB are required")
	}
	return core.New(host, core.Deps{Nodes: deps.Nodes, Decoders: deps.Decoders, TSDB: deps.TSDB})
}
