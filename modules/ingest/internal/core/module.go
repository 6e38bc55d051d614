// Package core implements the ingest module: the HTTP routes that network
// servers and devices post to, and what becomes of each message (stored
// values, the node's state, the node pool, downlink outcomes).
package core

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Nodes is what the ingest asks of the nodes module; see ingest.Nodes.
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

// Decoders is what the ingest asks of the decoders module.
type Decoders interface {
	Decode(ctx context.Context, key string, in decoders.Input) (decoders.Output, error)
}

// Deps are the module's dependencies; see ingest.Deps.
type Deps struct {
	Nodes    Nodes
	Decoders Decoders
	TSDB     tsdb.Store
}

// MaxBody is the body limit of the ingest routes: a LoRaWAN uplink with its
// metadata is a few kilobytes.
const MaxBody = 1 << 20

// Module is the ingest module.
type Module struct {
	host *kernel.Host
	log  *slog.Logger
	deps Deps
	now  func() time.Time
	bg   background // the MQTT subscriber and the downlink worker (start.go)
	// batches handles uplinks and device statuses together with those of
	// concurrent requests once the module has started (commit.go,
	// batch.go).
	batches *committer
	// overlap is set on PostgreSQL: a batch writes its points and its
	// nodes' states at the same time (batch.go).
	overlap bool
	// logged spaces out repeating device events (logs.go).
	logged throttle
}

// New builds the module.
func New(host *kernel.Host, deps Deps) *Module {
	log := host.Logger("ingest")
	m := &Module{host: host, log: log, deps: deps, now: time.Now}
	m.batches = newCommitter(m.runBatch, log)
	m.overlap = db.DialectOf(host.DB) == db.Postgres
	host.Bus.Subscribe(nodes.DownlinkCreated{}.Topic(), m.downlinkCreated)
	batchSize := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "fieldhub_ingest_batch_uplinks", Help: "Uplinks (and device statuses) handled in one batch (group commit).",
		Buckets: prometheus.ExponentialBuckets(1, 2, 11),
	})
	batchTime := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "fieldhub_ingest_batch_seconds", Help: "Time to handle one batch of uplinks: tag lookup, decoding, points, keys and states, commits included.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
	})
	host.Router.Registry().MustRegister(batchSize, batchTime)
	m.batches.observe = func(uplinks int, took time.Duration) {
		batchSize.Observe(float64(uplinks))
		batchTime.Observe(took.Seconds())
	}
	return m
}

// Name names the module.
func (m *Module) Name() string { return "ingest" }

// Routes registers the ingest routes. They are open as far as sessions go:
// each authenticates its caller by an integration token instead.
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("POST /ingest/chirpstack", auth.Open, m.chirpStack, web.MaxBody(MaxBody))
	r.API("POST /ingest/tts", auth.Open, m.tts, web.MaxBody(MaxBody))
	r.API("POST /ingest/generic", auth.Open, m.generic, web.MaxBody(MaxBody))
}

// chirpStack answers POST /ingest/chirpstack?event=..., ChirpStack v4's
// HTTP integration with the JSON encoding.
func (m *Module) chirpStack(w http.ResponseWriter, r *http.Request) error {
	company, body, err := m.begin(r)
	if err != nil {
		return err
	}
	msg, err := parse.ChirpStack(r.URL.Query().Get("event"), body, m.now())
	if err != nil {
		return err
	}
	return m.handle(r.Context(), w, company, msg)
}

// tts answers POST /ingest/tts, a webhook of The Things Stack v3.
func (m *Module) tts(w http.ResponseWriter, r *http.Request) error {
	company, body, err := m.begin(r)
	if err != nil {
		return err
	}
	msg, err := parse.TTS(body, m.now())
	if err != nil {
		return err
	}
	return m.handle(r.Context(), w, company, msg)
}

// generic answers POST /ingest/generic, Fieldhub's own form.
func (m *Module) generic(w http.ResponseWriter, r *http.Request) error {
	company, body, err := m.begin(r)
	if err != nil {
		return err
	}
	msg, err := parse.Generic(body, m.now())
	if err != nil {
		return err
	}
	return m.handle(r.Context(), w, company, msg)
}

// begin authenticates the caller by the integration token of its
// Authorization header and reads the body. A missing, malformed or unknown
// token is the nodes module's 401, before the body is read.
func (m *Module) begin(r *http.Request) (int64, []byte, error) {
	token := ""
	if scheme, rest, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		token = strings.TrimSpace(rest)
	}
	company, err := m.deps.Nodes.TokenCompany(r.Context(), token)
	if err != nil {
		return 0, nil, err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return 0, nil, fmt.Errorf("read ingest body: %w", err)
	}
	return company, body, nil
}

// handle does what msg reports, for the company of the token, and answers.
func (m *Module) handle(ctx context.Context, w http.ResponseWriter, company int64, msg parse.Message) error {
	res, err := m.process(ctx, company, msg)
	switch {
	case err != nil:
		return err
	case res == nil:
		return web.NoContent(w)
	case res.Pooled:
		web.JSON(w, http.StatusAccepted, res)
		return nil
	}
	return web.OK(w, res)
}

// process does what msg reports, for company: the HTTP routes and the MQTT
// subscriber share it. It returns once the outcome is durable, with the
// result of an uplink (nil for other messages).
func (m *Module) process(ctx context.Context, company int64, msg parse.Message) (*Result, error) {
	// The stores keep microseconds: the event and the node's state say the
	// same time as the series.
	msg.Time = msg.Time.Truncate(time.Microsecond)
	if msg.Uplink != nil {
		msg.Uplink.Time = msg.Time
	}
	switch msg.Kind {
	case parse.KindUplink:
		res, err := m.uplink(ctx, company, msg)
		if err != nil {
			return nil, err
		}
		m.logUplinkWarnings(ctx, company, res)
		return &res, nil
	case parse.KindJoin:
		_, ok, err := m.ownTag(ctx, company, msg.DevEUI)
		if err != nil {
			return nil, err
		}
		if ok {
			m.logJoin(ctx, company, msg)
			return nil, nil
		}
		return nil, m.pool(ctx, company, msg)
	case parse.KindStatus:
		if err := m.status(ctx, company, msg); err != nil {
			return nil, err
		}
		m.logStatus(ctx, company, msg)
	case parse.KindDownlinkSent, parse.KindDownlinkAck, parse.KindDownlinkFailed:
		return nil, m.downlinkReported(ctx, company, msg)
	case parse.KindLog:
		level := slog.LevelInfo
		if l := strings.ToUpper(msg.Log.Level); l == "WARNING" || l == "ERROR" {
			level = slog.LevelWarn
		}
		m.log.Log(ctx, level, "network server reported on a device", "source", msg.Source, "company_id", company,
			"dev_eui", msg.DevEUI, "level", msg.Log.Level, "code", msg.Log.Code, "description", msg.Log.Description)
		m.logNetworkLog(ctx, company, msg)
	}
	return nil, nil
}

// ownTag returns the tag of a DevEUI when it belongs to company. A DevEUI
// without a tag and one of another company's tag look the same, so that a
// token learns nothing about other companies.
func (m *Module) ownTag(ctx context.Context, company int64, devEUI string) (*nodes.Tag, bool, error) {
	if devEUI == "" {
		return nil, false, nil
	}
	t, err := m.deps.Nodes.TagByDevEUI(ctx, devEUI)
	switch {
	case errs.Is(err, errs.NotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("look up tag %s: %w", devEUI, err)
	case t.CompanyID != company:
		return nil, false, nil
	}
	return t, true, nil
}

// pool puts a DevEUI heard without a tag of the company in the node pool,
// where a SuperAdmin sees it. A DevEUI of another company's tag stays
// where it is (the pool leaves tagged DevEUIs alone); the uplink is
// logged, not stored, since it may not reach that company.
func (m *Module) pool(ctx context.Context, company int64, msg parse.Message) error {
	if err := m.deps.Nodes.AddToPool(ctx, msg.DevEUI, msg.Source); err != nil {
		return fmt.Errorf("add %s to the node pool: %w", msg.DevEUI, err)
	}
	m.logPooled(ctx, company, msg)
	m.log.Info("message of a DevEUI without a tag of the company", "kind", string(msg.Kind),
		"source", msg.Source, "company_id", company, "dev_eui", msg.DevEUI)
	return nil
}

// DownlinkRef is the identifier the downlink worker gives downlink id at
// the network server: ChirpStack's queue item id (which must be a UUID) and
// a correlation id of The Things Stack, so that the network server's
// reports name the downlink they are about.
func DownlinkRef(id int64) string { return fmt.Sprintf("%s%012x", refPrefix, id) }

// refPrefix starts every DownlinkRef: a UUID of version 4's layout whose
// first groups say Fieldhub (f1e1d), with the downlink's id in the last.
const refPrefix = "f1e1d000-0000-4000-8000-"

// refTag may precede a DownlinkRef in a correlation id.
const refTag = "fieldhub:downlink:"

// ParseDownlinkRef returns the downlink id of a DownlinkRef, also when it is
// written as "fieldhub:downlink:<ref>".
func ParseDownlinkRef(s string) (int64, bool) {
	s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), refTag))
	if len(s) != len(refPrefix)+12 || !strings.HasPrefix(s, refPrefix) {
		return 0, false
	}
	id, err := strconv.ParseInt(s[len(refPrefix):], 16, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}
