package queue

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// encode encodes a JSON downlink with the encodeDownlink of t's decoder,
// when it has one, so that what is queued is the bytes the node gets (shown
// beside the object) and the port the codec chose. An object the encoder
// refuses is the caller's mistake (a 4xx naming the encoder's errors); a
// decoder without an encoder leaves the downlink as it was, for the worker
// to report (netservers.IDFailJSON).
func (q *Queue) encode(ctx context.Context, t *nodes.Tag, d *netservers.Downlink) error {
	if d.PayloadType != "json" || q.enc == nil || t.Decoder == "" {
		return nil
	}
	got, err := q.enc.EncodeDownlink(ctx, t.CompanyID, t.Decoder, d.Port, d.Object())
	var e *errs.Error
	switch {
	case err == nil:
	case errors.As(err, &e) && e.ID == decoders.IDEncodeFailed:
		v := &errs.Validation{}
		v.AddArgs("payload", decoders.IDEncodeFailed, e.Args)
		return v.Err()
	case errors.As(err, &e) && (e.Kind == errs.Invalid || e.Kind == errs.NotFound || e.Kind == errs.Unavailable):
		return nil // no encoder (or none running): queued as before
	default:
		return err
	}
	if len(got.Bytes) == 0 {
		v := &errs.Validation{}
		v.AddArgs("payload", decoders.IDEncodeFailed, map[string]any{"errors": `["no bytes"]`})
		return v.Err()
	}
	d.Encoded = strings.ToUpper(hex.EncodeToString(got.Bytes))
	if got.FPort > 0 && got.FPort <= maxPort {
		d.Port = got.FPort
	}
	return nil
}
