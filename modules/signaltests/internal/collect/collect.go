// Package collect adds a point to a node's active signal test for every
// uplink the ingest stores (ingest.UplinkReceived). The ingest publishes
// the event on the instance that stored the uplink, after its commit, so
// each uplink adds one point whatever the number of instances.
//
// The bus hands events one at a time, and a subscriber that falls behind
// holds up the ingest's publisher; one query per uplink would cap the
// ingest near one database round trip per uplink. So the handler only
// queues the uplink, and one worker takes what has queued, asks once which
// of those nodes have an active test (usually none), and writes the points
// of those that have.
package collect

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/signaltests"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/store"
)

// queueSize and batchSize bound the uplinks waiting for the worker and
// those one query looks up.
const (
	queueSize = 8192
	batchSize = 512
)

// Collector turns uplinks into points.
type Collector struct {
	db       *bun.DB
	log      *slog.Logger
	queue    chan ingest.UplinkReceived
	stopping chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

// New returns a collector that writes to db, subscribed to bus. Start
// runs its worker.
func New(db *bun.DB, bus kevents.Bus, log *slog.Logger) *Collector {
	c := &Collector{db: db, log: log, queue: make(chan ingest.UplinkReceived, queueSize), stopping: make(chan struct{}), done: make(chan struct{})}
	bus.Subscribe(ingest.UplinkReceived{}.Topic(), c.onUplink)
	return c
}

func (c *Collector) onUplink(_ context.Context, e kevents.Event) {
	u, ok := e.(ingest.UplinkReceived)
	if !ok || u.Source != "" { // values written to a node are no signal
		return
	}
	select {
	case c.queue <- u:
	case <-c.stopping:
		c.log.Warn("signal test point not added: the portal is stopping", "tag_id", u.TagID)
	}
}

// Start runs the worker until Stop.
func (c *Collector) Start(context.Context) error {
	go c.run()
	return nil
}

// Stop lets the worker write what has queued, then waits for it (or for
// ctx).
func (c *Collector) Stop(ctx context.Context) error {
	c.stopOnce.Do(func() { close(c.stopping) })
	select {
	case <-c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Collector) run() {
	defer close(c.done)
	ctx := context.Background()
	for {
		var first ingest.UplinkReceived
		select {
		case first = <-c.queue:
		case <-c.stopping:
			// What queued before the stop is still written.
			for {
				select {
				case u := <-c.queue:
					c.batch(ctx, append([]ingest.UplinkReceived{u}, c.drain()...))
				default:
					return
				}
			}
		}
		c.batch(ctx, append([]ingest.UplinkReceived{first}, c.drain()...))
	}
}

// drain takes what has queued, up to a batch, without waiting.
func (c *Collector) drain() []ingest.UplinkReceived {
	var out []ingest.UplinkReceived
	for len(out) < batchSize-1 {
		select {
		case u := <-c.queue:
			out = append(out, u)
		default:
			return out
		}
	}
	return out
}

func (c *Collector) batch(ctx context.Context, us []ingest.UplinkReceived) {
	if err := c.Add(ctx, us); err != nil {
		c.log.Error("signal test points not added", "uplinks", len(us), "err", err)
	}
}

// grace is how long after its completion a test still takes the points of
// uplinks the network server received before it, which the completion
// overtook on their way here.
const grace = 10 * time.Minute

// Add adds each uplink's point to its node's test, in the order the
// uplinks came: the completed test whose span holds the uplink's time,
// else the active one.
func (c *Collector) Add(ctx context.Context, us []ingest.UplinkReceived) error {
	tags := make([]int64, 0, len(us))
	for _, u := range us {
		tags = append(tags, u.TagID)
	}
	open, err := store.OpenTests(ctx, c.db, tags, time.Now().Add(-grace))
	if err != nil || len(open) == 0 {
		return err
	}
	for _, u := range us {
		if t, ok := testOf(open[u.TagID], u.Time); ok {
			if _, err := store.AddPoint(ctx, c.db, t.ID, PointOf(u, t.LatitudeKey, t.LongitudeKey)); err != nil {
				return err
			}
		}
	}
	return nil
}

// skew is how much earlier than a test's start (the portal's clock) the
// network server's clock may stamp an uplink that belongs to it.
const skew = time.Minute

// testOf picks the test an uplink received at t belongs to. An uplink
// stamped well before the active test's start was received before it and
// only reached the collector late (a busy portal): it is not the test's.
func testOf(tests []store.OpenTest, t time.Time) (store.OpenTest, bool) {
	var active *store.OpenTest
	for i := range tests {
		switch o := &tests[i]; {
		case o.End == nil:
			if !t.Before(o.Start.Add(-skew)) {
				active = o
			}
		case !t.Before(o.Start) && !t.After(*o.End):
			return *o, true
		}
	}
	if active == nil {
		return store.OpenTest{}, false
	}
	return *active, true
}

// PointOf is the point an uplink makes for a test reading its position
// from latKey and lngKey. The signal is the best gateway's; an uplink that
// names no gateway (the generic ingest) gives the rssi and snr of its
// values, if any.
func PointOf(u ingest.UplinkReceived, latKey, lngKey string) signaltests.Point {
	p := signaltests.Point{SpreadingFactor: u.SpreadingFactor, FCnt: u.FCnt, CreatedAt: u.Time,
		Receptions: make([]signaltests.Reception, 0, len(u.Receptions))}
	p.Lat, p.Lng = signaltests.PositionOf(u.Data, latKey, lngKey)
	for _, r := range u.Receptions {
		p.Receptions = append(p.Receptions, signaltests.Reception{GatewayID: r.GatewayID, RSSI: r.RSSI, SNR: r.SNR})
	}
	if best, ok := signaltests.BestReception(u.Receptions); ok {
		p.GatewayID, p.RSSI, p.SNR = best.GatewayID, best.RSSI, best.SNR
	} else {
		p.RSSI, p.SNR = number(u.Data["rssi"]), number(u.Data["snr"])
	}
	return p
}

func number(v any) *float64 {
	if f, ok := v.(float64); ok {
		return &f
	}
	return nil
}
