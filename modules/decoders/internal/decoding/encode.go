package decoding

import (
	"context"
	"errors"
	"fmt"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// EncodeDownlink encodes a downlink's object with the encoder of the codec
// key names for company; see decoders.Encoder. It runs within the
// company's decode budget and limits, like its uplinks' decodes.
func (s *Service) EncodeDownlink(ctx context.Context, company int64, key string, fPort int, data map[string]any) (*decoders.Encoded, error) {
	if key == decoders.Raw {
		return nil, errs.New(errs.Invalid, decoders.IDNoEncoder)
	}
	l, err := s.resolve(ctx, company, key)
	if err != nil {
		return nil, err
	}
	switch {
	case l.off != nil:
		return nil, encodeFailed([]string{switchedOffText(l.off)})
	case l.fail != nil:
		return nil, encodeFailed([]string{failure(l.fail)})
	case !l.codec.Can(sandbox.OpEncodeDownlink):
		return nil, errs.New(errs.Invalid, decoders.IDNoEncoder)
	}
	lim, err := s.companyLimits(ctx, company)
	if err != nil {
		return nil, err
	}
	var res sandbox.EncodeResult
	err = s.runBudgeted(ctx, company, func() error {
		l.touch()
		var err error
		res, err = l.codec.EncodeDownlink(ctx, sandbox.DownlinkInput{Data: data, FPort: fPort, Tenant: tenant(company)}, lim)
		return err
	})
	var se *sandbox.Error
	switch {
	case errors.As(err, &se):
		return nil, encodeFailed(append(res.Errors, failure(se)))
	case errors.Is(err, sandbox.ErrClosed):
		return nil, errNotStarted()
	case err != nil:
		return nil, fmt.Errorf("encode downlink with %s: %w", key, err)
	case len(res.Errors) > 0:
		return nil, encodeFailed(res.Errors)
	}
	out := &decoders.Encoded{Bytes: res.Bytes, FPort: res.FPort, Warnings: res.Warnings}
	if out.Bytes == nil {
		out.Bytes = []byte{}
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return out, nil
}

func encodeFailed(list []string) error {
	return errs.New(errs.Invalid, decoders.IDEncodeFailed).With("errors", fmt.Sprintf("%q", list))
}
