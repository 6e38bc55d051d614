// Package pipeline is what becomes of each message the ingest takes, from
// the network servers' routes and the MQTT subscriber alike (the
// netservers module hands them to Process): uplinks and device statuses
// are handled in shared batches (group commit: commit.go, batch.go),
// decoded with their tag's decoder (by their own request when a codec
// decodes them, within the company's decode budget: never in a batch),
// stored with a record of the uplink as it came (record.go), and their
// nodes' state updated; joins and log messages are recorded and told to
// the log (events.go). It also decodes kept uplinks again for the
// re-decode jobs (redecode.go).
package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/devicelog"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Deps are what the pipeline asks of the other modules.
type Deps struct {
	Tags     ingest.Tags
	NodeData ingest.NodeData
	Pool     ingest.Pool
	Decoding ingest.Decoding
	TSDB     tsdb.Store
}

// Pipeline handles messages.
type Pipeline struct {
	host *kernel.Host
	log  *slog.Logger
	deps Deps
	now  func() time.Time
	// batches handles uplinks and device statuses together with those of
	// concurrent requests once started (commit.go, batch.go).
	batches *committer
	// overlap is set on PostgreSQL: a batch writes its points and its
	// nodes' states at the same time (batch.go).
	overlap bool
	// events publishes what messages say about devices (events.go).
	events *devicelog.Reporter
	// recorders keep what must follow from stored uplinks (batch.go,
	// record); registered before Start, read-only afterwards.
	recorders []ingest.Recorder
}

// RegisterRecorder adds r to the Recorders of every batch; see
// ingest.Recorders. Call it before Start.
func (p *Pipeline) RegisterRecorder(r ingest.Recorder) { p.recorders = append(p.recorders, r) }

// New builds the pipeline and registers its metrics.
func New(host *kernel.Host, deps Deps, events *devicelog.Reporter) *Pipeline {
	log := host.Logger("ingest")
	p := &Pipeline{host: host, log: log, deps: deps, now: time.Now, events: events}
	p.batches = newCommitter(p.runBatch, log)
	p.overlap = db.DialectOf(host.DB) == db.Postgres
	batchSize := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "fieldhub_ingest_batch_uplinks", Help: "Uplinks (and device statuses) handled in one batch (group commit).",
		Buckets: prometheus.ExponentialBuckets(1, 2, 11),
	})
	batchTime := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "fieldhub_ingest_batch_seconds", Help: "Time to handle one batch of uplinks: tag lookup, points, keys and states, commits included (codecs decode outside the batches).",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
	})
	host.Router.Registry().MustRegister(batchSize, batchTime)
	p.batches.observe = func(uplinks int, took time.Duration) {
		batchSize.Observe(float64(uplinks))
		batchTime.Observe(took.Seconds())
	}
	return p
}

// Start runs the group committers until ctx is done or Stop is called;
// before, a message is handled alone in its caller.
func (p *Pipeline) Start(ctx context.Context) { p.batches.start(ctx, committers) }

// Stop lets the committers finish the batch they are handling. A message
// that still comes is handled alone.
func (p *Pipeline) Stop() { p.batches.shut() }

// Process does what msg reports, for company; see ingest.Service. It
// returns once the outcome is durable, with the result of an uplink (nil
// for other messages).
func (p *Pipeline) Process(ctx context.Context, company int64, msg ingest.Message) (*ingest.UplinkResult, error) {
	// The stores keep microseconds: the event and the node's state say the
	// same time as the series.
	msg.Time = msg.Time.Truncate(time.Microsecond)
	if msg.Uplink != nil {
		msg.Uplink.Time = msg.Time
	}
	switch msg.Kind {
	case ingest.KindUplink:
		res, err := p.uplink(ctx, company, msg)
		if err != nil {
			return nil, err
		}
		p.logUplinkWarnings(ctx, company, res)
		// Answers spell DevEUIs as the nodes and the interface do.
		res.DevEUI = strings.ToUpper(res.DevEUI)
		return &res, nil
	case ingest.KindJoin:
		_, ok, err := p.ownTag(ctx, company, msg.DevEUI)
		if err != nil {
			return nil, err
		}
		if ok {
			p.logJoin(ctx, company, msg)
			return nil, nil
		}
		return nil, p.pool(ctx, company, msg)
	case ingest.KindStatus:
		if err := p.status(ctx, company, msg); err != nil {
			return nil, err
		}
		p.logStatus(ctx, company, msg)
	case ingest.KindLog:
		level := slog.LevelInfo
		if l := strings.ToUpper(msg.Log.Level); l == "WARNING" || l == "ERROR" {
			level = slog.LevelWarn
		}
		p.log.Log(ctx, level, "network server reported on a device", "source", msg.Source, "company_id", company,
			"dev_eui", msg.DevEUI, "level", msg.Log.Level, "code", msg.Log.Code, "description", msg.Log.Description)
		p.logNetworkLog(ctx, company, msg)
	}
	return nil, nil
}

// ownTag returns the tag of a DevEUI when it belongs to company. A DevEUI
// without a tag and one of another company's tag look the same, so that a
// token learns nothing about other companies.
func (p *Pipeline) ownTag(ctx context.Context, company int64, devEUI string) (*nodes.Tag, bool, error) {
	if devEUI == "" {
		return nil, false, nil
	}
	t, err := p.deps.Tags.TagByDevEUI(ctx, devEUI)
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
func (p *Pipeline) pool(ctx context.Context, company int64, msg ingest.Message) error {
	if err := p.deps.Pool.AddToPool(ctx, msg.DevEUI, msg.Source); err != nil {
		return fmt.Errorf("add %s to the node pool: %w", msg.DevEUI, err)
	}
	p.logPooled(ctx, company, msg)
	p.log.Info("message of a DevEUI without a tag of the company", "kind", string(msg.Kind),
		"source", msg.Source, "company_id", company, "dev_eui", msg.DevEUI)
	return nil
}
