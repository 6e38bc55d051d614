package rpc

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"

	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/partnerapi"
)

// watchBuffer is how many uplinks a watcher may have in hand before it
// counts as fallen behind.
const watchBuffer = 1024

// Live sends the uplinks the bus announces to the watchers of their
// company. The bus's handler never waits on a client: a watcher whose
// buffer is full is ended (partnerapi.IDWatchBehind) rather than slowing the ingest
// or losing uplinks silently.
type Live struct {
	catalogs *i18n.Catalogs
	mu       sync.Mutex
	watchers map[*watcher]struct{}
}

// watcher is one Watch call.
type watcher struct {
	company int64
	tags    map[int64]bool
	deveuis map[string]bool // lower case, as the bus spells them
	ch      chan ingest.UplinkReceived
	behind  chan struct{}
}

// NewLive subscribes to the bus's uplinks.
func NewLive(bus kevents.Bus, catalogs *i18n.Catalogs) *Live {
	w := &Live{catalogs: catalogs, watchers: map[*watcher]struct{}{}}
	bus.Subscribe(ingest.UplinkReceived{}.Topic(), w.onUplink)
	return w
}

func (s *Live) onUplink(_ context.Context, e kevents.Event) {
	u, ok := e.(ingest.UplinkReceived)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		if !w.wants(u) {
			continue
		}
		select {
		case w.ch <- u:
		default:
			delete(s.watchers, w)
			close(w.behind)
		}
	}
}

func (w *watcher) wants(u ingest.UplinkReceived) bool {
	if u.CompanyID != w.company {
		return false
	}
	if len(w.tags) == 0 && len(w.deveuis) == 0 {
		return true
	}
	return w.tags[u.TagID] || w.deveuis[strings.ToLower(u.DevEUI)]
}

// Watch streams the company's uplinks until the client goes, its access
// token lapses, or it falls behind.
func (s *Live) Watch(ctx context.Context, req *connect.Request[fieldhubv1.WatchRequest], stream *connect.ServerStream[fieldhubv1.WatchResponse]) error {
	lang := s.catalogs.Match(req.Header().Get("Accept-Language"))
	c := auth.CallerFrom(ctx)
	if !c.Role.In(auth.CompanyOrUser) {
		return s.fail(lang, connect.CodeUnauthenticated, errs.IDUnauthorized)
	}
	company := req.Msg.GetCompanyId()
	if company == 0 {
		company = c.CompanyID
	}
	if company == 0 || !c.CanSeeCompany(company) {
		return s.fail(lang, connect.CodeNotFound, errs.IDNotFound)
	}
	w := &watcher{company: company, tags: map[int64]bool{}, deveuis: map[string]bool{},
		ch: make(chan ingest.UplinkReceived, watchBuffer), behind: make(chan struct{})}
	for _, id := range req.Msg.GetTagIds() {
		w.tags[id] = true
	}
	for _, eui := range req.Msg.GetDevEuis() {
		w.deveuis[strings.ToLower(nodes.NormaliseEUI(eui))] = true
	}
	s.mu.Lock()
	s.watchers[w] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.watchers, w)
		s.mu.Unlock()
	}()
	// The headers go out at once, so that the client knows it is
	// watching before the first uplink.
	if err := stream.Send(nil); err != nil {
		return err
	}
	var lapse <-chan time.Time
	if !c.Expires.IsZero() {
		t := time.NewTimer(time.Until(c.Expires))
		defer t.Stop()
		lapse = t.C
	}
	for {
		select {
		case u := <-w.ch:
			if err := stream.Send(&fieldhubv1.WatchResponse{Uplink: live(u)}); err != nil {
				return err
			}
		case <-w.behind:
			return s.fail(lang, connect.CodeResourceExhausted, partnerapi.IDWatchBehind)
		case <-lapse:
			return s.fail(lang, connect.CodeUnauthenticated, errs.IDUnauthorized)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// fail is a Connect error with the catalog's message of id.
func (s *Live) fail(lang string, code connect.Code, id string) error {
	e := connect.NewError(code, errors.New(s.catalogs.T(lang, id, nil)))
	e.Meta().Set(partnerapi.ErrorIDHeader, id)
	return e
}

// live is an announced uplink as Watch sends it.
func live(u ingest.UplinkReceived) *fieldhubv1.LiveUplink {
	t := u.Time
	out := &fieldhubv1.LiveUplink{CompanyId: u.CompanyID, TagId: u.TagID, DevEui: strings.ToUpper(u.DevEUI), Name: u.Name,
		Time: timestamp(&t), Values: values(u.Data), FCnt: u.FCnt, SpreadingFactor: int32(u.SpreadingFactor)}
	for _, r := range u.Receptions {
		out.Receptions = append(out.Receptions, &fieldhubv1.LiveReception{GatewayId: r.GatewayID, Rssi: r.RSSI, Snr: r.SNR})
	}
	return out
}
