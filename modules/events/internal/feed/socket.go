package feed

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/events"
)

// Time limits of one connection.
const (
	writeTimeout = 10 * time.Second
	pongTimeout  = 15 * time.Second
)

// serve answers GET /events: it upgrades to a WebSocket and pushes the
// events of the caller's company until the connection ends.
func (m *Feed) serve(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	company, err := companyOf(r, c)
	if err != nil {
		return err
	}
	userOnly, err := onlyOf(r)
	if err != nil {
		return err
	}
	if !wantsWebSocket(r) {
		w.Header().Set("Upgrade", "websocket")
		return errs.New(errs.Invalid, events.IDWebSocketOnly)
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errs.New(errs.Unavailable, errs.IDUnavailable)
	}
	m.conns.Add(1)
	m.mu.Unlock()
	defer m.conns.Done()

	release, ok, err := m.limit.acquire(r.Context(), c.UserID, c.CompanyID)
	if err != nil {
		return err
	}
	if !ok {
		// Over a cap: the handshake completes so that the client learns
		// why (a refused upgrade shows a browser nothing but an error).
		m.refused.Inc()
		if conn, err := websocket.Accept(w, r, nil); err == nil {
			_ = conn.Close(events.CloseTooMany, "too many connections")
		}
		m.log.Info("live feed connection over the caps refused", "user_id", c.UserID, "company_id", c.CompanyID)
		return nil
	}
	defer release()

	// The client joins the hub before the handshake ends, so that an event
	// that happens once the client has its connection is not missed.
	cl := newClient(company, c.UserID, userOnly, c.Role.AtLeast(auth.CompanyAdmin), m.opts.QueueSize)
	m.hub.add(cl)
	defer m.hub.remove(cl)
	// Accept refuses another origin's page (the cookie would otherwise let
	// any site read the feed) and answers a bad handshake itself.
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		m.log.Debug("live feed handshake refused", "err", err)
		return nil
	}
	m.connections.Inc()
	defer func() {
		// The place is free before the gauge says the connection is gone.
		release()
		m.connections.Dec()
	}()
	m.pump(conn, cl, c.Expires)
	return nil
}

// pump writes the client's queue to the connection, pings it, and closes it
// when the token lapses, the client falls behind or the module stops.
func (m *Feed) pump(conn *websocket.Conn, cl *client, expires time.Time) {
	defer conn.CloseNow()
	// Reading answers pings and the client's close; the feed expects no
	// messages from the client. Its context ends when the connection does.
	peer := conn.CloseRead(context.Background())
	ping := time.NewTicker(m.opts.PingInterval)
	defer ping.Stop()
	var lapsed <-chan time.Time
	if !expires.IsZero() {
		t := time.NewTimer(time.Until(expires))
		defer t.Stop()
		lapsed = t.C
	}
	for {
		select {
		case msg := <-cl.queue:
			ctx, cancel := context.WithTimeout(peer, writeTimeout)
			err := conn.Write(ctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				return
			}
		case <-ping.C:
			ctx, cancel := context.WithTimeout(peer, pongTimeout)
			err := conn.Ping(ctx)
			cancel()
			if err != nil {
				return
			}
		case <-lapsed:
			_ = conn.Close(events.CloseSessionExpired, "session expired")
			return
		case <-cl.dropped:
			_ = conn.Close(websocket.StatusTryAgainLater, "too slow, reconnect")
			return
		case <-m.ctx.Done():
			_ = conn.Close(websocket.StatusGoingAway, "server stopping")
			return
		case <-peer.Done():
			return
		}
	}
}

// companyOf is the one company whose events the caller receives: their own;
// for a SuperAdmin the one named by ?companyId=, else the one chosen in the
// company switcher, else the installation (whose log entries only they
// receive). A user without a company gets 0, which nothing has.
func companyOf(r *http.Request, c auth.Caller) (int64, error) {
	if raw := r.URL.Query().Get("companyId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		if !c.CanSeeCompany(id) {
			return 0, errs.New(errs.NotFound, errs.IDNotFound)
		}
		return id, nil
	}
	if c.Role != auth.SuperAdmin {
		return c.CompanyID, nil
	}
	if ck, err := r.Cookie(accounts.CompanyCookie); err == nil {
		if id, err := strconv.ParseInt(ck.Value, 10, 64); err == nil && id > 0 {
			return id, nil
		}
	}
	return installation, nil
}

// onlyOf reads ?only=: "user" asks for the messages to the caller alone
// (the bell of every page), "" for everything of the company too.
func onlyOf(r *http.Request) (bool, error) {
	switch v := r.URL.Query().Get("only"); v {
	case "":
		return false, nil
	case "user":
		return true, nil
	default:
		var bad errs.Validation
		bad.Add("only", events.IDOnlyInvalid)
		return false, bad.Err()
	}
}

// wantsWebSocket reports whether r asks for a WebSocket upgrade.
func wantsWebSocket(r *http.Request) bool {
	return headerHas(r.Header, "Connection", "upgrade") && headerHas(r.Header, "Upgrade", "websocket")
}

func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}
