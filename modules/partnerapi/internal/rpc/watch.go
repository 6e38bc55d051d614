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
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/partnerapi"
)

// watchBuffer is how many uplinks a watcher may have in hand before it
// counts as fallen behind.
const watchBuffer = 1024

// Live sends each watcher the uplinks of its company that any instance
// stores (partnerapi.Uplinks). The handing over never waits on a client: a
// watcher whose buffer is full is ended (partnerapi.IDWatchBehind) rather
// than slowing the ingest or the other instances' fan-out, or losing
// uplinks silently.
type Live struct {
	catalogs *i18n.Catalogs
	uplinks  partnerapi.Uplinks
}

// watcher is one Watch call.
type watcher struct {
	company int64
	tags    map[int64]bool
	deveuis map[string]bool // lower case, as ingest.UplinkReceived spells them
	ch      chan ingest.UplinkReceived
	behind  chan struct{}
	// fell is set once behind is closed; the uplinks handed on after it are
	// dropped.
	fell bool
	mu   sync.Mutex // this instance's uplinks and the others' may come at once
}

// NewLive serves Watch with the uplinks of uplinks.
func NewLive(uplinks partnerapi.Uplinks, catalogs *i18n.Catalogs) *Live {
	return &Live{catalogs: catalogs, uplinks: uplinks}
}

// offer queues u for the watcher if it asked for it, and ends the watcher
// when it has fallen behind.
func (w *watcher) offer(u ingest.UplinkReceived) {
	if !w.wants(u) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fell {
		return
	}
	select {
	case w.ch <- u:
	default:
		w.fell = true
		close(w.behind)
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
	cancel := s.uplinks.SubscribeUplinks(company, w.offer)
	defer cancel()
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
