package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/demo"
	"github.com/fieldhub/fieldhub/modules/signaltests"
)

// TestDemoFieldTest walks the demo's service van: `fieldhub demo` runs, the
// demo's CompanyAdmin starts a field test of the van, its uplinks (through
// the real generic route, every 5 s) each add a point with the van's
// reported position and signal, and after "Complete test" the averages
// equal those of the points, which are exactly the van's uplinks stored
// between the start and the end.
func TestDemoFieldTest(t *testing.T) {
	t.Setenv("FIELDHUB_ACCESS_LOG", "false")
	t.Setenv("FIELDHUB_DATA", t.TempDir())
	base, out := startCommand(t, "demo", "--addr", "127.0.0.1:0")
	m := regexp.MustCompile(`CompanyAdmin\s+(\S+)\s+(\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no demo login printed:\n%s", out.String())
	}
	c := kerneltest.NewClient(base)
	token := c.Login(t, m[1], m[2])
	company := c.Call(t, "POST", "/api/users/authenticate", "", map[string]string{"email": m[1], "password": m[2]}).Num("companyId")
	var van demo.Node
	for _, n := range demo.Nodes() {
		if n.Name == "Service van" {
			van = n
		}
	}
	if van.DevEUI == "" {
		t.Fatal("the demo has no service van")
	}
	// The simulator makes the van when it starts: wait for it.
	var started kerneltest.Response
	kerneltest.WaitFor(t, 15*time.Second, func() bool {
		started = c.Call(t, "POST", fmt.Sprintf("/api/signaltest/%d/%s", company, van.DevEUI), token, map[string]any{"description": "Van loop"})
		return started.Status == 201
	}, func() string { return fmt.Sprintf("start: %d %s", started.Status, started.Body) })
	id := started.Num("testId")

	detail := func() signaltests.Detail {
		var d signaltests.Detail
		r := c.Must(t, "GET", fmt.Sprintf("/api/signaltest/single/%d", id), token, nil, 200)
		if err := json.Unmarshal(r.Body, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	var d signaltests.Detail
	kerneltest.WaitFor(t, 20*time.Second, func() bool { d = detail(); return len(d.Points) >= 2 },
		func() string { return fmt.Sprintf("%d points", len(d.Points)) })
	for i, p := range d.Points {
		if p.Lat == nil || p.Lng == nil || math.Abs(*p.Lat-van.Lat) > 0.05 || math.Abs(*p.Lng-van.Long) > 0.05 || p.RSSI == nil || p.SNR == nil {
			t.Errorf("point %d has no position near the van's loop or no signal: %+v", i, p)
		}
	}
	c.Must(t, "PUT", fmt.Sprintf("/api/signaltest/end/%d", id), token, nil, 200)

	// The van's uplinks stored between the start and the end (its speed is
	// in every one) are the test's points, once the collector has them all.
	var stored int
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		d = detail()
		q := url.Values{"deveui": {van.DevEUI}, "key": {"speed"}, "from": {d.Start.Format(time.RFC3339Nano)}, "to": {d.End.Add(time.Microsecond).Format(time.RFC3339Nano)}}
		stored = len(c.Must(t, "GET", fmt.Sprintf("/api/companies/%d/tagdata?%s", company, q.Encode()), token, nil, 200).List())
		return stored == len(d.Points)
	}, func() string {
		return fmt.Sprintf("%d uplinks stored in the test's span, %d points", stored, len(d.Points))
	})
	var rssi, snr float64
	for _, p := range d.Points {
		rssi += *p.RSSI
		snr += *p.SNR
	}
	n := float64(len(d.Points))
	if d.Active || d.AverageRSSI == nil || math.Abs(*d.AverageRSSI-rssi/n) > 1e-9 || math.Abs(*d.AverageSNR-snr/n) > 1e-9 {
		t.Errorf("completed test: active %v, averages %v %v, want %v %v", d.Active, d.AverageRSSI, d.AverageSNR, rssi/n, snr/n)
	}
}
