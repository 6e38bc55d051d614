package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// inactivityBatch is how many silent nodes one transaction takes.
const inactivityBatch = 500

// ScanInactivity mails each company's inactivity contact (the company
// setting INACTIVITY_EMAIL) about its nodes whose latest uplink lies at
// least FIELDHUB_INACTIVITY_AFTER before now, once per silence. It walks
// the nodes' latest times from its mark (one range scan of an index per
// batch), so that a run reads only the nodes that fell silent since the
// last; a node that speaks again gets a later latest time and is met again
// when it falls silent again. Each mail is queued in the transaction that
// records the silence with a conditional upsert, so that two instances, or
// a run after a crash, never mail one silence twice.
func (e *Engine) ScanInactivity(ctx context.Context, now time.Time) error {
	until := now.UTC().Add(-e.deps.Config.InactivityAfter)
	after, afterID, err := store.Mark(ctx, e.db)
	if err != nil {
		return err
	}
	contacts := map[int64]string{}
	zones := map[int64]*time.Location{}
	for {
		silent, err := e.deps.Tags.SilentTags(ctx, after, afterID, until, inactivityBatch)
		if err != nil {
			return err
		}
		if len(silent) == 0 {
			return nil
		}
		for _, t := range silent {
			if _, ok := contacts[t.CompanyID]; !ok {
				set, err := e.deps.Settings.Company(ctx, t.CompanyID)
				if err != nil {
					return fmt.Errorf("settings of company %d: %w", t.CompanyID, err)
				}
				contacts[t.CompanyID] = strings.TrimSpace(set["INACTIVITY_EMAIL"])
			}
		}
		last := silent[len(silent)-1]
		err = e.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			list := make([]store.Silence, len(silent))
			for i, t := range silent {
				list[i] = store.Silence{TagID: t.ID, Since: t.LatestTime}
			}
			first, err := store.Notices(ctx, tx, list, now)
			if err != nil {
				return err
			}
			for _, t := range silent {
				if !first[t.ID] || contacts[t.CompanyID] == "" {
					continue
				}
				if err := e.mailSilence(ctx, tx, t, contacts[t.CompanyID], zones, now); err != nil {
					return err
				}
			}
			return store.SetMark(ctx, tx, last.LatestTime, last.ID)
		})
		if err != nil {
			return err
		}
		after, afterID = last.LatestTime, last.ID
		if len(silent) < inactivityBatch {
			return nil
		}
	}
}

// mailSilence queues the mail about node t's silence to its company's
// inactivity contact, in tx.
func (e *Engine) mailSilence(ctx context.Context, tx bun.Tx, t nodes.SilentTag, contact string, zones map[int64]*time.Location, now time.Time) error {
	loc, ok := zones[t.CompanyID]
	if !ok {
		loc = time.UTC
		if c, err := e.deps.Accounts.Company(ctx, t.CompanyID); err == nil {
			loc = c.Location()
		}
		zones[t.CompanyID] = loc
	}
	hours := int(now.Sub(t.LatestTime).Hours())
	text := fmt.Sprintf("The node %s (%s) has sent nothing since %s, %d hours ago.\n\nIts data and settings: /tagdetails/%s",
		t.Name, t.DevEUI, t.LatestTime.In(loc).Format("2006-01-02 15:04 MST"), hours, t.DevEUI)
	return e.mail.Enqueue(ctx, tx, mail.Message{To: []string{contact}, Subject: "Inactive node: " + t.Name, Text: text})
}
