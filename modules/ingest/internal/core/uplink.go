package core

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// UplinkReceived is published after an uplink's values are stored and its
// node's state is updated.
type UplinkReceived struct {
	CompanyID int64
	TagID     int64
	// DevEUI is 16 lower-case hexadecimal digits, as the time series name
	// it.
	DevEUI string
	// Name is the tag's name.
	Name string
	// Time is when the network server received the uplink.
	Time time.Time
	// Data holds the stored values by key: float64 for numbers (booleans as
	// 0 and 1), string for texts.
	Data map[string]any
}

// Topic names the event.
func (UplinkReceived) Topic() string { return "ingest.uplink_received" }

// Result is the answer to an uplink.
type Result struct {
	DevEUI string `json:"devEui"`
	// Pooled is true when the DevEUI has no tag in the token's company:
	// the uplink went to the node pool and nothing was stored.
	Pooled bool       `json:"pooled,omitempty"`
	TagID  int64      `json:"tagId,omitempty"`
	Time   *time.Time `json:"time,omitempty"`
	// Keys are the keys stored.
	Keys []string `json:"keys,omitempty"`
	// Warnings are what the decoder reported about the payload.
	Warnings []string `json:"warnings,omitempty"`
}

// uplink stores an uplink of a node of company, or puts its DevEUI in the
// pool. It returns once the values and the node's state are durable: the
// work is done in a batch with the uplinks of other requests (batch.go).
func (m *Module) uplink(ctx context.Context, company int64, msg parse.Message) (Result, error) {
	j := &job{company: company, msg: msg}
	if err := m.batches.do(ctx, j); err != nil {
		return Result{}, err
	}
	if j.tag == nil {
		return Result{DevEUI: msg.Uplink.DevEUI, Pooled: true}, m.pool(ctx, company, msg)
	}
	m.host.Bus.Publish(ctx, *j.event)
	return j.res, nil
}

// decoded is what the ingest made of an uplink's payload.
type decoded struct {
	// values are the flat values to store.
	values map[string]any
	// warnings are what the decoder reported, its errors included, for
	// the answer and the log.
	warnings []string
	// errors are the decoder's errors alone, kept with the uplink's
	// record (uplinkPoint).
	errors []string
}

// decode turns an uplink into flat values. The network server's decoded
// object is used when the tag keeps payloads raw, or when there is no
// payload to decode; otherwise the tag's decoder decodes the payload, under
// the limits of the tag's company. A decoder that is gone, cannot run or
// fails (a throw, a broken limit) leaves the payload raw rather than lose
// it, and what it failed with is reported.
func (m *Module) decode(ctx context.Context, tag *nodes.Tag, u *parse.Uplink) (decoded, error) {
	if u.Object != nil && (tag.Decoder == decoders.Raw || len(u.Payload) == 0) {
		values, err := parse.Flatten(u.Object)
		return decoded{values: values}, err // the parser has checked the object, so err is nil
	}
	if len(u.Payload) == 0 {
		return decoded{values: map[string]any{}}, nil
	}
	in := decoders.Input{Company: tag.CompanyID, FPort: u.FPort, Bytes: u.Payload, RecvTime: u.Time}
	out, err := m.deps.Decoders.Decode(ctx, tag.Decoder, in)
	var d decoded
	switch {
	case err == nil && (out.Data != nil || len(out.Errors) == 0):
		d.errors = out.Errors
		d.warnings = append(append(d.warnings, out.Warnings...), out.Errors...)
		values, ferr := parse.Flatten(out.Data)
		if ferr == nil {
			d.values = values
			return d, nil
		}
		err = ferr
		d.errors = append(d.errors, fmt.Sprintf("decoder %q returned values that cannot be stored: %v", tag.Decoder, ferr))
	case err == nil:
		// The codec failed, or reported errors without any data.
		d.errors = out.Errors
		d.warnings = append(append(d.warnings, out.Warnings...), out.Errors...)
		err = errors.New(strings.Join(out.Errors, "; "))
	default:
		if ctx.Err() != nil {
			return decoded{}, ctx.Err()
		}
		d.errors = []string{fmt.Sprintf("decoder %q could not run: %v", tag.Decoder, err)}
	}
	m.log.Debug("decoder failed, payload kept raw", "decoder", tag.Decoder, "tag_id", tag.ID, "err", err)
	d.warnings = append(d.warnings, fmt.Sprintf("decoder %q failed; the payload was kept raw", tag.Decoder))
	out, rerr := m.deps.Decoders.Decode(ctx, decoders.Raw, in)
	if rerr != nil {
		return decoded{}, errors.Join(err, rerr)
	}
	values, ferr := parse.Flatten(out.Data)
	d.values = values
	return d, ferr
}

func setDefault(values map[string]any, key string, v float64) {
	if _, ok := values[key]; !ok {
		values[key] = v
	}
}

// pick returns the first number among values under one of the keys, the
// keys matched without regard to case.
func pick(values map[string]any, keys ...string) *float64 {
	for _, want := range keys {
		for k, v := range values {
			if f, ok := v.(float64); ok && strings.EqualFold(k, want) {
				return &f
			}
		}
	}
	return nil
}

// status stores a device's battery level and link margin, for a tag of the
// company, in a batch as uplinks are. The battery level also becomes the
// tag's battery, unless the node's own uplinks report one (batch.go).
func (m *Module) status(ctx context.Context, company int64, msg parse.Message) error {
	if msg.DevEUI == "" {
		return nil
	}
	return m.batches.do(ctx, &job{company: company, msg: msg})
}

// downlink records what the network server reports about a downlink the
// worker sent: the report names it by DownlinkRef. A report about a
// downlink of another company, or of another node than it names, changes
// nothing; so does one that would move a downlink back (a late txack after
// the device's ack).
func (m *Module) downlink(ctx context.Context, company int64, msg parse.Message) error {
	id := int64(0)
	for _, ref := range msg.Downlink.Refs {
		if n, ok := ParseDownlinkRef(ref); ok {
			id = n
			break
		}
	}
	if id == 0 {
		return nil
	}
	d, err := m.deps.Nodes.Downlink(ctx, id)
	switch {
	case errs.Is(err, errs.NotFound):
		return nil
	case err != nil:
		return fmt.Errorf("load downlink %d: %w", id, err)
	case d.CompanyID != company || msg.DevEUI != "" && parse.NormaliseEUI(d.DevEUI) != msg.DevEUI:
		m.log.Warn("downlink report about a downlink of another node", "downlink_id", id, "company_id", company, "dev_eui", msg.DevEUI)
		return nil
	}
	status, detail := "", ""
	switch msg.Kind {
	case parse.KindDownlinkSent:
		if d.Status != nodes.DownlinkQueued && d.Status != nodes.DownlinkSent {
			return nil
		}
		status = nodes.DownlinkSent
		if msg.Downlink.GatewayID != "" {
			detail = "transmitted by gateway " + msg.Downlink.GatewayID
		}
	case parse.KindDownlinkAck:
		status = nodes.DownlinkAcknowledged
		if !msg.Downlink.Acknowledged {
			status, detail = nodes.DownlinkFailed, "the device did not acknowledge the downlink"
		}
	case parse.KindDownlinkFailed:
		status, detail = nodes.DownlinkFailed, msg.Downlink.Error
	}
	if err := m.deps.Nodes.SetDownlinkStatus(ctx, id, status, detail); err != nil && !errs.Is(err, errs.NotFound) {
		return fmt.Errorf("set status of downlink %d: %w", id, err)
	}
	return nil
}
