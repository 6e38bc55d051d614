package feed

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/fieldhub/fieldhub/modules/events"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// uplinkSubs holds the subscribers of events.Uplinks by company, so that the
// fan-out skips, undecoded, the uplinks of companies nobody here watches.
type uplinkSubs struct {
	mu        sync.RWMutex
	byCompany map[int64]map[*uplinkSub]struct{}
}

type uplinkSub struct{ fn func(ingest.UplinkReceived) }

func newUplinkSubs() *uplinkSubs {
	return &uplinkSubs{byCompany: map[int64]map[*uplinkSub]struct{}{}}
}

func (s *uplinkSubs) subscribe(company int64, fn func(ingest.UplinkReceived)) (cancel func()) {
	sub := &uplinkSub{fn: fn}
	s.mu.Lock()
	set := s.byCompany[company]
	if set == nil {
		set = map[*uplinkSub]struct{}{}
		s.byCompany[company] = set
	}
	set[sub] = struct{}{}
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			delete(s.byCompany[company], sub)
			if len(s.byCompany[company]) == 0 {
				delete(s.byCompany, company)
			}
		})
	}
}

// has reports whether anyone here subscribed to company's uplinks.
func (s *uplinkSubs) has(company int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.byCompany[company]) > 0
}

// deliver hands u to the subscribers of its company. They never wait
// (events.Uplinks), so the read lock is held while they run.
func (s *uplinkSubs) deliver(u ingest.UplinkReceived) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for sub := range s.byCompany[u.CompanyID] {
		sub.fn(u)
	}
}

// radio is what an uplink's fan-out notification carries beside its feed
// event (id, date, tag and data, as the WebSocket clients receive it), so
// that the other instances rebuild the ingest.UplinkReceived for
// events.Uplinks: the node's id and the radio side. Short names keep the
// notification small.
type radio struct {
	TagID           int64       `json:"id"`
	FCnt            int64       `json:"f,omitempty"`
	SpreadingFactor int         `json:"sf,omitempty"`
	Receptions      []reception `json:"rx,omitempty"`
	Source          string      `json:"s,omitempty"`
}

type reception struct {
	GatewayID string   `json:"g"`
	RSSI      *float64 `json:"r,omitempty"`
	SNR       *float64 `json:"n,omitempty"`
}

// encodeRadio returns the radio part of an uplink's notification.
func encodeRadio(u ingest.UplinkReceived) ([]byte, error) {
	r := radio{TagID: u.TagID, FCnt: u.FCnt, SpreadingFactor: u.SpreadingFactor, Source: u.Source}
	for _, x := range u.Receptions {
		r.Receptions = append(r.Receptions, reception{GatewayID: x.GatewayID, RSSI: x.RSSI, SNR: x.SNR})
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode radio side of %s: %w", u.DevEUI, err)
	}
	return b, nil
}

// uplinkOf rebuilds the uplink another instance stored from its feed event
// and radio part. Its values come back as JSON decodes them: float64 for
// numbers and string for texts, which is what the ingest announces.
func uplinkOf(company int64, event, radioPart []byte) (ingest.UplinkReceived, error) {
	var e events.Event
	if err := json.Unmarshal(event, &e); err != nil {
		return ingest.UplinkReceived{}, fmt.Errorf("decode event: %w", err)
	}
	var r radio
	if err := json.Unmarshal(radioPart, &r); err != nil {
		return ingest.UplinkReceived{}, fmt.Errorf("decode radio side: %w", err)
	}
	u := ingest.UplinkReceived{CompanyID: company, TagID: r.TagID, DevEUI: strings.ToLower(e.Tag.DevEUI), Name: e.Tag.Name,
		Time: e.Date, Data: e.Data, FCnt: r.FCnt, SpreadingFactor: r.SpreadingFactor, Source: r.Source}
	for _, x := range r.Receptions {
		u.Receptions = append(u.Receptions, ingest.Reception{GatewayID: x.GatewayID, RSSI: x.RSSI, SNR: x.SNR})
	}
	return u, nil
}
