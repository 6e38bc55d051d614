package reports_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// mailTimeout bounds the wait for the outbox to deliver.
const mailTimeout = 30 * time.Second

// attachment returns the file of m whose name ends in suffix.
func attachment(tb testing.TB, m kerneltest.Mail, suffix string) []byte {
	tb.Helper()
	for _, a := range m.Attachments {
		if strings.HasSuffix(a.Name, suffix) {
			return a.Data
		}
	}
	tb.Fatalf("no %s attachment in %q (%d files)", suffix, m.Subject, len(m.Attachments))
	return nil
}

// waitSubject waits for the mail to `to` whose subject contains part.
func waitSubject(tb testing.TB, in *kerneltest.Inbox, to, part string) kerneltest.Mail {
	tb.Helper()
	deadline := time.Now().Add(mailTimeout)
	for time.Now().Before(deadline) {
		for _, m := range in.All() {
			if strings.Contains(m.Subject, part) && strings.EqualFold(m.To[0], to) {
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.Fatalf("no mail %q to %s; got %d mails", part, to, len(in.All()))
	return kerneltest.Mail{}
}

// TestDaylightSavingDays sends daily reports in Europe/Stockholm over the
// nights the clocks change: 23 and 25 hourly rows, every value once, the
// repeated hour told apart by its offset; and a restart after the send hour
// catches up once, never twice.
func TestDaylightSavingDays(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		smtpURL, inbox := kerneltest.StartSMTP(t)
		p := kerneltest.Start(t, d, map[string]string{"SMTP_URL": smtpURL}, app.Build)
		s := companies(t, p)
		acme := s.ID(t, "{acme}")
		ctx := context.Background()
		every(t, p, acme, coldRoom, "temperature", local(t, "2026-03-28 00:00"), local(t, "2026-03-31 00:00"), 10*time.Minute, func(i int) float64 { return float64(i) })
		every(t, p, acme, coldRoom, "temperature", local(t, "2026-10-24 00:00"), local(t, "2026-10-28 00:00"), 10*time.Minute, func(i int) float64 { return float64(i) })
		for _, typ := range []string{"trend", "regular"} {
			s.Must(t, "acmeAdmin", "POST", "/api/report", map[string]any{"name": "Daily " + typ, "type": typ, "tempo": 0, "refrenceDate": "2026-03-01",
				"reportContacts": []string{typ + "@acme.se"}, "nodes": []int64{s.ID(t, "{coldRoom}")}, "keys": []string{"temperature"}}, http.StatusCreated)
		}
		for _, c := range []struct {
			day   string
			now   string
			hours int
		}{{"2026-03-29", "2026-03-30 03:00", 23}, {"2026-10-25", "2026-10-26 03:05", 25}} {
			if n, err := p.App.Reports().RunDue(ctx, local(t, c.now)); err != nil || n != 2 {
				t.Fatalf("%s: sent %d, %v", c.day, n, err)
			}
			trend := workbook(t, attachment(t, waitSubject(t, inbox, "trend@acme.se", c.day), ".xlsx"))
			tr := rows(t, trend, "Cold room")[1:]
			if len(tr) != c.hours {
				t.Errorf("%s trend: %d hourly rows, want %d", c.day, len(tr), c.hours)
			}
			if got := nodeRow(t, trend, "Cold room"); got[1] != fmt.Sprint(c.hours*6) || got[2] != "0" {
				t.Errorf("%s trend summary (rows, values, gaps) %v, want %d values", c.day, got, c.hours*6)
			}
			if got := summaryHours(t, trend); got != fmt.Sprint(c.hours) {
				t.Errorf("%s: the summary says %s hours", c.day, got)
			}
			regular := workbook(t, attachment(t, waitSubject(t, inbox, "regular@acme.se", c.day), ".xlsx"))
			rr := rows(t, regular, "Cold room")[1:]
			if len(rr) != c.hours*6 {
				t.Errorf("%s regular: %d rows, want %d", c.day, len(rr), c.hours*6)
			}
			seen := map[string]bool{}
			for i, r := range rr {
				if seen[r[0]+r[1]] {
					t.Errorf("%s: %s %s twice", c.day, r[0], r[1])
				}
				seen[r[0]+r[1]] = true
				if i > 0 && r[2] == rr[i-1][2] {
					t.Errorf("%s: value %s twice", c.day, r[2])
				}
			}
			if c.hours == 25 && (!seen["2026-10-25 02:00:00+02:00"] || !seen["2026-10-25 02:00:00+01:00"]) {
				t.Errorf("the repeated hour is not there twice with its offsets: %v", rr[12:20])
			}
			// The trend's hourly means match the values of the same hour.
			if first, _ := trend.GetCellValue("Cold room", "E2"); first != fmt.Sprint(mean(rr[0:6])) {
				t.Errorf("%s: first hour's mean %s, want %v", c.day, first, mean(rr[0:6]))
			}
		}
		// The same hour again, and a later run the same day: nothing more.
		if n, _ := p.App.Reports().RunDue(ctx, local(t, "2026-10-26 23:59")); n != 0 {
			t.Errorf("sent %d more the same day", n)
		}
		// Down over the 03:00 of the 27th and the 28th: the run at 05:00
		// on the 28th sends the 27th, once.
		if n, _ := p.App.Reports().RunDue(ctx, local(t, "2026-10-28 05:00")); n != 2 {
			t.Errorf("catch-up sent %d, want 2", n)
		}
		waitSubject(t, inbox, "regular@acme.se", "2026-10-27")
		waitSubject(t, inbox, "trend@acme.se", "2026-10-27")
		p.Stop()
		again := kerneltest.StartConfig(t, kerneltest.Config(t, d, map[string]string{"DATABASE_URL": p.App.Kernel().Host().Config.DatabaseURL, "SMTP_URL": smtpURL}), app.Build)
		if n, err := again.App.Reports().RunDue(ctx, local(t, "2026-10-28 05:01")); n != 0 || err != nil {
			t.Errorf("after a restart sent %d again (%v)", n, err)
		}
		if got := len(inbox.All()); got != 6 {
			t.Errorf("%d mails, want 6", got)
		}
		var unsent int
		if err := again.Host().DB.NewSelect().Table("reports").ColumnExpr("count(*)").Where("last_sent IS NULL").Scan(ctx, &unsent); err != nil || unsent != 0 {
			t.Errorf("%d reports without lastSent (%v)", unsent, err)
		}
	})
}

func mean(rows [][]string) float64 {
	var sum float64
	for _, r := range rows {
		var v float64
		fmt.Sscan(r[2], &v)
		sum += v
	}
	return sum / float64(len(rows))
}

// TestTwoInstancesSendOnce runs the schedule on two portals on one
// PostgreSQL database at the same moment: each period goes out once.
func TestTwoInstancesSendOnce(t *testing.T) {
	smtpURL, inbox := kerneltest.StartSMTP(t)
	cfg := kerneltest.Config(t, db.Postgres, map[string]string{"SMTP_URL": smtpURL})
	p1 := kerneltest.StartConfig(t, cfg, app.Build)
	p2 := kerneltest.StartConfig(t, cfg, app.Build)
	s := companies(t, p1)
	acme := s.ID(t, "{acme}")
	every(t, p1, acme, coldRoom, "temperature", local(t, "2026-03-01 00:00"), local(t, "2026-04-01 00:00"), time.Hour, func(i int) float64 { return float64(i % 10) })
	for _, tempo := range []int{0, 1, 2} {
		s.Must(t, "acmeAdmin", "POST", "/api/report", map[string]any{"name": fmt.Sprintf("Tempo %d", tempo), "type": "trend", "tempo": tempo, "refrenceDate": "2026-02-01",
			"reportContacts": []string{"ops@acme.se"}, "nodes": []int64{s.ID(t, "{coldRoom}")}, "keys": []string{"temperature"}}, http.StatusCreated)
	}
	// Wednesday 1 April 2026: yesterday, last week and last month are due.
	for round, now := range []time.Time{local(t, "2026-04-01 03:00"), local(t, "2026-04-01 03:01")} {
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for _, a := range []*app.App{p1.App, p2.App, p1.App, p2.App} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := a.Reports().RunDue(context.Background(), now)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}()
		}
		wg.Wait()
		want := map[int]int{0: 3, 1: 0}[round]
		if total != want {
			t.Errorf("round %d: the instances sent %d, want %d", round, total, want)
		}
	}
	waitSubject(t, inbox, "ops@acme.se", "Tempo 2")
	waitSubject(t, inbox, "ops@acme.se", "Tempo 0")
	var sends int
	if err := p1.Host().DB.NewSelect().Table("report_sends").ColumnExpr("count(*)").Scan(context.Background(), &sends); err != nil || sends != 3 {
		t.Errorf("%d sends recorded (%v)", sends, err)
	}
	var queued int
	if err := p1.Host().DB.NewSelect().Table("mail_outbox").ColumnExpr("count(*)").Where("subject LIKE '%Tempo%'").Scan(context.Background(), &queued); err != nil || queued != 3 {
		t.Errorf("%d mails queued (%v)", queued, err)
	}
}
