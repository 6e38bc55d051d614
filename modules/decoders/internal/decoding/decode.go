package decoding

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/catalog"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/store"
)

// Decode runs the decoder named key within in.Company's decode budget;
// see decoders.Service.
func (s *Service) Decode(ctx context.Context, key string, in decoders.Input) (decoders.Output, error) {
	if err := ctx.Err(); err != nil {
		return decoders.Output{}, err
	}
	if key == decoders.Raw {
		return decodeRaw(in), nil
	}
	l, err := s.resolve(ctx, in.Company, key)
	if err != nil {
		return decoders.Output{}, err
	}
	lim, err := s.companyLimits(ctx, in.Company)
	if err != nil {
		return decoders.Output{}, err
	}
	switch {
	case l.off != nil:
		return decoders.Output{Errors: []string{switchedOffText(l.off)}}, nil
	case l.fail != nil:
		return decoders.Output{Errors: []string{failure(l.fail)}}, nil
	}
	release, err := s.budget.acquireWithin(ctx, in.Company, in.MaxWait)
	if errors.Is(err, errBudgetWait) {
		return decoders.Output{Errors: []string{budgetText(in.MaxWait)}}, nil
	}
	if err != nil {
		return decoders.Output{}, err
	}
	if l.id != 0 {
		// While this decode waited for its turn, the decoder may have
		// been switched off (by the decodes before it) or got a new
		// version: a backlog of a looping decoder's uplinks must not run
		// it again, one after the other, once it is off.
		if l, err = s.resolve(ctx, in.Company, key); err != nil {
			release(0)
			return decoders.Output{}, err
		}
		switch {
		case l.off != nil:
			release(0)
			return decoders.Output{Errors: []string{switchedOffText(l.off)}}, nil
		case l.fail != nil:
			release(0)
			return decoders.Output{Errors: []string{failure(l.fail)}}, nil
		}
	}
	out, failed, err := run(ctx, l, in, lim, tenant(in.Company))
	if err == nil && l.id != 0 {
		// Before the slot is let go, so that the company's next decode
		// finds the decoder switched off if this one was the last straw.
		s.noteOutcome(ctx, l, failed, &out)
	}
	release(out.Duration)
	return out, err
}

// budgetText is what a decode answers in Output.Errors when its company's
// budget did not let it start within Input.MaxWait.
func budgetText(waited time.Duration) string {
	return fmt.Sprintf("decoder not run: the company's decode budget was used up for longer than %s (the payload is kept for decoding again)", waited)
}

// tenant is the sandbox's tenant of a company's uplinks: what a codec left
// after one of its calls may reach the company's next uplinks, never another
// company's (sandbox.Input.Tenant). Company 0 has none: each call starts
// clean.
func tenant(company int64) string {
	if company == 0 {
		return ""
	}
	return strconv.FormatInt(company, 10)
}

// decodeRaw keeps a payload as it came: its bytes in lower-case hex, the
// spelling of ChirpStack's and most device manuals' examples, and its
// length, which tells frames of different types apart.
func decodeRaw(in decoders.Input) decoders.Output {
	data := map[string]any{"length": len(in.Bytes)}
	if len(in.Bytes) > 0 {
		data["raw"] = hex.EncodeToString(in.Bytes)
	}
	return decoders.Output{Data: data}
}

// run decodes in with a loaded codec for tenant (see sandbox.Input.Tenant):
// a codec that fails answers an Output whose Errors say why, and failed is
// the sandbox's failure.
func run(ctx context.Context, l *loaded, in decoders.Input, lim sandbox.Limits, tenant string) (out decoders.Output, failed *sandbox.Error, err error) {
	l.touch()
	if l.fail != nil {
		return decoders.Output{Errors: []string{failure(l.fail)}}, nil, nil
	}
	res, err := l.codec.DecodeUplink(ctx, sandbox.Input{Bytes: in.Bytes, FPort: in.FPort, RecvTime: in.RecvTime, Variables: in.Variables, Tenant: tenant}, lim)
	out = decoders.Output{Data: res.Data, Warnings: res.Warnings, Errors: res.Errors, Log: res.Log, Duration: res.Duration}
	if err == nil {
		return out, nil, nil
	}
	if ctx.Err() != nil {
		return out, nil, ctx.Err()
	}
	var se *sandbox.Error
	switch {
	case errors.As(err, &se):
		out.Data = nil
		out.Errors = append(out.Errors, failure(se))
		return out, se, nil
	case errors.Is(err, sandbox.ErrClosed):
		return out, nil, errNotStarted()
	}
	return out, nil, fmt.Errorf("decode: %w", err)
}

// runBudgeted runs what a test call or the check of a new version does
// with a codec (loading it, decoding with it) within company's decode
// budget, charged with the time it took: a CompanyAdmin trying a looping
// script again and again spends the company's budget, not everyone's
// processors.
func (s *Service) runBudgeted(ctx context.Context, company int64, f func() error) error {
	release, err := s.budget.acquire(ctx, company)
	if err != nil {
		return err
	}
	t0 := time.Now()
	defer func() { release(time.Since(t0)) }()
	return f()
}

// failure is the text a codec failure is reported with, beside the codec's
// own errors: "decoder failed (time_limit): time limit of 50 ms exceeded".
func failure(e *sandbox.Error) string {
	return fmt.Sprintf("decoder failed (%s): %s", e.Kind, e.Error())
}

// Has reports whether company may name key; see decoders.Service.
func (s *Service) Has(ctx context.Context, company int64, key string) (bool, error) {
	if id, ok := decoders.CustomID(key); ok {
		if company == 0 {
			return false, nil
		}
		return store.IsCompanys(ctx, s.db, id, company)
	}
	if decoders.IsRepoKey(key) {
		return s.hasRepoCodec(ctx, key)
	}
	_, ok := s.builtins[key]
	return ok, nil
}

// Catalog lists the decoders a node of company may use; see
// decoders.Service.
func (s *Service) Catalog(ctx context.Context, company int64) ([]decoders.Entry, error) {
	list := append(make([]decoders.Entry, 0, len(s.catalog)+8), s.catalog...)
	repo, err := s.repoEntries(ctx)
	if err != nil {
		return nil, err
	}
	if len(repo) > 0 {
		list = append(list, repo...)
		catalog.Sort(list)
	}
	if company == 0 {
		return list, nil
	}
	own, err := store.Decoders(ctx, s.db, company)
	if err != nil {
		return nil, err
	}
	for _, d := range own {
		list = append(list, decoders.Entry{Key: decoders.CustomKey(d.ID), Name: d.Name, Custom: true})
	}
	catalog.Sort(list)
	return list, nil
}
