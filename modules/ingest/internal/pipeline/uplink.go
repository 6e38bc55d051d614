package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// uplink stores an uplink of a node of company, or puts its DevEUI in the
// pool. It returns once the values and the node's state are durable: the
// work is done in a batch with the uplinks of other requests (batch.go).
// An uplink that a codec decodes is handed back by the batch that looked
// its tag up; the request decodes it itself, within the company's decode
// budget, and only the decoded uplink joins another batch, which stores it.
func (p *Pipeline) uplink(ctx context.Context, company int64, msg ingest.Message) (ingest.UplinkResult, error) {
	j := &job{company: company, msg: msg, received: time.Now().UTC()}
	if err := p.batches.do(ctx, j); err != nil {
		return ingest.UplinkResult{}, err
	}
	if j.tag == nil {
		return ingest.UplinkResult{DevEUI: msg.Uplink.DevEUI, Pooled: true}, p.pool(ctx, company, msg)
	}
	if j.decode {
		err := p.prepare(ctx, j)
		if j.switchOff != nil {
			p.logDecoderOff(ctx, company, msg.Uplink.DevEUI, j.switchOff)
		}
		if err != nil {
			return ingest.UplinkResult{}, err
		}
		j.prepared = true
		if err := p.batches.do(ctx, j); err != nil {
			return ingest.UplinkResult{}, err
		}
	}
	p.host.Bus.Publish(ctx, *j.event)
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
	// switchOff is set when this decode switched the decoder off.
	switchOff *decoders.SwitchOff
}

// decode turns an uplink into flat values. The network server's decoded
// object is used when the tag keeps payloads raw, or when there is no
// payload to decode; otherwise the tag's decoder decodes the payload, under
// the limits of the tag's company. A decoder that is gone, cannot run or
// fails (a throw, a broken limit), or whose company's decode budget does
// not let it start within maxWait (0: no bound), leaves the payload raw
// rather than lose it, and what it failed with is reported.
func (p *Pipeline) decode(ctx context.Context, tag *nodes.Tag, u *ingest.Uplink, maxWait time.Duration) (decoded, error) {
	if u.Object != nil && (tag.Decoder == decoders.Raw || len(u.Payload) == 0) {
		values, err := ingest.Flatten(u.Object)
		return decoded{values: values}, err // the parser has checked the object, so err is nil
	}
	if len(u.Payload) == 0 {
		return decoded{values: map[string]any{}}, nil
	}
	in := decoders.Input{Company: tag.CompanyID, FPort: u.FPort, Bytes: u.Payload, RecvTime: u.Time, MaxWait: maxWait}
	out, err := p.deps.Decoding.Decode(ctx, tag.Decoder, in)
	d := decoded{switchOff: out.SwitchOff}
	switch {
	case err == nil && (out.Data != nil || len(out.Errors) == 0):
		d.errors = out.Errors
		d.warnings = append(append(d.warnings, out.Warnings...), out.Errors...)
		values, ferr := ingest.Flatten(out.Data)
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
	p.log.Debug("decoder failed, payload kept raw", "decoder", tag.Decoder, "tag_id", tag.ID, "err", err)
	d.warnings = append(d.warnings, fmt.Sprintf("decoder %q failed; the payload was kept raw", tag.Decoder))
	out, rerr := p.deps.Decoding.Decode(ctx, decoders.Raw, in)
	if rerr != nil {
		return decoded{switchOff: d.switchOff}, errors.Join(err, rerr)
	}
	values, ferr := ingest.Flatten(out.Data)
	d.values = values
	return d, ferr
}

func setDefault(values map[string]any, key string, v float64) {
	if _, ok := values[key]; !ok {
		values[key] = v
	}
}

// status stores a device's battery level and link margin, for a tag of the
// company, in a batch as uplinks are. The battery level also becomes the
// tag's battery, unless the node's own uplinks report one (batch.go).
func (p *Pipeline) status(ctx context.Context, company int64, msg ingest.Message) error {
	if msg.DevEUI == "" {
		return nil
	}
	return p.batches.do(ctx, &job{company: company, msg: msg})
}
