// Package audit is the kernel's one event type for the audit trail: a
// module announces each change a person made (a user edited, a setting
// saved, a decoder activated) as a Change on the bus, and the logs module
// writes it as a USEREVENT entry. One type for every module keeps the
// trail's shape (who, which company, what, before and after) in one place;
// each module names its changes with message ids of its own.
package audit

import (
	"context"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/events"
)

// Masked stands for a secret's value in Before and After: that it was set
// (or changed) is told, never what it is.
const Masked = "••••••"

// Change is one change a person made.
type Change struct {
	// UserID is who made it; Announce takes it from the request's caller
	// when it is 0. A change with neither (a job, the demo) is not
	// announced.
	UserID int64
	// CompanyID is the company the change belongs to, 0 for the
	// installation (global settings, companies themselves).
	CompanyID int64
	// MessageID names what was done, a key of the locale catalogs whose
	// placeholders Args fill; the logs module adds {user}, who did it.
	MessageID string
	Args      map[string]any
	// Before and After are the changed fields' values, where a change has
	// them (settings, roles, names); secrets are Masked.
	Before map[string]any
	After  map[string]any
	At     time.Time
}

// Topic names the event.
func (Change) Topic() string { return "audit.change" }

// Announce publishes c on bus, with the caller of ctx as who made it when
// c names nobody, and now as its time. A change without a person is
// dropped: the trail is of what people do.
func Announce(ctx context.Context, bus events.Bus, c Change) {
	if c.UserID == 0 {
		c.UserID = auth.CallerFrom(ctx).UserID
	}
	if c.UserID == 0 || bus == nil {
		return
	}
	if c.At.IsZero() {
		c.At = time.Now()
	}
	if c.Args == nil {
		c.Args = map[string]any{}
	}
	// The request may end before the bus takes the change; the change
	// must not end with it.
	bus.Publish(context.WithoutCancel(ctx), c)
}

// Diff keeps the keys whose values differ between before and after (a key
// missing on one side counts as nil there), so that an entry shows what
// changed and nothing else. Values compare by their printed form.
func Diff(before, after map[string]any) (b, a map[string]any) {
	b, a = map[string]any{}, map[string]any{}
	for k, v := range after {
		if fmt.Sprint(before[k]) != fmt.Sprint(v) {
			b[k], a[k] = before[k], v
		}
	}
	for k, v := range before {
		if _, ok := after[k]; !ok {
			b[k], a[k] = v, nil
		}
	}
	return b, a
}

// Empty reports whether a diff holds no change.
func Empty(m map[string]any) bool { return len(m) == 0 }

// Mask replaces the values of the named keys of each map with Masked (an
// empty value stays empty: "not set" is no secret). Compare secrets by
// value with Diff first, then mask what is shown.
func Mask(keys []string, maps ...map[string]any) {
	for _, m := range maps {
		for _, k := range keys {
			if v, ok := m[k]; ok && v != nil && v != "" {
				m[k] = Masked
			}
		}
	}
}
