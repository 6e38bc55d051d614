// Package ingest is the contract of the ingest module: the routes that
// network servers and devices post uplinks and device events to, what
// becomes of them, and decoding the uplinks kept again.
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
// (Tokens) sent as "Authorization: Bearer <token>", and acts for that
// company alone: an uplink of a DevEUI that has no tag in it (none at all,
// or another company's) goes to the node pool and is not stored. For a node
// of the company, the payload is decoded with the tag's decoder (under its
// company's sandbox limits; a decoder that fails leaves the payload raw and
// its errors kept), the values are flattened to dotted keys (Flatten) and
// stored as time series (with the radio's rssi and snr), the payload, port
// and radio values are kept as they came under UplinkKey (for decoding
// again), the keys are registered, the tag's latest data, time, battery and
// RSSI are updated, and UplinkReceived is published. Uplinks that arrive
// together are handled together (group commit): one lookup of their tags,
// one transaction for their values, one statement for their nodes' states.
// The route answers 200 once the uplink's own values and its node's state
// are durable, 202 for an uplink that went to the pool, 204 for other
// events, and 4xx, having changed nothing, for a body it cannot read.
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
// Re-decoding: a job (RedecodeJob, a row of redecode_jobs) decodes the kept
// uplinks of a company's nodes that use a decoder, or of one of them, in a
// time window, again with each node's current decoder, and the values
// replace the stored ones. The routes are GET and POST
// /api/companies/{companyId}/redecode, GET /api/redecode/{jobId} and POST
// /api/redecode/{jobId}/cancel; with the UI, the decoder page shows a
// re-decode section (a decoders.PageSection) with its form and the
// decoder's jobs.
//
// Package module builds the module.
package ingest

import (
	"context"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Module is the ingest module as the kernel and the application see it.
// Start begins the group committers, the downlink worker, the re-decode
// job and, with MQTT_URL, the MQTT subscriber; they end with Start's
// context, and Stop waits for the MQTT connections to close.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
}

// Tags finds the tags that messages name: the batches look up the tags of
// their uplinks (CachedTagsByDevEUI, kept in memory by the nodes module)
// and of their device statuses (TagsByDevEUI, which reads the latest data
// too), a join or a report looks up one DevEUI, and re-decoding loads the
// tag of a job's node. An unknown id or DevEUI is an errs.NotFound error.
type Tags interface {
	Tag(ctx context.Context, id int64) (*nodes.Tag, error)
	TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error)
	TagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*nodes.Tag, error)
	CachedTagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*nodes.Tag, error)
}

// NodeData records what uplinks bring to their nodes: the keys a tag does
// not have yet (for a batch of tags at once, or one tag) and the nodes'
// states.
type NodeData interface {
	EnsureKeys(ctx context.Context, tagID int64, keys []string) error
	EnsureKeysOfTags(ctx context.Context, keys map[int64][]string) error
	UpdateStates(ctx context.Context, states []nodes.TagState) error
}

// Pool takes the DevEUIs heard without a tag of the company that sent
// them.
type Pool interface {
	AddToPool(ctx context.Context, deveui, source string) error
}

// Tokens tells the company of an integration token; an unknown one is the
// nodes module's 401.
type Tokens interface {
	TokenCompany(ctx context.Context, token string) (int64, error)
}

// ChirpStackApplications finds the applications that name a ChirpStack
// application id, for the MQTT subscriber's events.
type ChirpStackApplications interface {
	ApplicationsByChirpStackID(ctx context.Context, chirpstackID string) ([]nodes.Application, error)
}

// DownlinkReports records what a network server reports about a downlink
// the worker handed over.
type DownlinkReports interface {
	Downlink(ctx context.Context, id int64) (*nodes.Downlink, error)
	SetDownlinkStatus(ctx context.Context, id int64, status, detail string) error
}

// DownlinkQueue is what the downlink worker reads and records: the queued
// downlinks due, their applications (with The Things Stack's API key), and
// each try's outcome.
type DownlinkQueue interface {
	Queued(ctx context.Context, limit int, networkServers ...string) ([]nodes.Downlink, error)
	Application(ctx context.Context, id int64) (*nodes.Application, error)
	TTSAPIKey(ctx context.Context, applicationID int64) (string, error)
	RecordDownlinkAttempt(ctx context.Context, id int64, a nodes.DownlinkAttempt) error
}

// DecoderUsers tells which nodes of a company use a decoder: the nodes a
// re-decode job covers, and the choice of the re-decode form.
type DecoderUsers interface {
	DecoderNodes(ctx context.Context, companyID int64, key string) ([]decoders.NodeRef, error)
}

// Nodes is the nodes module as the ingest uses it: each part of the
// module takes the roles above that it calls. The nodes module satisfies
// it.
type Nodes interface {
	Tags
	NodeData
	Pool
	Tokens
	ChirpStackApplications
	DownlinkReports
	DownlinkQueue
	DecoderUsers
}

// Decoding decodes a payload with a tag's decoder; see
// decoders.Service.Decode.
type Decoding interface {
	Decode(ctx context.Context, key string, in decoders.Input) (decoders.Output, error)
}

// DecoderKeys tells whether a company may name a decoder key, for the
// decoder of a re-decode job.
type DecoderKeys interface {
	Has(ctx context.Context, company int64, key string) (bool, error)
}

// Decoders is the decoders module as the ingest uses it. The decoders
// module satisfies it.
type Decoders interface {
	Decoding
	DecoderKeys
}

// DecoderPages is what the re-decode section asks of the decoder pages:
// a place on them, the decoder a page names, and the whole page around a
// refused form. The decoders module satisfies it.
type DecoderPages interface {
	RegisterPageSection(s decoders.PageSection)
	PageDecoder(r *http.Request) (*decoders.Decoder, error)
	DecoderPage(r *http.Request, d *decoders.Decoder, s decoders.PageSection) (func(section templ.Component) templ.Component, error)
}

// Companies tells whether a company exists, for the company of the
// re-decode routes (an unknown one is an errs.NotFound error). The
// accounts module satisfies it.
type Companies interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}
