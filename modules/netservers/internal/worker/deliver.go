package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/mqtt"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The downlink worker: a job of the scheduler, run by one instance at a
// time, that hands queued downlinks to their application's network server.
const (
	deliverJob   = "downlinks"
	deliverEvery = 5 * time.Second
	// deliverBatch bounds one round, so that a round ends in reasonable
	// time even when a network server answers slowly.
	deliverBatch = 100
	// maxAttempts tries, spaced by mqtt.RetryDelay from firstRetry, before a
	// downlink that meets failures that may pass is given up: about four
	// minutes.
	maxAttempts = 5
	firstRetry  = 15 * time.Second
	lastRetry   = 5 * time.Minute
	// sendTimeout bounds one hand-over.
	sendTimeout = 15 * time.Second
)

// failure is why a try failed: the reason the company is shown, a message
// of the catalog (netservers.IDFail...) in general terms, and the whole
// error, with what the resolver, the addresses and the broker answered,
// which goes to the server log only. A final failure is one that another
// try cannot mend.
type failure struct {
	id    string
	args  map[string]any
	err   error
	final bool
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// final is a failure that another try cannot mend, whose reason id is
// also its whole text for the log.
func final(id string, err error) error {
	return &failure{id: id, err: err, final: true}
}

// passing is a failure that may pass: the worker tries again.
func passing(id string, args map[string]any, err error) error {
	return &failure{id: id, args: args, err: err}
}

// reasonOf is the failure of err: a try's error that is no failure (it
// should not happen) is shown as the portal's own trouble.
func reasonOf(err error) *failure {
	var f *failure
	if errors.As(err, &f) {
		return f
	}
	return &failure{id: netservers.IDFailInternal, err: err}
}

// text is the English text of a reason, as the downlink's detail keeps it.
func (w *Worker) text(id string, args map[string]any) string {
	return w.host.Catalogs.T(i18n.Default, id, args)
}

// round is what one round of the worker learns as it goes: the
// applications it loaded, and failures that may pass, so that one broker or
// server that does not answer costs one timeout a round, not one a
// downlink. The downlinks behind such a failure count it as their try.
type round struct {
	targets   map[int64]*target
	brokerErr error // the MQTT broker's, for every ChirpStack downlink
}

// target is an application as the worker needs it.
type target struct {
	app     *nodes.Application
	ttsKey  string
	err     error // loading it
	downErr error // The Things Stack's, for its other downlinks this round
}

// deliverDownlinks is one round of the worker: the due downlinks of
// ChirpStack and The Things Stack applications, oldest first. Downlinks of
// generic applications have no network server to go to and stay queued.
func (w *Worker) deliverDownlinks(ctx context.Context) error {
	list, err := w.deps.Queue.Queued(ctx, deliverBatch, nodes.NetworkChirpStack, nodes.NetworkTTS)
	if err != nil {
		return err
	}
	r := &round{targets: map[int64]*target{}}
	for i := range list {
		if ctx.Err() != nil {
			return nil
		}
		w.deliver(ctx, &list[i], r)
	}
	return nil
}

// deliver makes one try and records it: sent, failed for good, or queued
// for a later try.
func (w *Worker) deliver(ctx context.Context, d *netservers.Downlink, r *round) {
	sendCtx, cancel := context.WithTimeout(ctx, sendTimeout)
	err := w.send(sendCtx, d, w.target(ctx, d.ApplicationID, r.targets), r)
	cancel()
	if ctx.Err() != nil {
		return // shutting down: this was no try
	}
	log := w.log.With("downlink_id", d.ID, "dev_eui", d.DevEUI, "company_id", d.CompanyID, "attempt", d.Attempts+1)
	a := netservers.DownlinkAttempt{Status: netservers.DownlinkSent}
	// The company sees the reason in general terms; the log keeps err.
	f := reasonOf(err)
	reason := w.text(f.id, f.args)
	switch {
	case err == nil:
		log.Info("downlink handed to the network server")
	case f.final:
		a = netservers.DownlinkAttempt{Status: netservers.DownlinkFailed, Detail: reason}
		log.Warn("downlink failed", "err", err)
	case d.Attempts+1 >= maxAttempts:
		a = netservers.DownlinkAttempt{Status: netservers.DownlinkFailed,
			Detail: w.text(netservers.IDFailGaveUp, map[string]any{"reason": reason, "attempts": d.Attempts + 1})}
		log.Warn("downlink failed; giving up", "err", err)
	default:
		wait := mqtt.RetryDelay(d.Attempts, firstRetry, lastRetry)
		a = netservers.DownlinkAttempt{Status: netservers.DownlinkQueued,
			Detail:  w.text(netservers.IDFailAttempt, map[string]any{"reason": reason, "attempt": d.Attempts + 1, "max": maxAttempts}),
			RetryAt: w.now().Add(wait)}
		log.Warn("downlink not delivered; will retry", "retry_in", wait.String(), "err", err)
	}
	a.Detail = clip(a.Detail, 500)
	if err := w.deps.Queue.RecordDownlinkAttempt(context.WithoutCancel(ctx), d.ID, a); err != nil {
		if !errs.Is(err, errs.NotFound) {
			log.Error("record downlink attempt", "err", err)
		}
		return
	}
	w.logDelivery(ctx, d, a)
}

// target returns the application of a downlink, loading it (and its The
// Things Stack API key) once a round.
func (w *Worker) target(ctx context.Context, appID int64, targets map[int64]*target) *target {
	if t, ok := targets[appID]; ok {
		return t
	}
	t := &target{}
	t.app, t.err = w.deps.Applications.Application(ctx, appID)
	if t.err == nil && t.app.NetworkServer == nodes.NetworkTTS {
		t.ttsKey, t.err = w.deps.Applications.TTSAPIKey(ctx, appID)
	}
	if t.err != nil {
		t.err = passing(netservers.IDFailInternal, nil, fmt.Errorf("load application %d: %w", appID, t.err))
	}
	targets[appID] = t
	return t
}

// send hands d to the network server of its application.
func (w *Worker) send(ctx context.Context, d *netservers.Downlink, t *target, r *round) error {
	if t.err != nil {
		return t.err
	}
	if d.PayloadType == "json" && d.Encoded == "" {
		return final(netservers.IDFailJSON, errors.New("no encoder for JSON payloads yet"))
	}
	var err error
	switch t.app.NetworkServer {
	case nodes.NetworkChirpStack:
		if r.brokerErr != nil {
			return r.brokerErr
		}
		if err = w.sendChirpStack(ctx, t.app, d); err != nil && !reasonOf(err).final {
			r.brokerErr = err
		}
		return err
	case nodes.NetworkTTS:
		if t.downErr != nil {
			return t.downErr
		}
		if err = w.sendTTS(ctx, t, d); err != nil && !reasonOf(err).final {
			t.downErr = err
		}
		return err
	}
	return &failure{id: netservers.IDFailNoDownlinks, args: map[string]any{"server": t.app.NetworkServer},
		err: fmt.Errorf("the application's network server (%s) takes no downlinks from Fieldhub", t.app.NetworkServer), final: true}
}

// chirpStackCommand is the body of ChirpStack v4's command/down topic
// (integration.DownlinkCommand in its JSON mapping). ID becomes the queue
// item's id, which ChirpStack's ack and txack events name as queueItemId.
type chirpStackCommand struct {
	ID        string `json:"id"`
	DevEUI    string `json:"devEui"`
	Confirmed bool   `json:"confirmed"`
	FPort     int    `json:"fPort"`
	Data      []byte `json:"data"`
}

// sendChirpStack publishes d to ChirpStack's command topic. ChirpStack
// silently drops a command whose devEui differs from the topic's, so both
// come from one lower-case spelling.
func (w *Worker) sendChirpStack(ctx context.Context, app *nodes.Application, d *netservers.Downlink) error {
	if app.ChirpStackApplicationID == "" {
		return final(netservers.IDFailNoChirpStackID, errors.New("the application has no ChirpStack application id"))
	}
	if !w.deps.MQTT.Publishes() {
		return final(netservers.IDFailNoBroker, errors.New("no MQTT broker is configured (MQTT_URL), and ChirpStack takes downlinks over MQTT"))
	}
	devEUI := strings.ToLower(d.DevEUI)
	body, err := json.Marshal(chirpStackCommand{ID: netservers.DownlinkRef(d.ID), DevEUI: devEUI, Confirmed: d.Confirmed, FPort: d.Port, Data: d.Bytes()})
	if err != nil {
		return final(netservers.IDFailInternal, fmt.Errorf("encode the downlink: %w", err))
	}
	if err := w.deps.MQTT.PublishCommand(ctx, app.ChirpStackApplicationID, devEUI, body); err != nil {
		return passing(netservers.IDFailBroker, nil, fmt.Errorf("publish to the MQTT broker: %w", err))
	}
	return nil
}

// logDelivery announces the outcome of the worker's try: handed to the
// network server, or failed for good. A try to be repeated is not
// announced: the downlink is still queued.
func (w *Worker) logDelivery(ctx context.Context, d *netservers.Downlink, a netservers.DownlinkAttempt) {
	o := netservers.DownlinkOutcome{CompanyID: d.CompanyID, DevEUI: strings.ToLower(nodes.NormaliseEUI(d.DevEUI)), DownlinkID: d.ID, Status: a.Status}
	switch a.Status {
	case netservers.DownlinkSent:
		o.Outcome = netservers.OutcomeHandedOver
	case netservers.DownlinkFailed:
		o.Outcome, o.Reason = netservers.OutcomeFailed, a.Detail
	default:
		return
	}
	w.deps.Queue.Announce(ctx, o)
}

// clip shortens s to at most n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
