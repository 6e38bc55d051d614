package sms

import (
	"context"
	"time"
)

// Test hooks for the outbox's tests (package sms_test, which may import
// kerneltest).

// DeliverOne runs one round of delivery.
func (o *Outbox) DeliverOne(ctx context.Context) bool { return o.deliverOne(ctx) }

// SetClock makes the outbox read the time from now.
func (o *Outbox) SetClock(now func() time.Time) { o.now = now }

// CrashAfterAccept makes deliverOne stop, unrecorded, right after the
// provider accepted a recipient whenever crash answers true.
func (o *Outbox) CrashAfterAccept(crash func() bool) { o.crashAfterAccept = crash }
