// Command echo is a plugin for smstest's own tests: it accepts every
// message, answering an id made of its idempotency key, and refuses the
// number +46000000000 as a provider would.
package main

import (
	"context"

	"github.com/fieldhub/fieldhub/sdk/sms"
)

type echo struct{}

func (echo) Send(_ context.Context, req sms.Request) (sms.Response, error) {
	if req.To == "+46000000000" {
		return sms.Response{}, sms.ProviderRefused("403", "Invalid to number", false)
	}
	return sms.Response{ID: "echo-" + req.IdempotencyKey, Status: "created"}, nil
}

func main() { sms.Serve(echo{}) }
