package networkserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/devicelog"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
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
	// maxAttempts tries, spaced by retryDelay from firstRetry, before a
	// downlink that meets failures that may pass is given up: about four
	// minutes.
	maxAttempts = 5
	firstRetry  = 15 * time.Second
	lastRetry   = 5 * time.Minute
	// sendTimeout bounds one hand-over.
	sendTimeout = 15 * time.Second
)

// finalError is a delivery failure that another try cannot mend.
type finalError struct{ reason string }

func (e *finalError) Error() string { return e.reason }

func final(format string, args ...any) error {
	return &finalError{reason: fmt.Sprintf(format, args...)}
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
func (s *Service) deliverDownlinks(ctx context.Context) error {
	list, err := s.deps.Queue.Queued(ctx, deliverBatch, nodes.NetworkChirpStack, nodes.NetworkTTS)
	if err != nil {
		return err
	}
	r := &round{targets: map[int64]*target{}}
	for i := range list {
		if ctx.Err() != nil {
			return nil
		}
		s.deliver(ctx, &list[i], r)
	}
	return nil
}

// deliver makes one try and records it: sent, failed for good, or queued
// for a later try.
func (s *Service) deliver(ctx context.Context, d *nodes.Downlink, r *round) {
	sendCtx, cancel := context.WithTimeout(ctx, sendTimeout)
	err := s.send(sendCtx, d, s.target(ctx, d.ApplicationID, r.targets), r)
	cancel()
	if ctx.Err() != nil {
		return // shutting down: this was no try
	}
	log := s.log.With("downlink_id", d.ID, "dev_eui", d.DevEUI, "company_id", d.CompanyID, "attempt", d.Attempts+1)
	a := nodes.DownlinkAttempt{Status: nodes.DownlinkSent}
	var fe *finalError
	switch {
	case err == nil:
		log.Info("downlink handed to the network server")
	case errors.As(err, &fe):
		a = nodes.DownlinkAttempt{Status: nodes.DownlinkFailed, Detail: err.Error()}
		log.Warn("downlink failed", "err", err)
	case d.Attempts+1 >= maxAttempts:
		a = nodes.DownlinkAttempt{Status: nodes.DownlinkFailed, Detail: fmt.Sprintf("%s (gave up after %d attempts)", err, d.Attempts+1)}
		log.Warn("downlink failed; giving up", "err", err)
	default:
		wait := retryDelay(d.Attempts, firstRetry, lastRetry)
		a = nodes.DownlinkAttempt{Status: nodes.DownlinkQueued, Detail: fmt.Sprintf("%s (attempt %d of %d)", err, d.Attempts+1, maxAttempts),
			RetryAt: s.now().Add(wait)}
		log.Warn("downlink not delivered; will retry", "retry_in", wait.String(), "err", err)
	}
	a.Detail = devicelog.Clip(a.Detail, 500)
	if err := s.deps.Queue.RecordDownlinkAttempt(context.WithoutCancel(ctx), d.ID, a); err != nil {
		if !errs.Is(err, errs.NotFound) {
			log.Error("record downlink attempt", "err", err)
		}
		return
	}
	s.logDelivery(ctx, d, a)
}

// target returns the application of a downlink, loading it (and its The
// Things Stack API key) once a round.
func (s *Service) target(ctx context.Context, appID int64, targets map[int64]*target) *target {
	if t, ok := targets[appID]; ok {
		return t
	}
	t := &target{}
	t.app, t.err = s.deps.Queue.Application(ctx, appID)
	if t.err == nil && t.app.NetworkServer == nodes.NetworkTTS {
		t.ttsKey, t.err = s.deps.Queue.TTSAPIKey(ctx, appID)
	}
	if t.err != nil {
		t.err = fmt.Errorf("load application %d: %w", appID, t.err)
	}
	targets[appID] = t
	return t
}

// send hands d to the network server of its application.
func (s *Service) send(ctx context.Context, d *nodes.Downlink, t *target, r *round) error {
	if t.err != nil {
		return t.err
	}
	if d.PayloadType == "json" {
		return final("no encoder for JSON payloads yet: queue the payload as hex or base64")
	}
	var err error
	var fe *finalError
	switch t.app.NetworkServer {
	case nodes.NetworkChirpStack:
		if r.brokerErr != nil {
			return r.brokerErr
		}
		if err = s.sendChirpStack(ctx, t.app, d); err != nil && !errors.As(err, &fe) {
			r.brokerErr = err
		}
		return err
	case nodes.NetworkTTS:
		if t.downErr != nil {
			return t.downErr
		}
		if err = s.sendTTS(ctx, t, d); err != nil && !errors.As(err, &fe) {
			t.downErr = err
		}
		return err
	}
	return final("the application's network server (%s) takes no downlinks from Fieldhub", t.app.NetworkServer)
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
func (s *Service) sendChirpStack(ctx context.Context, app *nodes.Application, d *nodes.Downlink) error {
	if app.ChirpStackApplicationID == "" {
		return final("the application has no ChirpStack application id")
	}
	if s.pub == nil {
		return final("no MQTT broker is configured (MQTT_URL), and ChirpStack takes downlinks over MQTT")
	}
	devEUI := strings.ToLower(d.DevEUI)
	body, err := json.Marshal(chirpStackCommand{ID: ingest.DownlinkRef(d.ID), DevEUI: devEUI, Confirmed: d.Confirmed, FPort: d.Port, Data: d.Bytes()})
	if err != nil {
		return final("encode the downlink: %v", err)
	}
	return s.pub.publish(ctx, fmt.Sprintf(commandTopic, app.ChirpStackApplicationID, devEUI), body)
}

// ttsDownlinks is the body of The Things Stack's webhook downlink queue
// operations (ApplicationDownlinks): frm_payload in base64, f_port 1-223
// here, and a correlation id by which its downlink_ack, _nack, _sent and
// _failed webhook messages name the downlink.
type ttsDownlinks struct {
	Downlinks []ttsDownlink `json:"downlinks"`
}

type ttsDownlink struct {
	FRMPayload     []byte   `json:"frm_payload"`
	FPort          int      `json:"f_port"`
	Priority       string   `json:"priority"`
	Confirmed      bool     `json:"confirmed"`
	CorrelationIDs []string `json:"correlation_ids"`
}

// sendTTS pushes d to the end of the device's queue at The Things Stack.
// 200 is success; a refusal (4xx but 408, 425 and 429) is final, with The
// Things Stack's reason, and so is an address the portal may not reach
// (kernel/egress); other failures may pass.
func (s *Service) sendTTS(ctx context.Context, t *target, d *nodes.Downlink) error {
	switch {
	case t.app.TTSDownlinkURL == "":
		return final("the application has no The Things Stack downlink URL")
	case t.ttsKey == "":
		return final("the application has no The Things Stack API key")
	}
	body, err := json.Marshal(ttsDownlinks{Downlinks: []ttsDownlink{{FRMPayload: d.Bytes(), FPort: d.Port, Priority: "NORMAL",
		Confirmed: d.Confirmed, CorrelationIDs: []string{ingest.DownlinkRefTag + ingest.DownlinkRef(d.ID)}}}})
	if err != nil {
		return final("encode the downlink: %v", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ttsDownlinkURL(t.app.TTSDownlinkURL, d.DevEUI), bytes.NewReader(body))
	if err != nil {
		return final("the application's The Things Stack downlink URL is not usable: %v", err)
	}
	req.Header.Set("Authorization", "Bearer "+t.ttsKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Fieldhub")
	res, err := s.http.Do(req)
	if err != nil {
		var refused *egress.RefusedError
		if errors.As(err, &refused) {
			return final("The Things Stack downlink URL: %v", refused)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // not the address again, which the application shows
		}
		return fmt.Errorf("The Things Stack not reachable: %w", err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 8<<10))
	switch code := res.StatusCode; {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusRequestTimeout || code == http.StatusTooEarly || code == http.StatusTooManyRequests || code >= 500:
		return fmt.Errorf("The Things Stack answered %s%s", res.Status, ttsReason(answer))
	default:
		return final("The Things Stack refused the downlink: %s%s", res.Status, ttsReason(answer))
	}
}

// ttsDownlinkURL fills in an application's downlink URL for a device:
// {devEui} becomes its DevEUI in lower case, {devId} The Things Stack's
// default end device id, "eui-" and that DevEUI. A URL without them is
// used as it is.
func ttsDownlinkURL(pattern, devEUI string) string {
	eui := strings.ToLower(devEUI)
	return strings.NewReplacer("{devEui}", eui, "{devId}", "eui-"+eui).Replace(pattern)
}

// ttsReason renders the message of The Things Stack's error body
// ({"code": 5, "message": "error:pkg/...:name (text)", "details": [...]}),
// or the start of a body of another shape.
func ttsReason(body []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	text := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		text = e.Message
	}
	if text == "" {
		return ""
	}
	return ": " + devicelog.Clip(text, 300)
}

// logDelivery reports the outcome of the worker's try: handed to the
// network server, or failed for good. A try to be repeated is not
// reported: the downlink is still queued.
func (s *Service) logDelivery(ctx context.Context, d *nodes.Downlink, a nodes.DownlinkAttempt) {
	e := ingest.DeviceEvent{CompanyID: d.CompanyID, DevEUI: parse.NormaliseEUI(d.DevEUI), Kind: ingest.EventDownlink, Level: ingest.LevelInfo,
		Args: map[string]any{"id": d.ID, "status": a.Status}}
	switch a.Status {
	case nodes.DownlinkSent:
		e.MessageID = ingest.IDLogDownlinkHandedOver
	case nodes.DownlinkFailed:
		e.Level, e.MessageID, e.Args["reason"] = ingest.LevelError, ingest.IDLogDownlinkFailed, a.Detail
	default:
		return
	}
	s.deps.Events.Report(ctx, e)
}
