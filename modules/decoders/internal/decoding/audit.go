package decoding

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/audit"
)

// announce puts a change to a company's decoders on the audit trail.
func (s *Service) announce(ctx context.Context, company int64, id string, args, before, after map[string]any) {
	audit.Announce(ctx, s.host.Bus, audit.Change{CompanyID: company, MessageID: id, Args: args, Before: before, After: after})
}
