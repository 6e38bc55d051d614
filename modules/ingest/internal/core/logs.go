package core

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Level is how much a DeviceEvent matters.
type Level string

// The levels of a DeviceEvent.
const (
	LevelInfo    Level = "info"
	LevelWarning Level = "warning"
	LevelError   Level = "error"
)

// The kinds of DeviceEvent.
const (
	EventJoin     = "join"
	EventStatus   = "status"
	EventLog      = "log"
	EventDownlink = "downlink"
	EventDecoder  = "decoder"
	EventPool     = "pool"
)

// DeviceEvent is published for what the ingest learns about a device beside
// the values of its uplinks: a join, a device status, a network server's
// log message, what became of a downlink, a decoder that failed, a DevEUI
// that went to the node pool. It is a fact for the log; publishing it never
// holds up the message it is about.
type DeviceEvent struct {
	// CompanyID is the company the message acted for, 0 for none (a
	// ChirpStack MQTT event of an application that no application names).
	CompanyID int64
	// DevEUI is 16 lower-case hexadecimal digits, "" when the message named
	// no device.
	DevEUI string
	Kind   string
	Level  Level
	// Message is the English text. MessageID is its locale catalog key,
	// with Args filling its placeholders, so that a client shows it in its
	// own language; "" for a network server's own text.
	Message   string
	MessageID string
	Args      map[string]any
	// Time is when the ingest learned it.
	Time time.Time
}

// Topic names the event.
func (DeviceEvent) Topic() string { return "ingest.device_event" }

// Message ids of the device events (locale catalog keys).
const (
	idLogJoin               = "logs.entry.join"
	idLogStatus             = "logs.entry.status"
	idLogStatusPowered      = "logs.entry.statusPowered"
	idLogPool               = "logs.entry.pool"
	idLogDecoder            = "logs.entry.decoder"
	idLogDownlinkHandedOver = "logs.entry.downlink.handedOver"
	idLogDownlinkSent       = "logs.entry.downlink.sent"
	idLogDownlinkSentBy     = "logs.entry.downlink.sentBy"
	idLogDownlinkAcked      = "logs.entry.downlink.acknowledged"
	idLogDownlinkFailed     = "logs.entry.downlink.failed"
)

// repeatEvery is how often the same DevEUI may report the same repeating
// trouble (heard without a node, a decoder that fails): a device that sends
// every minute would otherwise fill the log with one line.
const repeatEvery = 15 * time.Minute

// throttle remembers when a repeating event was last published.
type throttle struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// allow reports whether key may be published at now, and notes it.
func (t *throttle) allow(key string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at, ok := t.last[key]; ok && now.Sub(at) < repeatEvery {
		return false
	}
	if t.last == nil || len(t.last) >= 10_000 {
		// Bounded: forgetting early costs at most one line more per DevEUI.
		t.last = map[string]time.Time{}
	}
	t.last[key] = now
	return true
}

// report publishes e, its English text from the catalog. The bus queues it
// for the logs module, whose handler never waits, so the message that
// caused it goes on at once.
func (m *Module) report(ctx context.Context, e DeviceEvent) {
	if e.Message == "" && e.MessageID != "" {
		e.Message = m.host.Catalogs.T(i18n.Default, e.MessageID, e.Args)
	}
	e.Time = m.now().UTC()
	m.host.Bus.Publish(context.WithoutCancel(ctx), e)
}

// logJoin reports that a node of company joined.
func (m *Module) logJoin(ctx context.Context, company int64, msg parse.Message) {
	m.report(ctx, DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: EventJoin, Level: LevelInfo,
		MessageID: idLogJoin, Args: map[string]any{"source": msg.Source}})
}

// logStatus reports a device status of a node of company.
func (m *Module) logStatus(ctx context.Context, company int64, msg parse.Message) {
	if _, ok, err := m.ownTag(ctx, company, msg.DevEUI); err != nil || !ok {
		return
	}
	s := msg.Status
	args := map[string]any{"margin": number(s.Margin)}
	id := idLogStatusPowered
	if !s.ExternalPower {
		id = idLogStatus
		args["battery"] = number(s.BatteryLevel)
	}
	m.report(ctx, DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: EventStatus, Level: LevelInfo, MessageID: id, Args: args})
}

// logNetworkLog reports a network server's log message about a node of
// company, at the network server's level.
func (m *Module) logNetworkLog(ctx context.Context, company int64, msg parse.Message) {
	if _, ok, err := m.ownTag(ctx, company, msg.DevEUI); err != nil || !ok {
		return
	}
	level := LevelInfo
	switch strings.ToUpper(msg.Log.Level) {
	case "WARNING", "WARN":
		level = LevelWarning
	case "ERROR":
		level = LevelError
	}
	text := msg.Log.Description
	if msg.Log.Code != "" {
		text = msg.Log.Code + ": " + text
	}
	m.report(ctx, DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: EventLog, Level: level, Message: text,
		Args: map[string]any{"level": msg.Log.Level, "code": msg.Log.Code, "source": msg.Source}})
}

// logPooled reports that a DevEUI heard without a node of company went to
// the node pool.
func (m *Module) logPooled(ctx context.Context, company int64, msg parse.Message) {
	if !m.logged.allow(EventPool+"/"+strconv.FormatInt(company, 10)+"/"+msg.DevEUI, m.now()) {
		return
	}
	m.report(ctx, DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: EventPool, Level: LevelWarning,
		MessageID: idLogPool, Args: map[string]any{"source": msg.Source, "kind": string(msg.Kind)}})
}

// logUplinkWarnings reports what the decoder said about a stored uplink: a
// decoder that failed (the payload was kept raw) or one that warned.
func (m *Module) logUplinkWarnings(ctx context.Context, company int64, res Result) {
	if len(res.Warnings) == 0 || !m.logged.allow(EventDecoder+"/"+strconv.FormatInt(company, 10)+"/"+res.DevEUI, m.now()) {
		return
	}
	m.report(ctx, DeviceEvent{CompanyID: company, DevEUI: res.DevEUI, Kind: EventDecoder, Level: LevelWarning,
		MessageID: idLogDecoder, Args: map[string]any{"warnings": clip(strings.Join(res.Warnings, "; "), 500)}})
}

// downlinkReported records a network server's report about a downlink
// (see downlink) and reports what changed: a downlink of company that the
// report moved to another state, or that a gateway transmitted.
func (m *Module) downlinkReported(ctx context.Context, company int64, msg parse.Message) error {
	before := m.reportedDownlink(ctx, company, msg)
	if err := m.downlink(ctx, company, msg); err != nil || before == nil {
		return err
	}
	after, err := m.deps.Nodes.Downlink(ctx, before.ID)
	if err != nil {
		return nil // deleted meanwhile: nothing to tell
	}
	transmitted := msg.Kind == parse.KindDownlinkSent && after.Status == nodes.DownlinkSent
	if after.Status == before.Status && !transmitted {
		return nil
	}
	e := DeviceEvent{CompanyID: company, DevEUI: parse.NormaliseEUI(after.DevEUI), Kind: EventDownlink, Level: LevelInfo,
		Args: map[string]any{"id": after.ID, "status": after.Status}}
	switch {
	case transmitted && msg.Downlink.GatewayID != "":
		e.MessageID, e.Args["gateway"] = idLogDownlinkSentBy, msg.Downlink.GatewayID
	case transmitted:
		e.MessageID = idLogDownlinkSent
	case after.Status == nodes.DownlinkAcknowledged:
		e.MessageID = idLogDownlinkAcked
	case after.Status == nodes.DownlinkFailed:
		e.Level, e.MessageID, e.Args["reason"] = LevelError, idLogDownlinkFailed, after.Detail
	default:
		return nil
	}
	m.report(ctx, e)
	return nil
}

// reportedDownlink returns the downlink of company that a report names, as
// it was before the report; nil for none.
func (m *Module) reportedDownlink(ctx context.Context, company int64, msg parse.Message) *nodes.Downlink {
	for _, ref := range msg.Downlink.Refs {
		id, ok := ParseDownlinkRef(ref)
		if !ok {
			continue
		}
		d, err := m.deps.Nodes.Downlink(ctx, id)
		if err != nil || d.CompanyID != company || msg.DevEUI != "" && parse.NormaliseEUI(d.DevEUI) != msg.DevEUI {
			return nil
		}
		return d
	}
	return nil
}

// logDelivery reports the outcome of the downlink worker's try: handed to
// the network server, or failed for good. A try to be repeated is not
// reported: the downlink is still queued.
func (m *Module) logDelivery(ctx context.Context, d *nodes.Downlink, a nodes.DownlinkAttempt) {
	e := DeviceEvent{CompanyID: d.CompanyID, DevEUI: parse.NormaliseEUI(d.DevEUI), Kind: EventDownlink, Level: LevelInfo,
		Args: map[string]any{"id": d.ID, "status": a.Status}}
	switch a.Status {
	case nodes.DownlinkSent:
		e.MessageID = idLogDownlinkHandedOver
	case nodes.DownlinkFailed:
		e.Level, e.MessageID, e.Args["reason"] = LevelError, idLogDownlinkFailed, a.Detail
	default:
		return
	}
	m.report(ctx, e)
}

// number formats a reading for a log line, "–" when there is none.
func number(v *float64) string {
	if v == nil {
		return "–"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}
