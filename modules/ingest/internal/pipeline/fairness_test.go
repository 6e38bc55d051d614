package pipeline

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/devicelog"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Companies of the fairness test: slow's decodes wait until the test lets
// them go, as they would on a company's spent decode budget; fast's
// decoder answers at once.
const (
	slowCompany = 1
	fastCompany = 2
)

// heldDecoder decodes fast's payloads at once and holds slow's until
// release is closed, counting those it holds.
type heldDecoder struct {
	release chan struct{}
	held    chan struct{} // receives once per slow decode that waits
}

func (d *heldDecoder) Decode(ctx context.Context, key string, in decoders.Input) (decoders.Output, error) {
	if in.Company == slowCompany && key != decoders.Raw {
		d.held <- struct{}{}
		select {
		case <-d.release:
		case <-ctx.Done():
			return decoders.Output{}, ctx.Err()
		}
	}
	return decoders.Output{Data: map[string]any{"level": float64(in.Bytes[0])}}, nil
}

// fakeNodes has a tag per DevEUI "70b3d57ed0cc00nn": company cc's node nn.
type fakeNodes struct{}

func tagOf(eui string) *nodes.Tag {
	var company, n int64
	if _, err := fmt.Sscanf(strings.ToLower(eui), "70b3d57ed0%02x%04x", &company, &n); err != nil {
		return nil
	}
	return &nodes.Tag{ID: company*1000 + n, CompanyID: company, DevEUI: eui, Name: eui, Decoder: "own"}
}

func (fakeNodes) Tag(context.Context, int64) (*nodes.Tag, error) { return nil, nil }
func (fakeNodes) TagByDevEUI(_ context.Context, eui string) (*nodes.Tag, error) {
	return tagOf(eui), nil
}
func (fakeNodes) TagsByDevEUI(_ context.Context, euis []string) (map[string]*nodes.Tag, error) {
	out := map[string]*nodes.Tag{}
	for _, e := range euis {
		if t := tagOf(e); t != nil {
			out[nodes.NormaliseEUI(e)] = t // as the nodes module keys them
		}
	}
	return out, nil
}
func (f fakeNodes) CachedTags(ctx context.Context, euis []string, _ []int64) (map[string]*nodes.Tag, map[int64]*nodes.Tag, error) {
	tags, err := f.TagsByDevEUI(ctx, euis)
	return tags, map[int64]*nodes.Tag{}, err
}
func (fakeNodes) EnsureKeys(context.Context, int64, []string) error          { return nil }
func (fakeNodes) EnsureKeysOfTags(context.Context, map[int64][]string) error { return nil }
func (fakeNodes) UpdateStates(context.Context, []nodes.TagState) error       { return nil }
func (fakeNodes) AddToPool(context.Context, string, string) error            { return nil }

// writtenStore is a time series that keeps the points written, by company.
type writtenStore struct {
	tsdb.Store
	mu     sync.Mutex
	points map[int64]int
}

func (s *writtenStore) Write(_ context.Context, points []tsdb.Point) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range points {
		s.points[p.Company]++
	}
	return nil
}

func (s *writtenStore) written(company int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.points[company]
}

// TestSlowDecodesHoldUpOnlyTheirCompany: while more of one company's
// uplinks wait for their decoder than there are batches, another company's
// uplinks are looked up, decoded and committed. A codec decodes in each
// uplink's own request, between the batch that looks its tag up and the
// one that writes it, so no batch waits for a codec. (When decoding was
// part of the batch, the waiting decodes held both committers and every
// other company's uplinks waited behind them.)
func TestSlowDecodesHoldUpOnlyTheirCompany(t *testing.T) {
	k := kerneltest.New(t, kerneltest.Config(t, db.SQLite, nil))
	dec := &heldDecoder{release: make(chan struct{}), held: make(chan struct{}, 100)}
	store := &writtenStore{points: map[int64]int{}}
	p := New(k.Host(), Deps{Tags: fakeNodes{}, NodeData: fakeNodes{}, Pool: fakeNodes{}, Decoding: dec, TSDB: store}, devicelog.New(k.Host()))
	ctx, cancel := context.WithCancel(context.Background())
	p.Start(ctx)
	t.Cleanup(func() { cancel(); p.Stop() })

	uplink := func(company int64, n int) ingest.Message {
		eui := fmt.Sprintf("70b3d57ed0%02x%04x", company, n)
		return ingest.Message{Kind: ingest.KindUplink, Source: "generic", DevEUI: eui, Time: time.Now().UTC(),
			Uplink: &ingest.Uplink{DevEUI: eui, FPort: 1, Payload: []byte{byte(n)}}}
	}
	// More slow uplinks than lookup and commit loops together, each
	// waiting in its decoder.
	const slow = 8 // more than there are committers
	slowDone := make(chan error, slow)
	for n := range slow {
		go func() {
			_, err := p.Process(context.Background(), slowCompany, uplink(slowCompany, n))
			slowDone <- err
		}()
	}
	select {
	case <-dec.held:
	case err := <-slowDone:
		t.Fatalf("a slow uplink was answered before its decode: %v", err)
	}
	time.Sleep(200 * time.Millisecond) // let the others reach their decoder (or a batch) too
	// fast's uplinks go through, one after another, while slow's wait.
	for n := range 10 {
		rctx, rcancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := p.Process(rctx, fastCompany, uplink(fastCompany, n))
		rcancel()
		if err != nil {
			t.Fatalf("fast uplink %d while slow's decodes wait: %v (a batch waits for a codec)", n, err)
		}
		if res.TagID == 0 || len(res.Keys) == 0 {
			t.Fatalf("fast uplink %d: %+v", n, res)
		}
	}
	if got := store.written(fastCompany); got < 10 {
		t.Errorf("fast's points written: %d", got)
	}
	if got := store.written(slowCompany); got != 0 {
		t.Errorf("slow's uplinks were written before their decodes ended: %d points", got)
	}
	select {
	case err := <-slowDone:
		t.Fatalf("a slow uplink was answered while its decode waited: %v", err)
	default:
	}
	close(dec.release)
	for range slow {
		if err := <-slowDone; err != nil {
			t.Errorf("slow uplink: %v", err)
		}
	}
	if got := store.written(slowCompany); got < slow {
		t.Errorf("slow's points written: %d", got)
	}
}
