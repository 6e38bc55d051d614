package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TestSilenceMails checks the split between a mail per node and one
// listing them (docs/decisions.md, "Inactivity mails").
func TestSilenceMails(t *testing.T) {
	now := time.Date(2027, 1, 10, 12, 0, 0, 0, time.UTC)
	tags := func(n int) []nodes.SilentTag {
		out := make([]nodes.SilentTag, n)
		for i := range out {
			out[i] = nodes.SilentTag{ID: int64(i + 1), CompanyID: 7, Name: fmt.Sprintf("Node %d", i+1),
				DevEUI: fmt.Sprintf("70B3D57ED000%04X", i), LatestTime: now.Add(-7 * time.Hour)}
		}
		return out
	}
	each := silenceMails(tags(inactivityEach), "night@acme.se", time.UTC, now)
	if len(each) != inactivityEach {
		t.Fatalf("%d mails for %d nodes, want one each", len(each), inactivityEach)
	}
	if m := each[0]; m.Subject != "Inactive node: Node 1" || m.CompanyID != 7 || m.To[0] != "night@acme.se" ||
		!strings.Contains(m.Text, "/tagdetails/70B3D57ED0000000") {
		t.Errorf("mail per node: %+v", m)
	}
	n := summaryLines + 5
	one := silenceMails(tags(n), "night@acme.se", time.UTC, now)
	if len(one) != 1 {
		t.Fatalf("%d mails for %d nodes, want one listing them", len(one), n)
	}
	m := one[0]
	if m.Subject != fmt.Sprintf("Inactive nodes: %d", n) || !strings.HasPrefix(m.Text, fmt.Sprintf("%d nodes have sent nothing for at least 7 hours", n)) {
		t.Errorf("summary mail: %q, %q", m.Subject, m.Text[:80])
	}
	if got := strings.Count(m.Text, "/tagdetails/"); got != summaryLines {
		t.Errorf("summary names %d nodes, want %d", got, summaryLines)
	}
	if !strings.Contains(m.Text, "... and 5 more nodes.") {
		t.Errorf("summary does not say how many more: %q", m.Text[len(m.Text)-60:])
	}
}

// TestSilentFor checks that a silence is told in minutes below two hours,
// as a node with a short expected uplink interval is mailed about, and in
// hours above.
func TestSilentFor(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Minute:              "30 minutes",
		119 * time.Minute:             "119 minutes",
		2 * time.Hour:                 "2 hours",
		72*time.Hour + 59*time.Minute: "72 hours",
	} {
		if got := silentFor(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}
