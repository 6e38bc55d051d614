package pipeline

import (
	"context"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/devicelog"
)

// logJoin reports that a node of company joined.
func (p *Pipeline) logJoin(ctx context.Context, company int64, msg ingest.Message) {
	p.events.Report(ctx, ingest.DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: ingest.EventJoin, Level: ingest.LevelInfo,
		MessageID: ingest.IDLogJoin, Args: map[string]any{"source": msg.Source}})
}

// logStatus reports a device status of a node of company.
func (p *Pipeline) logStatus(ctx context.Context, company int64, msg ingest.Message) {
	if _, ok, err := p.ownTag(ctx, company, msg.DevEUI); err != nil || !ok {
		return
	}
	s := msg.Status
	args := map[string]any{"margin": devicelog.Number(s.Margin)}
	id := ingest.IDLogStatusPowered
	if !s.ExternalPower {
		id = ingest.IDLogStatus
		args["battery"] = devicelog.Number(s.BatteryLevel)
	}
	p.events.Report(ctx, ingest.DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: ingest.EventStatus, Level: ingest.LevelInfo, MessageID: id, Args: args})
}

// logNetworkLog reports a network server's log message about a node of
// company, at the network server's level.
func (p *Pipeline) logNetworkLog(ctx context.Context, company int64, msg ingest.Message) {
	if _, ok, err := p.ownTag(ctx, company, msg.DevEUI); err != nil || !ok {
		return
	}
	level := ingest.LevelInfo
	switch strings.ToUpper(msg.Log.Level) {
	case "WARNING", "WARN":
		level = ingest.LevelWarning
	case "ERROR":
		level = ingest.LevelError
	}
	text := msg.Log.Description
	if msg.Log.Code != "" {
		text = msg.Log.Code + ": " + text
	}
	p.events.Report(ctx, ingest.DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: ingest.EventLog, Level: level, Message: text,
		Args: map[string]any{"level": msg.Log.Level, "code": msg.Log.Code, "source": msg.Source}})
}

// logPooled reports that a DevEUI heard without a node of company went to
// the node pool.
func (p *Pipeline) logPooled(ctx context.Context, company int64, msg ingest.Message) {
	if !p.events.Allow(ingest.EventPool + "/" + strconv.FormatInt(company, 10) + "/" + msg.DevEUI) {
		return
	}
	p.events.Report(ctx, ingest.DeviceEvent{CompanyID: company, DevEUI: msg.DevEUI, Kind: ingest.EventPool, Level: ingest.LevelWarning,
		MessageID: ingest.IDLogPool, Args: map[string]any{"source": msg.Source, "kind": string(msg.Kind)}})
}

// logUplinkWarnings reports what the decoder said about a stored uplink: a
// decoder that failed (the payload was kept raw) or one that warned.
func (p *Pipeline) logUplinkWarnings(ctx context.Context, company int64, res ingest.UplinkResult) {
	if len(res.Warnings) == 0 || !p.events.Allow(ingest.EventDecoder+"/"+strconv.FormatInt(company, 10)+"/"+res.DevEUI) {
		return
	}
	p.events.Report(ctx, ingest.DeviceEvent{CompanyID: company, DevEUI: res.DevEUI, Kind: ingest.EventDecoder, Level: ingest.LevelWarning,
		MessageID: ingest.IDLogDecoder, Args: map[string]any{"warnings": devicelog.Clip(strings.Join(res.Warnings, "; "), 500)}})
}

// logDecoderOff reports that the decode of an uplink of a node of company
// switched the node's decoder off, once, for the company's log: from then
// on its uplinks are stored raw.
func (p *Pipeline) logDecoderOff(ctx context.Context, company int64, devEUI string, off *decoders.SwitchOff) {
	p.events.Report(ctx, ingest.DeviceEvent{CompanyID: company, DevEUI: devEUI, Kind: ingest.EventDecoder, Level: ingest.LevelError,
		MessageID: ingest.IDLogDecoderOff, Args: map[string]any{"decoder": off.Name, "decoderId": off.DecoderID,
			"reason": devicelog.Clip(off.Reason, 300)}})
}
