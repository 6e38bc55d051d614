// Package collect adds a point to a node's active signal test for every
// uplink the ingest stores (ingest.UplinkReceived). The ingest publishes
// the event on the instance that stored the uplink, after its commit, so
// each uplink adds one point whatever the number of instances.
package collect

import (
	"context"
	"log/slog"

	"github.com/uptrace/bun"

	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/signaltests"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/store"
)

// Collector turns uplinks into points.
type Collector struct {
	db  *bun.DB
	log *slog.Logger
}

// New returns a collector that writes to db, subscribed to bus.
func New(db *bun.DB, bus kevents.Bus, log *slog.Logger) *Collector {
	c := &Collector{db: db, log: log}
	bus.Subscribe(ingest.UplinkReceived{}.Topic(), c.onUplink)
	return c
}

func (c *Collector) onUplink(ctx context.Context, e kevents.Event) {
	u, ok := e.(ingest.UplinkReceived)
	if !ok {
		return
	}
	if err := c.Add(ctx, u); err != nil {
		c.log.Error("signal test point not added", "tag_id", u.TagID, "err", err)
	}
}

// Add adds the uplink's point to its node's active test, if there is one.
func (c *Collector) Add(ctx context.Context, u ingest.UplinkReceived) error {
	id, latKey, lngKey, ok, err := store.ActiveOf(ctx, c.db, u.TagID)
	if err != nil || !ok {
		return err
	}
	_, err = store.AddPoint(ctx, c.db, id, PointOf(u, latKey, lngKey))
	return err
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
