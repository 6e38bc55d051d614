package stats

import (
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/gateways"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/store"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

func f(v float64) *float64 { return &v }

// TestObserve checks what one uplink adds: each gateway once, by its EUI
// in upper case, ids that are no EUI left out, and at most samplesPerFlush
// samples per gateway kept between flushes.
func TestObserve(t *testing.T) {
	a := New(nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	at := time.Date(2026, 11, 27, 10, 30, 0, 0, time.UTC)
	a.Observe(ingest.UplinkReceived{CompanyID: 7, Time: at, Receptions: []ingest.Reception{
		{GatewayID: "0016c001f153a14c", RSSI: f(-80), SNR: f(7)},
		{GatewayID: "0016C001F153A14C", RSSI: f(-90), SNR: f(5)}, // the same gateway on another antenna
		{GatewayID: "my-gateway-id", RSSI: f(-70)},               // The Things Stack's id of a gateway without EUI
		{GatewayID: "aa-55-5a-00-00-00-00-01"},                   // no signal given
	}})
	for i := range 20 {
		a.Observe(ingest.UplinkReceived{CompanyID: 7, Time: at.Add(time.Duration(i) * time.Second), Receptions: []ingest.Reception{{GatewayID: "aa555a0000000001", RSSI: f(float64(-100 + i))}}})
	}
	a.Observe(ingest.UplinkReceived{CompanyID: 0, Time: at, Receptions: []ingest.Reception{{GatewayID: "aa555a0000000002"}}}) // no company
	if len(a.pending) != 2 {
		t.Fatalf("pending %v", a.pending)
	}
	one := a.pending[store.Key{CompanyID: 7, EUI: "0016C001F153A14C"}]
	if one == nil || one.counts[at.Truncate(time.Hour)] != 1 || one.n != 1 || *one.samples[0].RSSI != -80 {
		t.Errorf("the first gateway: %+v", one)
	}
	two := a.pending[store.Key{CompanyID: 7, EUI: "AA555A0000000001"}]
	if two == nil || two.counts[at.Truncate(time.Hour)] != 21 || two.n != 20 || !two.last.Equal(at.Add(19*time.Second)) || !two.first.Equal(at) {
		t.Fatalf("the second gateway: %+v", two)
	}
	// The newest samplesPerFlush samples are the ones kept.
	for _, s := range two.samples {
		if *s.RSSI < -100+20-samplesPerFlush {
			t.Errorf("an old sample kept: %v", *s.RSSI)
		}
	}
}

// BenchmarkObserve is the cost the gateway statistics add to each uplink:
// what the module's subscriber does with one ingest.UplinkReceived (one
// to three receptions among 1,000 gateways of 10 companies). Flushing is
// apart: one transaction per FlushEvery, whatever the traffic.
func BenchmarkObserve(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("receptions=%d", n), func(b *testing.B) {
			a := New(nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
			events := make([]ingest.UplinkReceived, 1000)
			for i := range events {
				rs := make([]ingest.Reception, n)
				for k := range rs {
					rs[k] = ingest.Reception{GatewayID: fmt.Sprintf("aa555a%010x", (i+k*7)%1000), RSSI: f(-90), SNR: f(5)}
				}
				events[i] = ingest.UplinkReceived{CompanyID: int64(i%10 + 1), Time: time.Now(), Receptions: rs}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				a.Observe(events[i%len(events)])
				if i%100_000 == 0 { // as a flush would, so that the map stays the size of the fleet
					a.mu.Lock()
					clear(a.pending)
					a.mu.Unlock()
				}
			}
		})
	}
}

// TestParseEUI checks the fast parse against the contract's functions.
func TestParseEUI(t *testing.T) {
	for _, s := range []string{"0016c001f153a14c", "0016C001F153A14C", "00-16-c0-01-f1-53-a1-4c", "00:16:C0:01:F1:53:A1:4C", " 0016c001f153a14c ",
		"0016c001f153a14", "0016c001f153a14c0", "0016c001f153a14g", "", "my-gateway", "ÄÄ16c001f153a14c"} {
		got, ok := parseEUI(s)
		want := gateways.NormaliseEUI(s)
		if ok != gateways.ValidEUI(want) || ok && got != want {
			t.Errorf("parseEUI(%q) = %q, %v; want %q, %v", s, got, ok, want, gateways.ValidEUI(want))
		}
	}
}
