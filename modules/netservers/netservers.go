// Package netservers is the contract of the netservers module, the
// portal's link to the network servers: it takes what they (and devices
// that post directly) send about devices and hands it to the ingest, and it
// holds the downlink queue and hands queued downlinks to them. Each kind of
// network server an application names (nodes.NetworkChirpStack,
// nodes.NetworkTTS, nodes.NetworkGeneric) has its adapter here.
//
// Inbound, the routes
//
//   - POST /api/ingest/chirpstack?event=up|join|status|ack|txack|log: the
//     HTTP integration of ChirpStack v4 with the JSON encoding (location and
//     integration events are acknowledged and left alone),
//   - POST /api/ingest/tts: a webhook of The Things Stack v3 (uplink
//     messages, join accepts, downlink ack, nack, sent and failed messages;
//     others are acknowledged and left alone),
//   - POST /api/ingest/generic: Fieldhub's own JSON form (README.md,
//     "Generic ingest JSON"),
//
// authenticate their caller by an integration token of a company (Tokens)
// sent as "Authorization: Bearer <token>", and act for that company alone.
// A body is read into a device message (ingest.Message), which
// ingest.Service.Process handles, or a report about a downlink
// (DownlinkReport), which updates the queue. A route answers 200 with the
// result of a stored uplink once it is durable, 202 for an uplink that went
// to the node pool, 204 for other messages, and 4xx, having changed
// nothing, for a body it cannot read.
//
// With MQTT_URL set (Config), the module also subscribes to ChirpStack v4's
// MQTT integration (application/+/device/+/event/+, QoS 1) as an MQTT 5
// shared subscription of MQTTSessions persistent sessions under the client
// ids MQTTSessionIDs(MQTT_CLIENT_ID), which the instances divide among
// themselves, so that the events are shared between the instances and
// those published while the portal is down arrive once it is back. An
// event acts for the company whose application names the topic's ChirpStack
// application id (chirpstackApplicationId); an uplink of an application that
// none names goes to the node pool. Each session has hundreds of events in
// hand at once, which join the ingest's group commit together; an event is
// acknowledged to the broker only once what it reports is durable.
//
// With the UI, the page of an application shows how to point its network
// server at these routes (a nodes.ApplicationSection): the address to
// paste, made of FIELDHUB_PUBLIC_URL and the route, the header, the
// network server's own settings, and whether an uplink has arrived, live.
//
// Outbound, the downlink queue (Downlink, a row of downlinks) has the routes
// GET /api/downlink/tag/{tagId}, POST /api/downlink/{tagId} and DELETE
// /api/downlink/{downlinkId}, and, with the UI, a section of the node
// details page (a nodes.PageSection) with the node's downlinks and the form
// that queues one. The downlink worker, a scheduler job that runs on one
// instance at a time every few seconds and whenever a downlink is queued
// (DownlinkCreated), hands queued downlinks to their application's network
// server: ChirpStack by publishing to
// application/{id}/device/{devEui}/command/down with the downlink's
// DownlinkRef as the queue item id, The Things Stack by posting to the
// application's downlink push URL with its API key. A downlink the network
// server took is sent; one it refused, or that failed a few times with
// backoff, is failed with the reason. The network servers' ack, txack and
// downlink_* messages, by MQTT or by the routes, then mark it acknowledged
// or failed. What became of a downlink is announced as DownlinkOutcome.
//
// Package module builds the module.
package netservers

import (
	"context"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The ingest routes as network servers and devices call them.
const (
	// RouteChirpStack takes ChirpStack v4's HTTP integration, which adds
	// the event type (?event=up, ?event=join, ...) to the address itself.
	RouteChirpStack = "/api/ingest/chirpstack"
	// RouteTTS takes The Things Stack v3's webhook.
	RouteTTS = "/api/ingest/tts"
	// RouteGeneric takes Fieldhub's own JSON form.
	RouteGeneric = "/api/ingest/generic"
)

// Downlinks is the queue of downlinks as the downlink worker and the
// network servers' reports see it.
type Downlinks interface {
	// Queued returns up to limit queued downlinks (at most 1000) that are
	// due: never tried, or past the RetryAt of their last try. Oldest
	// first. Given network servers (nodes.NetworkChirpStack, ...), only
	// the downlinks of applications that name one of them.
	Queued(ctx context.Context, limit int, networkServers ...string) ([]Downlink, error)
	// Downlink returns a downlink by id, with its tag's DevEUI and company.
	Downlink(ctx context.Context, id int64) (*Downlink, error)
	// SetDownlinkStatus records what became of a downlink: DownlinkSent,
	// DownlinkAcknowledged (the device confirmed it), DownlinkFailed
	// (detail says why) or DownlinkQueued again (its attempts start over).
	SetDownlinkStatus(ctx context.Context, id int64, status, detail string) error
	// RecordDownlinkAttempt counts one try of the downlink worker and, if
	// the downlink is still queued, records the outcome: DownlinkSent,
	// DownlinkFailed, or DownlinkQueued to try again at RetryAt. An
	// unknown id is an errs.NotFound error, another status errs.Invalid.
	RecordDownlinkAttempt(ctx context.Context, id int64, a DownlinkAttempt) error
}

// Module is the netservers module as the kernel and the application see
// it. Start begins the downlink worker and, with MQTT_URL, the MQTT
// subscriber; they end with Start's context, and Stop waits for the MQTT
// connections to close.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Downlinks
	// QueueDownlink queues d for tag tagID of companyID on behalf of the
	// portal itself (a script), as POST /api/downlink/{tagId} queues one;
	// a tag of another company is errs.NotFound.
	QueueDownlink(ctx context.Context, companyID, tagID int64, d DownlinkRequest) (*Downlink, error)
}

// Tokens tells the company of an integration token; an unknown one is the
// nodes module's 401.
type Tokens interface {
	TokenCompany(ctx context.Context, token string) (int64, error)
}

// Tags finds the tags that the module's messages and routes name: the
// node of a ChirpStack event whose application id several companies name
// (TagByDevEUI), and the tag of a downlink route (Tag). An unknown id or
// DevEUI is an errs.NotFound error.
type Tags interface {
	Tag(ctx context.Context, id int64) (*nodes.Tag, error)
	TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error)
}

// ChirpStackApplications finds the applications that name a ChirpStack
// application id, for the MQTT subscriber's events.
type ChirpStackApplications interface {
	ApplicationsByChirpStackID(ctx context.Context, chirpstackID string) ([]nodes.Application, error)
}

// Applications gives the downlink worker a downlink's application, with
// The Things Stack's API key.
type Applications interface {
	Application(ctx context.Context, id int64) (*nodes.Application, error)
	TTSAPIKey(ctx context.Context, applicationID int64) (string, error)
}

// CompanyTokens lists a company's integration tokens, for the network
// server setup of the application page to say whether there is one to
// send.
type CompanyTokens interface {
	CompanyTokens(ctx context.Context, companyID int64) ([]nodes.Token, error)
}

// Nodes is the nodes module as the netservers module uses it: each part of
// the module takes the roles above that it calls. The nodes module
// satisfies it.
type Nodes interface {
	Tokens
	CompanyTokens
	Tags
	ChirpStackApplications
	Applications
}

// TagPages is what the downlink section asks of the node details page: a
// place on it, the node a page names, and the whole page around a refused
// form; and what the network server setup asks of the application page: a
// place on it. The nodes module satisfies it.
type TagPages interface {
	RegisterPageSection(s nodes.PageSection)
	RegisterApplicationSection(s nodes.ApplicationSection)
	PageTag(r *http.Request) (*nodes.Tag, error)
	TagPage(r *http.Request, t *nodes.Tag, s nodes.PageSection) (func(section templ.Component) templ.Component, error)
}
