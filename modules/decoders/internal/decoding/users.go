package decoding

import (
	"context"

	"github.com/fieldhub/fieldhub/modules/decoders"
)

// RegisterUsers adds u to the modules asked which nodes use a decoder.
func (s *Service) RegisterUsers(u decoders.Users) {
	s.mu.Lock()
	s.users = append(s.users, u)
	s.mu.Unlock()
}

// DecoderNodes lists the nodes of company that name key, as the registered
// Users answer; none registered, none.
func (s *Service) DecoderNodes(ctx context.Context, company int64, key string) ([]decoders.NodeRef, error) {
	s.mu.RLock()
	users := s.users
	s.mu.RUnlock()
	list := []decoders.NodeRef{}
	for _, u := range users {
		refs, err := u.DecoderNodes(ctx, company, key)
		if err != nil {
			return nil, err
		}
		list = append(list, refs...)
	}
	return list, nil
}
