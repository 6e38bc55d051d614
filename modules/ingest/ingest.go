// Package ingest is the contract of the ingest module: what becomes of the
// messages about devices that network servers and devices send, and
// decoding the uplinks kept again.
//
// The network servers' adapters (the netservers module: the routes
// /api/ingest/..., the ChirpStack MQTT subscriber) read what they receive
// into a Message and hand it to Service.Process for the company it acts
// for. An uplink of a DevEUI that has no tag in that company (none at all,
// or another company's) goes to the node pool and is not stored. For a node
// of the company, the payload is decoded with the tag's decoder (under its
// company's sandbox limits and decode budget; a decoder that fails, or that
// was switched off for failing again and again, leaves the payload raw and
// its errors kept), the values are flattened to dotted keys (Flatten) and
// stored as time series (with the radio's rssi and snr), the payload, port
// and radio values are kept as they came under UplinkKey (for decoding
// again), the keys are registered, the tag's latest data, time, battery and
// RSSI are updated, and UplinkReceived is published. Uplinks that arrive
// together are handled together (group commit): one lookup of their tags,
// then each is decoded on its own, within its company's decode budget, and
// the decoded ones share one transaction for their values and one statement
// for their nodes' states, so that no company's codec holds up another's
// uplinks.
// Process returns once the uplink's own values and its node's state are
// durable. Joins, device statuses and the network servers' log messages are
// recorded and told to the log as DeviceEvent.
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

// Service takes the messages about devices that the network servers'
// adapters receive.
type Service interface {
	// Process does what msg reports, for company (0: none, for a
	// ChirpStack MQTT event of an application that no application names:
	// its uplinks and joins only put the DevEUI in the node pool). It
	// returns once what the message reports is durable, with the result
	// of an uplink, nil for other messages. An errs.Invalid error is one
	// that no retry mends (values the time series refuses); other errors
	// may pass.
	Process(ctx context.Context, company int64, msg Message) (*UplinkResult, error)
}

// Module is the ingest module as the kernel and the application see it.
// Start begins the group committers and the re-decode job; they end with
// Start's context, and Stop lets the committers finish the batch they are
// handling.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Service
	Values
	Recorders
}

// Tags finds the tags that messages name: the batches look up the tags of
// their uplinks and of the values written to nodes (CachedTags, kept in
// memory by the nodes module) and of their device statuses (TagsByDevEUI,
// which reads the latest data too), a join, a device status or a log
// message looks up one DevEUI, and re-decoding loads the tag of a job's
// node. An unknown id or DevEUI is an errs.NotFound error.
type Tags interface {
	Tag(ctx context.Context, id int64) (*nodes.Tag, error)
	TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error)
	TagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*nodes.Tag, error)
	CachedTags(ctx context.Context, deveuis []string, ids []int64) (map[string]*nodes.Tag, map[int64]*nodes.Tag, error)
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

// StoredUplink is an uplink a batch stored, as a Recorder sees it: the
// event that will announce it, the application of its node, and its
// payload and port as they came (nil and 0 for a generic body with values
// alone).
type StoredUplink struct {
	UplinkReceived
	ApplicationID int64
	Payload       []byte
	FPort         int
}

// Recorder keeps durable what must follow from stored uplinks (the
// forwarding module's queue). A batch calls each registered Recorder with
// the uplinks whose values it stored, after their points' commit and
// before it answers their requests or announces them (UplinkReceived): an
// uplink whose request was answered is recorded, and one whose Recorder
// failed is answered with the error, so that its sender sends it again
// (the time series replaces a point at the same time, so the values stay
// as they were). RecordUplinks must be quick, and cheap for uplinks it has
// nothing to do with: it is on every batch's path.
type Recorder interface {
	RecordUplinks(ctx context.Context, uplinks []StoredUplink) error
}

// Recorders is where the modules that keep something with each stored
// uplink register their Recorder, when they are built (before the
// kernel starts).
type Recorders interface {
	RegisterRecorder(r Recorder)
}
