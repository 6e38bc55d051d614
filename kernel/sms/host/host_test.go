package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest/smsfake"
	ksms "github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

var (
	buildOnce sync.Once
	pluginDir string
)

// bundled builds the 46elks plugin once for the package's tests and
// returns the folder it is in.
func bundled(t *testing.T) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fieldhub-plugins-")
		if err != nil {
			t.Fatal(err)
		}
		path := smstest.Build(t, "../../../plugins/sms-46elks")
		if err := os.Rename(path, filepath.Join(dir, "sms-46elks")); err != nil {
			t.Fatal(err)
		}
		pluginDir = dir
	})
	if pluginDir == "" {
		t.Fatal("the plugin did not build")
	}
	return pluginDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pluginDir != "" {
		os.RemoveAll(pluginDir)
	}
	os.Exit(code)
}

func elksHost(t *testing.T, fake *smsfake.Elks) *Host {
	h := New(Options{
		Dir: bundled(t),
		Resolve: func(context.Context, int64) (ksms.Route, error) {
			return ksms.Route{Provider: "46elks", Sender: "Fieldhub", Credentials: map[string]string{"username": "u1", "password": "p1"}}, nil
		},
		Env: []string{"SMS_46ELKS_URL=" + fake.URL()},
	})
	t.Cleanup(h.Close)
	return h
}

func (h *Host) pid(t *testing.T, provider string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.procs[provider]
	if p == nil {
		t.Fatalf("no %s plugin runs", provider)
	}
	return p.client.ReattachConfig().Pid
}

// TestRestartsPluginKilledMidSend kills the plugin process (SIGKILL) while
// its request waits at the provider: the host starts another process,
// which sends the message again, and Send answers its id.
func TestRestartsPluginKilledMidSend(t *testing.T) {
	fake := smsfake.NewElks(t, "u1", "p1")
	arrived, killed := make(chan struct{}), make(chan struct{})
	fake.BeforeAnswer = func(n int) {
		if n == 1 {
			close(arrived)
			<-killed
		}
	}
	h := elksHost(t, fake)
	type result struct {
		id  string
		err error
	}
	done := make(chan result, 1)
	go func() {
		id, err := h.Send(context.Background(), ksms.Message{To: []string{"46700000001"}, Text: "Freezer 3 is warm", IdempotencyKey: "fh-1-0"})
		done <- result{id, err}
	}()
	select {
	case <-arrived:
	case r := <-done:
		t.Fatalf("sent before the provider saw it: %+v", r)
	}
	first := h.pid(t, "46elks")
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := <-done
	close(killed)
	if r.err != nil {
		t.Fatalf("send: %v", r.err)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 || !reqs[1].Accepted || r.id != reqs[1].ID || reqs[1].To != "+46700000001" || reqs[1].Text != "Freezer 3 is warm" {
		t.Fatalf("answered %q; the provider got %+v", r.id, reqs)
	}
	if again := h.pid(t, "46elks"); again == first {
		t.Errorf("the same process %d still runs", again)
	}
}

// TestHealthCheckRestartsDeadPlugin: a plugin that died while idle is
// found by the health check and started again.
func TestHealthCheckRestartsDeadPlugin(t *testing.T) {
	fake := smsfake.NewElks(t, "u1", "p1")
	h := elksHost(t, fake)
	ctx := context.Background()
	if _, err := h.Send(ctx, ksms.Message{To: []string{"46700000001"}, Text: "one"}); err != nil {
		t.Fatal(err)
	}
	first := h.pid(t, "46elks")
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for h.pid(t, "46elks") == first && time.Now().Before(deadline) {
		h.CheckHealth()
	}
	if h.pid(t, "46elks") == first {
		t.Fatal("the dead plugin was not restarted")
	}
	if _, err := h.Send(ctx, ksms.Message{To: []string{"46700000002"}, Text: "two"}); err != nil || len(fake.Accepted()) != 2 {
		t.Fatalf("send after the restart: %v; accepted %+v", err, fake.Accepted())
	}
	if d, err := h.Dedupes(ctx, 0); err != nil || d {
		t.Errorf("46elks dedupes: %v %v", d, err)
	}
}

// TestRefusalsAndMissingPlugins: the provider's refusal is not retried; no
// provider and a missing binary say so.
func TestRefusalsAndMissingPlugins(t *testing.T) {
	fake := smsfake.NewElks(t, "u1", "other")
	h := elksHost(t, fake)
	ctx := context.Background()
	if _, err := h.Send(ctx, ksms.Message{To: []string{"46700000001"}, Text: "x"}); err == nil || len(fake.Requests()) != 0 {
		t.Errorf("bad credentials: %v, %d requests", err, len(fake.Requests()))
	}
	h.SetResolver(func(context.Context, int64) (ksms.Route, error) { return ksms.Route{}, nil })
	if _, err := h.Send(ctx, ksms.Message{To: []string{"46700000001"}, Text: "x"}); !errors.Is(err, ksms.ErrNoProvider) {
		t.Errorf("no provider: %v", err)
	}
	h.SetResolver(func(context.Context, int64) (ksms.Route, error) { return ksms.Route{Provider: "acme"}, nil })
	if _, err := h.Send(ctx, ksms.Message{To: []string{"46700000001"}, Text: "x"}); !errors.Is(err, ErrNoPlugin) {
		t.Errorf("missing plugin: %v", err)
	}
}
