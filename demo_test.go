package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/demo"
)

// startDemo runs `fieldhub <args>` until the test ends and returns its
// address and console output, like startServe.
func startDemo(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, append(args, "--addr", "127.0.0.1:0"), out, &syncBuffer{}) }()
	deadline := time.Now().Add(20 * time.Second)
	for !listening.MatchString(out.String()) {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("%v ended early: %v\n%s", args, err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%v did not start:\n%s", args, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%v stopped with %v", args, err)
		}
	})
	return listening.FindStringSubmatch(out.String())[1], out
}

// TestDemoShowsDataWithinSeconds starts `fieldhub demo`: the demo company's
// admin sees the demo application with its dozen nodes, and tag data of a
// node arrives through the ingest within a few seconds. A second start on
// the same data folder (`serve --demo`) makes no duplicates and the data
// keeps coming.
func TestDemoShowsDataWithinSeconds(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FIELDHUB_ACCESS_LOG", "false")
	t.Setenv("FIELDHUB_DATA", data)
	var email, password string
	var latest time.Time
	t.Run("first start", func(t *testing.T) {
		base, out := startDemo(t, "demo")
		m := regexp.MustCompile(`CompanyAdmin\s+(\S+)\s+(\S+)`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no demo login printed:\n%s", out.String())
		}
		email, password = m[1], m[2]
		if !strings.Contains(out.String(), "simulated nodes") {
			t.Errorf("the simulator is not mentioned:\n%s", out.String())
		}
		latest = waitForDemoData(t, base, email, password, time.Time{})
	})
	t.Run("second start", func(t *testing.T) {
		base, out := startDemo(t, "serve", "--demo")
		if regexp.MustCompile(`CompanyAdmin\s+\S+@`).MatchString(out.String()) {
			t.Errorf("passwords printed again:\n%s", out.String())
		}
		waitForDemoData(t, base, email, password, latest)
	})
}

// waitForDemoData logs in as the demo admin, checks the demo's application
// and nodes, and waits until the tag data of the demo's first node (a room
// climate sensor) is newer than after, then returns its time.
func waitForDemoData(t *testing.T, base, email, password string, after time.Time) time.Time {
	t.Helper()
	c := kerneltest.NewClient(base)
	token := c.Login(t, email, password)
	me := c.Call(t, "POST", "/api/users/authenticate", "", map[string]string{"email": email, "password": password})
	company := me.Num("companyId")
	var apps []string
	for _, a := range c.Call(t, "GET", fmt.Sprintf("/api/companies/%d/applications", company), token, nil).List() {
		apps = append(apps, a.(map[string]any)["name"].(string))
	}
	if len(apps) != 1 || apps[0] != demo.ApplicationName {
		t.Errorf("applications %v, want only %q", apps, demo.ApplicationName)
	}
	want := demo.Nodes()
	tagID := int64(0)
	deadline := time.Now().Add(10 * time.Second)
	for {
		tags := c.Call(t, "GET", fmt.Sprintf("/api/companies/%d/tags", company), token, nil).List()
		for _, tg := range tags {
			if tg.(map[string]any)["deveui"] == want[0].DevEUI {
				tagID = int64(tg.(map[string]any)["id"].(float64))
			}
		}
		if len(tags) == len(want) && tagID != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d demo nodes (want %d), first node's tag %d", len(tags), len(want), tagID)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for {
		got := map[string]bool{}
		var at time.Time
		for _, e := range c.Call(t, "GET", fmt.Sprintf("/api/tag/meta/%d/tagdata", tagID), token, nil).List() {
			entry := e.(map[string]any)
			if v, ok := entry["value"].(float64); ok && v > 0 {
				got[entry["key"].(string)] = true
				if s, ok := entry["time"].(string); ok {
					at, _ = time.Parse(time.RFC3339Nano, s)
				}
			}
		}
		if got["temperature"] && got["humidity"] && got["battery"] && at.After(after) {
			checkDemoDashboard(t, c, token, company)
			return at
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new tag data for %s after 10 s: %v at %v", want[0].Name, got, at)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkDemoDashboard finds the demo's dashboard, made once (the simulator
// starts after it), with its chart, gauge, latest value, fill level and map.
func checkDemoDashboard(t *testing.T, c *kerneltest.Client, token string, company int64) {
	t.Helper()
	var ids []int64
	for _, d := range c.Call(t, "GET", fmt.Sprintf("/api/companies/%d/dashboards", company), token, nil).List() {
		if d.(map[string]any)["name"] == demo.DashboardName {
			ids = append(ids, int64(d.(map[string]any)["dashboardId"].(float64)))
		}
	}
	if len(ids) != 1 {
		t.Fatalf("%d dashboards named %q, want 1", len(ids), demo.DashboardName)
	}
	var types []float64
	for _, m := range c.Call(t, "GET", fmt.Sprintf("/api/dashboards/%d/modules", ids[0]), token, nil).List() {
		types = append(types, m.(map[string]any)["type"].(float64))
	}
	if fmt.Sprint(types) != "[0 1 8 17 4]" {
		t.Errorf("demo dashboard module types %v, want chart, gauge, latest value, fill level, map", types)
	}
}

func TestDemoCommandIsServeDemo(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"help"}, &out, &out); err != nil || !strings.Contains(out.String(), "demo [--addr") {
		t.Errorf("usage does not list demo: %v\n%s", err, out.String())
	}
	// A flag serve does not know is refused in the demo command too.
	if err := run(context.Background(), []string{"demo", "--frobnicate"}, &strings.Builder{}, &strings.Builder{}); err == nil ||
		!strings.Contains(err.Error(), "frobnicate") {
		t.Errorf("got %v", err)
	}
}
