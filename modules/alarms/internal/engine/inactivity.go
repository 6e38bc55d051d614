package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/modules/alarms"
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
// least their silence before now, once per silence: FIELDHUB_INACTIVITY_AFTER
// for a node without an expected uplink interval, alarms.MissedUplinks
// times the interval for one with (its device profile's). The nodes of
// each interval are scanned apart (scanSilence), each group from its own
// mark, since one order of latest times serves one silence only; the
// intervals are few (one per device profile at most).
func (e *Engine) ScanInactivity(ctx context.Context, now time.Time) error {
	intervals, err := e.deps.Tags.UplinkIntervals(ctx)
	if err != nil {
		return err
	}
	s := &silenceScan{now: now.UTC(), contacts: map[int64]string{}, zones: map[int64]*time.Location{}}
	for _, every := range append([]time.Duration{0}, intervals...) {
		silence := e.deps.Config.InactivityAfter
		if every > 0 {
			silence = alarms.MissedUplinks * every
		}
		if err := e.scanSilence(ctx, s, every, silence); err != nil {
			return err
		}
	}
	return nil
}

// silenceScan is what one run of the inactivity job has read of the
// companies: their inactivity contacts and time zones.
type silenceScan struct {
	now      time.Time
	contacts map[int64]string
	zones    map[int64]*time.Location
}

// scanSilence mails about the nodes of expected uplink interval every (0:
// none) silent for at least silence. It walks their latest times from the
// group's mark (one range scan of an index per page), so that a run reads
// only the nodes that fell silent since the last; a node that speaks again
// gets a later latest time and is met again when it falls silent again.
// The mails are queued in the transaction that moves the mark past those
// nodes with a compare-and-swap (store.AdvanceMark), so that two
// instances, or a run after a crash, never mail one silence twice, and no
// write is made per node: the first scan of a fleet that fell silent at
// once costs a read of its nodes and a mail per company
// (docs/performance.md, "Inactivity scan"). A company with up to
// inactivityEach newly silent nodes gets a mail per node, one with more a
// single mail listing them.
func (e *Engine) scanSilence(ctx context.Context, s *silenceScan, every, silence time.Duration) error {
	until := s.now.Add(-silence)
	after, afterID, err := store.Mark(ctx, e.db, every)
	if err != nil {
		return err
	}
	for {
		var silent []nodes.SilentTag
		for len(silent) < inactivityScan {
			from, fromID := after, afterID
			if n := len(silent); n > 0 {
				from, fromID = silent[n-1].LatestTime, silent[n-1].ID
			}
			page, err := e.deps.Tags.SilentTags(ctx, every, from, fromID, until, inactivityPage)
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
			if _, ok := s.contacts[t.CompanyID]; !ok {
				set, err := e.deps.Settings.Company(ctx, t.CompanyID)
				if err != nil {
					return fmt.Errorf("settings of company %d: %w", t.CompanyID, err)
				}
				s.contacts[t.CompanyID] = strings.TrimSpace(set["INACTIVITY_EMAIL"])
			}
		}
		last := silent[len(silent)-1]
		// Newly silent nodes by company, in order of silence.
		byCompany := map[int64][]nodes.SilentTag{}
		var order []int64
		for _, t := range silent {
			if s.contacts[t.CompanyID] == "" {
				continue
			}
			if _, ok := byCompany[t.CompanyID]; !ok {
				order = append(order, t.CompanyID)
			}
			byCompany[t.CompanyID] = append(byCompany[t.CompanyID], t)
		}
		var mails []mail.Message
		for _, c := range order {
			mails = append(mails, silenceMails(byCompany[c], s.contacts[c], e.zone(ctx, c, s.zones), s.now)...)
		}
		err = e.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			// The claim first: a second instance waits here, not after
			// writing mails it would roll back.
			ok, err := store.AdvanceMark(ctx, tx, every, after, afterID, last.LatestTime, last.ID)
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
		return fmt.Sprintf("since %s, %s ago", t.LatestTime.In(loc).Format("2006-01-02 15:04 MST"), silentFor(now.Sub(t.LatestTime)))
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
	fmt.Fprintf(&b, "%d nodes have sent nothing for at least %s:\n\n", len(list), silentFor(now.Sub(list[len(list)-1].LatestTime)))
	for i, t := range list {
		if i == summaryLines {
			fmt.Fprintf(&b, "\n... and %d more nodes.\n", len(list)-summaryLines)
			break
		}
		fmt.Fprintf(&b, "%s (%s) %s: /tagdetails/%s\n", t.Name, t.DevEUI, since(t), t.DevEUI)
	}
	return []mail.Message{{CompanyID: companyID, To: []string{contact}, Subject: fmt.Sprintf("Inactive nodes: %d", len(list)), Text: b.String()}}
}

// silentFor tells a silence in whole hours, or in minutes below two hours:
// a node expected every few minutes is mailed about well within the hour.
func silentFor(d time.Duration) string {
	if d < 2*time.Hour {
		return fmt.Sprintf("%d minutes", int(d.Minutes()))
	}
	return fmt.Sprintf("%d hours", int(d.Hours()))
}
