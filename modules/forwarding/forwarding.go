// Package forwarding is the contract of the forwarding module: outbound
// forwarding of an application's stored uplinks to other systems.
//
// An application has targets: an HTTP webhook (KindWebhook: a URL, headers
// of the company's choice and a secret that signs each request) or an MQTT
// broker (KindMQTT: a broker URL, a username and password, a topic
// template). Every uplink that the ingest stores for a node of an
// application with enabled targets is queued for each of them in the
// ingest batch that stored it, before the uplink's request is answered
// (an ingest.Recorder), so that an answered uplink is never lost, not even
// when the process is killed. A worker delivers each target's queue in
// order, once across instances (a lease on the target's row), retrying
// with exponential backoff (Backoff); after MaxFailures failures in a row
// the target is switched off, and the company's administrators are
// notified. Sending again after a crash may deliver an uplink twice: a
// receiver that must not count one twice keys it by devEui and time.
//
// A webhook request is a POST of the uplink as JSON (Uplink), with the
// headers X-Fieldhub-Timestamp (Unix seconds) and X-Fieldhub-Signature
// (hex HMAC-SHA256 with the target's secret over timestamp + "." + body;
// see Sign). An MQTT target publishes the same JSON with QoS 1 to its
// topic template with {devEui}, {applicationId}, {companyId}, {tagId} and
// {name} filled in (Topic). Webhook URLs and broker addresses pass the
// kernel's egress guard: no loopback, private or link-local address unless
// the installation allows them (FIELDHUB_OUTBOUND_PRIVATE).
//
// The routes (roles Admin, CompanyAdmin and SuperAdmin, for the
// application's company):
//
//   - GET /api/applications/{applicationId}/forwarding lists the targets
//     with their delivery state; POST adds one.
//   - PUT /api/forwarding/{targetId} changes a target (any of its fields,
//     enabled among them); DELETE removes it with its queue.
//   - POST /api/forwarding/{targetId}/test sends a sample uplink now and
//     answers the outcome (TestResult).
//
// With the UI, the application page shows the targets (a
// nodes.ApplicationSection). Package module builds the module.
package forwarding

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/notifications"
)

// The kinds of target.
const (
	KindWebhook = "webhook"
	KindMQTT    = "mqtt"
)

// The headers of a webhook request.
const (
	HeaderSignature = "X-Fieldhub-Signature"
	HeaderTimestamp = "X-Fieldhub-Timestamp"
)

// MaxFailures is how many failed deliveries in a row switch a target off
// (DisabledFailures); switching it on again starts the count anew.
const MaxFailures = 10

// Backoff is the wait before the next attempt after failures failed ones
// in a row: 2 s, doubling, at most 10 minutes.
func Backoff(failures int) time.Duration {
	if failures < 1 {
		return 0
	}
	return min(time.Duration(1<<min(failures-1, 20))*2*time.Second, 10*time.Minute)
}

// Limits of a target.
const (
	MaxName      = 255
	MaxURL       = 2048
	MaxHeaders   = 20
	MaxHeaderLen = 1024
	MaxSecret    = 255
	MaxTopic     = 1024
	MaxUsername  = 255
	MaxPassword  = 255
	// LastErrors is how many of a target's last errors are kept.
	LastErrors = 5
	// MaxTargets is how many targets an application may have.
	MaxTargets = 10
)

// DisabledFailures is a Target's DisabledReason after MaxFailures failed
// deliveries in a row.
const DisabledFailures = "failures"

// Target is a forwarding target of an application, as the API shows it:
// its secret and password are never shown, only whether they are set.
type Target struct {
	bun.BaseModel `bun:"table:forwarding_targets,alias:t"`

	ID             int64             `bun:"id,pk,autoincrement" json:"id"`
	CompanyID      int64             `bun:"company_id" json:"companyId"`
	ApplicationID  int64             `bun:"application_id" json:"applicationId"`
	Name           string            `bun:"name" json:"name"`
	Kind           string            `bun:"kind" json:"kind"`
	Enabled        bool              `bun:"enabled" json:"enabled"`
	URL            string            `bun:"url" json:"url"`
	Headers        map[string]string `bun:"headers,type:text" json:"headers"`
	SealedSecret   string            `bun:"sealed_secret" json:"-"`
	HasSecret      bool              `bun:"-" json:"hasSecret"`
	Username       string            `bun:"username" json:"username"`
	SealedPassword string            `bun:"sealed_password" json:"-"`
	HasPassword    bool              `bun:"-" json:"hasPassword"`
	Topic          string            `bun:"topic" json:"topic"`

	// Delivery state.
	Delivered      int64      `bun:"delivered" json:"delivered"`
	Queued         int64      `bun:"-" json:"queued"`
	Failures       int        `bun:"failures" json:"failures"`
	LastSuccess    *time.Time `bun:"last_success" json:"lastSuccess,omitempty"`
	LastErrors     []Error    `bun:"last_errors,type:text" json:"lastErrors"`
	DisabledReason string     `bun:"disabled_reason" json:"disabledReason,omitempty"`
	NextAttemptAt  time.Time  `bun:"next_attempt_at" json:"-"`
	LeaseUntil     *time.Time `bun:"lease_until" json:"-"`
	CreatedAt      time.Time  `bun:"created_at" json:"createdAt"`
	UpdatedAt      time.Time  `bun:"updated_at" json:"updatedAt"`
}

// Error is one failed delivery of a target.
type Error struct {
	Time    time.Time `json:"time"`
	Message string    `json:"message"`
}

// Input is a target to add, or the fields of one to change (nil: keep).
// An empty Secret or Password when changing keeps the stored one;
// ClearSecret and ClearPassword remove it.
type Input struct {
	Name          *string            `json:"name"`
	Kind          *string            `json:"kind"`
	Enabled       *bool              `json:"enabled"`
	URL           *string            `json:"url"`
	Headers       *map[string]string `json:"headers"`
	Secret        *string            `json:"secret"`
	ClearSecret   bool               `json:"clearSecret"`
	Username      *string            `json:"username"`
	Password      *string            `json:"password"`
	ClearPassword bool               `json:"clearPassword"`
	Topic         *string            `json:"topic"`
}

// TestResult is the outcome of a test delivery.
type TestResult struct {
	OK bool `json:"ok"`
	// Message says what failed, "" when it went out.
	Message string `json:"message,omitempty"`
	// Status is the webhook's HTTP status, 0 for MQTT or no answer.
	Status int `json:"status,omitempty"`
}

// Uplink is the JSON body that targets receive: the stored uplink with
// its decoded values.
type Uplink struct {
	CompanyID     int64          `json:"companyId"`
	ApplicationID int64          `json:"applicationId"`
	TagID         int64          `json:"tagId"`
	DevEUI        string         `json:"devEui"`
	Name          string         `json:"name"`
	Time          time.Time      `json:"time"`
	FCnt          int64          `json:"fCnt,omitempty"`
	FPort         int            `json:"fPort,omitempty"`
	Payload       string         `json:"payload,omitempty"`
	Data          map[string]any `json:"data"`
	Receptions    []Reception    `json:"receptions,omitempty"`
	// Test is true for the sample that the test call sends.
	Test bool `json:"test,omitempty"`
}

// Reception is a gateway that heard the uplink.
type Reception struct {
	GatewayID string   `json:"gatewayId"`
	RSSI      *float64 `json:"rssi,omitempty"`
	SNR       *float64 `json:"snr,omitempty"`
}

// UplinkOf is the body of a stored uplink.
func UplinkOf(u ingest.StoredUplink) Uplink {
	out := Uplink{CompanyID: u.CompanyID, ApplicationID: u.ApplicationID, TagID: u.TagID, DevEUI: strings.ToUpper(u.DevEUI),
		Name: u.Name, Time: u.Time.UTC(), FCnt: u.FCnt, FPort: u.FPort, Data: u.Data}
	for _, r := range u.Receptions {
		out.Receptions = append(out.Receptions, Reception{GatewayID: r.GatewayID, RSSI: r.RSSI, SNR: r.SNR})
	}
	if len(u.Payload) > 0 {
		out.Payload = hex.EncodeToString(u.Payload)
	}
	if out.Data == nil {
		out.Data = map[string]any{}
	}
	return out
}

// Sign is the X-Fieldhub-Signature of a webhook request: hex HMAC-SHA256
// with secret over timestamp (Unix seconds, as sent in
// X-Fieldhub-Timestamp) + "." + body.
func Sign(secret string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(timestamp, 10)))
	m.Write([]byte("."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Topic fills a topic template's placeholders for an uplink: {devEui}
// (upper case), {applicationId}, {companyId}, {tagId} and {name}.
func Topic(template string, u Uplink) string {
	return strings.NewReplacer("{devEui}", u.DevEUI, "{applicationId}", strconv.FormatInt(u.ApplicationID, 10),
		"{companyId}", strconv.FormatInt(u.CompanyID, 10), "{tagId}", strconv.FormatInt(u.TagID, 10),
		"{name}", topicSafe(u.Name)).Replace(template)
}

// topicSafe keeps a node's name from adding levels or wildcards to a
// topic.
func topicSafe(s string) string {
	return strings.NewReplacer("/", "_", "+", "_", "#", "_").Replace(s)
}

// Message ids (locale catalog keys) of the module's refusals and texts.
const (
	IDNameInvalid     = "forwarding.name.invalid"
	IDKindInvalid     = "forwarding.kind.invalid"
	IDURLInvalid      = "forwarding.url.invalid"
	IDURLPrivate      = "forwarding.url.private"
	IDHeadersInvalid  = "forwarding.headers.invalid"
	IDSecretInvalid   = "forwarding.secret.invalid"
	IDTopicInvalid    = "forwarding.topic.invalid"
	IDUsernameInvalid = "forwarding.username.invalid"
	IDPasswordInvalid = "forwarding.password.invalid"
	IDTooMany         = "forwarding.targets.tooMany"
	// IDDisabledLabel and IDDisabledMessage are the notification of a
	// target switched off after MaxFailures failures ({name},
	// {application}, {failures}, {error}).
	IDDisabledLabel   = "forwarding.disabled.label"
	IDDisabledMessage = "forwarding.disabled.message"
	// The audit trail's entries of a person's changes ({name}).
	IDAuditCreated = "audit.forwarding.created"
	IDAuditEdited  = "audit.forwarding.edited"
	IDAuditDeleted = "audit.forwarding.deleted"
)

// Module is the forwarding module as the kernel and the application see
// it: its routes, the application page's section, the cache refresh and
// the delivery worker, which end with Start's context.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	ingest.Recorder
	// Deliver delivers what is due now, on this instance, and returns when
	// done: for tests and benchmarks that do not wait for the worker.
	Deliver(ctx context.Context)
}

// Applications finds the application of a route. The nodes module
// satisfies it.
type Applications interface {
	Application(ctx context.Context, id int64) (*nodes.Application, error)
}

// Notifier tells a company's administrators of a target switched off, in
// the transaction that switched it off. The notifications module
// satisfies it.
type Notifier interface {
	NotifyCompany(ctx context.Context, idb bun.IDB, companyID int64, n notifications.New) error
}

// ApplicationPages takes the forwarding section of the application page.
// The nodes module satisfies it.
type ApplicationPages interface {
	RegisterApplicationSection(s nodes.ApplicationSection)
}
