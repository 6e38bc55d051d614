package pipeline

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/devicelog"
)

// recorder keeps what a batch hands it, or fails with err.
type recorder struct {
	mu  sync.Mutex
	got []ingest.StoredUplink
	err error
}

func (r *recorder) RecordUplinks(_ context.Context, u []ingest.StoredUplink) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	r.got = append(r.got, u...)
	return nil
}

type rawDecoder struct{}

func (rawDecoder) Decode(context.Context, string, decoders.Input) (decoders.Output, error) {
	return decoders.Output{Data: map[string]any{"level": 1.0}}, nil
}

// TestRecordersSeeStoredUplinksBeforeTheAnswer: a Recorder is handed each
// stored uplink, with its payload, before its request is answered, and one
// that fails fails the uplink's answer, so that its sender sends it again.
func TestRecordersSeeStoredUplinksBeforeTheAnswer(t *testing.T) {
	k := kerneltest.New(t, kerneltest.Config(t, db.SQLite, nil))
	store := &writtenStore{points: map[int64]int{}}
	p := New(k.Host(), Deps{Tags: fakeNodes{}, NodeData: fakeNodes{}, Pool: fakeNodes{}, Decoding: rawDecoder{}, TSDB: store}, devicelog.New(k.Host()))
	rec := &recorder{}
	p.RegisterRecorder(rec)
	ctx, cancel := context.WithCancel(context.Background())
	p.Start(ctx)
	t.Cleanup(func() { cancel(); p.Stop() })
	eui := "70b3d57ed0010001"
	msg := func(at time.Time) ingest.Message {
		return ingest.Message{Kind: ingest.KindUplink, Source: "generic", DevEUI: eui, Time: at,
			Uplink: &ingest.Uplink{DevEUI: eui, FPort: 3, Payload: []byte{7}}}
	}
	at := time.Now().UTC().Truncate(time.Second)
	if _, err := p.Process(context.Background(), 1, msg(at)); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	if len(rec.got) != 1 || rec.got[0].DevEUI != eui || rec.got[0].FPort != 3 || string(rec.got[0].Payload) != "\x07" || rec.got[0].Data["level"] != 1.0 {
		t.Errorf("recorded %+v", rec.got)
	}
	rec.err = errors.New("queue unavailable")
	rec.mu.Unlock()
	if _, err := p.Process(context.Background(), 1, msg(at.Add(time.Second))); err == nil {
		t.Error("an uplink whose recorder failed was answered as stored")
	}
}
