package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// inactivityPage is how many silent nodes one read of the nodes' latest
// times takes; inactivityScan is how many one transaction (and so one
// company's mail) covers at most: a scan meeting more goes on in a next
// transaction.
const (
	inactivityPage = 10000
	inactivityScan = 200000
)

// inactivityEach is up to how many newly silent nodes of one company a scan
// mails one by one; above it the company's contact gets one mail listing
// them (docs/decisions.md, "Inactivity mails"). summaryLines is how many
// nodes that mail names.
const (
	inactivityEach = 10
	summaryLines   = 1000
)

// errClaimed rolls back a scan whose nodes another run has claimed.
var errClaimed = errors.New("inactivity scan claimed by another run")

// ScanInactivity mails each company's inactivity contact (the company
// setting INACTIVITY_EMAIL) about its nodes whose latest uplink lies at
// least FIELDHUB_INACTIVITY_AFTER before now, once per silence. It walks
// the nodes' latest times from its mark (one range scan of an index per
// page), so that a run reads only the nodes that fell silent since the
// last; a node that speaks again gets a later latest time and is met again
// when it falls silent again. The mails are queued in the transaction that
// moves the mark past those nodes with a compare-and-swap
// (store.AdvanceMark), so that two instances, or a run after a crash, never
// mail one silence twice, and no write is made per node: the first scan of
// a fleet that fell silent at once costs a read of its nodes and a mail per
// company (docs/performance.md, "Inactivity scan"). A company with up to
// inactivityEach newly silent nodes gets a mail per node, one with more a
// single mail listing them.
func (e *Engine) ScanInactivity(ctx context.Context, now time.Time) error {
	until := now.UTC().Add(-e.deps.Config.InactivityAfter)
	after, afterID, err := store.Mark(ctx, e.db)
	if err != nil {
		return err
	}
	contacts := map[int64]string{}
	zones := map[int64]*time.Location{}
	for {
		var silent []nodes.SilentTag
		for len(silent) < inactivityScan {
			from, fromID := after, afterID
			if n := len(silent); n > 0 {
				from, fromID = silent[n-1].LatestTime, silent[n-1].ID
			}
			page, err := e.deps.Tags.SilentTags(ctx, from, fromID, until, inactivityPage)
			if err != nil {
				return err
			}
			silent = append(silent, page...)
			if len(page) < inactivityPage {
				break
			}
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
		// Newly silent nodes by company, in order of silence.
		byCompany := map[int64][]nodes.SilentTag{}
		var order []int64
		for _, t := range silent {
			if contacts[t.CompanyID] == "" {
				continue
			}
			if _, ok := byCompany[t.CompanyID]; !ok {
				order = append(order, t.CompanyID)
			}
			byCompany[t.CompanyID] = append(byCompany[t.CompanyID], t)
		}
		var mails []mail.Message
		for _, c := range order {
			mails = append(mails, silenceMails(byCompany[c], contacts[c], e.zone(ctx, c, zones), now)...)
		}
		err = e.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			// The claim first: a second instance waits here, not after
			// writing mails it would roll back.
			ok, err := store.AdvanceMark(ctx, tx, after, afterID, last.LatestTime, last.ID)
			if err != nil {
				return err
			}
			if !ok {
				return errClaimed
			}
			e.queued.Add(1)
			for _, m := range mails {
				if err := e.mail.Enqueue(ctx, tx, m); err != nil {
					return err
				}
			}
			return nil
		})
		if errors.Is(err, errClaimed) {
			return nil // another instance mails these silences
		}
		if err != nil {
			return err
		}
		after, afterID = last.LatestTime, last.ID
		if len(silent) < inactivityScan {
			return nil
		}
	}
}

// zone answers a company's time zone, UTC when it cannot be read.
func (e *Engine) zone(ctx context.Context, companyID int64, zones map[int64]*time.Location) *time.Location {
	loc, ok := zones[companyID]
	if !ok {
		loc = time.UTC
		if c, err := e.deps.Accounts.Company(ctx, companyID); err == nil {
			loc = c.Location()
		}
		zones[companyID] = loc
	}
	return loc
}

// silenceMails are the mails to one company's inactivity contact about its
// newly silent nodes: one per node up to inactivityEach, else one listing
// them (the first summaryLines by name, then how many more).
func silenceMails(list []nodes.SilentTag, contact string, loc *time.Location, now time.Time) []mail.Message {
	if len(list) == 0 {
		return nil
	}
	companyID := list[0].CompanyID
	since := func(t nodes.SilentTag) string {
		return fmt.Sprintf("since %s, %d hours ago", t.LatestTime.In(loc).Format("2006-01-02 15:04 MST"), int(now.Sub(t.LatestTime).Hours()))
	}
	if len(list) <= inactivityEach {
		out := make([]mail.Message, len(list))
		for i, t := range list {
			text := fmt.Sprintf("The node %s (%s) has sent nothing %s.\n\nIts data and settings: /tagdetails/%s", t.Name, t.DevEUI, since(t), t.DevEUI)
			out[i] = mail.Message{CompanyID: companyID, To: []string{contact}, Subject: "Inactive node: " + t.Name, Text: text}
		}
		return out
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d nodes have sent nothing for at least %d hours:\n\n", len(list), int(now.Sub(list[len(list)-1].LatestTime).Hours()))
	for i, t := range list {
		if i == summaryLines {
			fmt.Fprintf(&b, "\n... and %d more nodes.\n", len(list)-summaryLines)
			break
		}
		fmt.Fprintf(&b, "%s (%s) %s: /tagdetails/%s\n", t.Name, t.DevEUI, since(t), t.DevEUI)
	}
	return []mail.Message{{CompanyID: companyID, To: []string{contact}, Subject: fmt.Sprintf("Inactive nodes: %d", len(list)), Text: b.String()}}
}
