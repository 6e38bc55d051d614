package decoding

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/store"
)

// A company's own decoder whose decodes break a sandbox limit (time,
// memory, stack, output) Config.SwitchOffAfter times in a row on an
// instance is switched off: the row of decoders says since when and why,
// every instance's codec cache reads it within customCheck, and a
// switched-off decoder answers at once, without running, that it is off.
// Its nodes' uplinks are stored raw and kept for decoding again. Saving or
// activating a version, or SwitchOn, switches it on again
// (docs/decisions.md, "Decode budgets and switch-off").

// strikes counts, per custom decoder, the decodes in a row on this
// instance that broke a limit, for the version (hash) that broke them.
type strikes struct {
	after int // 0: never switch off
	mu    sync.Mutex
	m     map[int64]strike
}

type strike struct {
	hash string
	n    int
}

func (st *strikes) init(after int) {
	st.after = after
	st.m = map[int64]strike{}
}

// note records the outcome of a decode of l (limit: it broke a limit) and
// reports whether it was the last of st.after in a row, which starts the
// count over.
func (st *strikes) note(l *loaded, limit bool) bool {
	if st.after <= 0 {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	k, ok := st.m[l.id]
	if !limit {
		if ok {
			delete(st.m, l.id)
		}
		return false
	}
	if k.hash != l.hash {
		k = strike{hash: l.hash}
	}
	k.n++
	if k.n >= st.after {
		delete(st.m, l.id)
		return true
	}
	if len(st.m) >= 10_000 {
		st.m = map[int64]strike{} // bounded; forgetting only delays a switch-off
	}
	st.m[l.id] = k
	return false
}

// reset starts decoder id's count over.
func (st *strikes) reset(id int64) {
	st.mu.Lock()
	delete(st.m, id)
	st.mu.Unlock()
}

// limitBroken reports whether a codec failure is a broken limit, the
// failures that cost others' time: a throw or a result of the wrong shape
// is the codec's answer about a payload, and cheap.
func limitBroken(e *sandbox.Error) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case sandbox.KindTime, sandbox.KindMemory, sandbox.KindStack, sandbox.KindOutput:
		return true
	}
	return false
}

// noteOutcome counts a decode of custom decoder l and, when it was the last
// straw, switches the decoder off and tells so in out.SwitchOff.
func (s *Service) noteOutcome(ctx context.Context, l *loaded, failed *sandbox.Error, out *decoders.Output) {
	if !s.strikes.note(l, limitBroken(failed)) {
		return
	}
	off, err := s.switchOff(context.WithoutCancel(ctx), l, failed)
	if err != nil {
		s.log.Error("switch off a decoder that keeps breaking its limits", "decoder_id", l.id, "company_id", l.company, "err", err)
		return
	}
	out.SwitchOff = off
}

// switchOff switches decoder l off for its failure, unless it is off
// already or another version became active meanwhile (nil then).
func (s *Service) switchOff(ctx context.Context, l *loaded, failed *sandbox.Error) (*decoders.SwitchOff, error) {
	at := time.Now().UTC().Truncate(time.Microsecond)
	reason := clipText(failed.Error(), 300)
	done, err := store.SwitchOff(ctx, s.db, l.id, l.hash, at, reason)
	if err != nil || !done {
		return nil, err
	}
	s.codecs.dropCustom(l.id)
	off := &decoders.SwitchOff{DecoderID: l.id, Name: l.name, At: at, Reason: reason}
	s.log.Warn("decoder switched off: its decodes broke the sandbox's limits again and again", "decoder_id", l.id,
		"company_id", l.company, "in_a_row", s.strikes.after, "reason", reason)
	s.host.Bus.Publish(ctx, decoders.DecoderSwitchedOff{CompanyID: l.company, Key: decoders.CustomKey(l.id), SwitchOff: *off})
	return off, nil
}

// switchedOffText is what a decode of a switched-off decoder answers in
// Output.Errors, and so what an uplink's record keeps.
func switchedOffText(off *decoders.SwitchOff) string {
	return fmt.Sprintf("decoder switched off since %s after decodes in a row broke its limits (%s): save a new version or switch it on again",
		off.At.UTC().Format("2006-01-02 15:04 UTC"), off.Reason)
}

// SwitchOn switches decoder d on again; see decoders.Service. Switching
// on a decoder that decodes changes nothing.
func (s *Service) SwitchOn(ctx context.Context, d *decoders.Decoder) error {
	if err := store.SwitchOn(ctx, s.db, d.ID); err != nil {
		return err
	}
	s.switchedOn(d.ID)
	if d.SwitchedOffAt != nil {
		s.announce(ctx, d.CompanyID, decoders.AuditSwitchedOn, map[string]any{"name": d.Name}, nil, nil)
	}
	return nil
}

// switchedOn forgets what this instance knew of decoder id's switch-off.
func (s *Service) switchedOn(id int64) {
	s.codecs.dropCustom(id)
	s.strikes.reset(id)
}

// SwitchedOff tells why company's decoder key is switched off; see
// decoders.Service.
func (s *Service) SwitchedOff(ctx context.Context, company int64, key string) (*decoders.SwitchOff, error) {
	id, ok := decoders.CustomID(key)
	if !ok || company == 0 {
		return nil, nil
	}
	d, err := store.Decoder(ctx, s.db, id)
	switch {
	case errs.Is(err, errs.NotFound):
		return nil, nil
	case err != nil:
		return nil, err
	case d.CompanyID != company || d.SwitchedOffAt == nil:
		return nil, nil
	}
	return &decoders.SwitchOff{DecoderID: d.ID, Name: d.Name, At: *d.SwitchedOffAt, Reason: d.SwitchedOffReason}, nil
}

// clipText cuts s to at most n bytes, on a character boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
