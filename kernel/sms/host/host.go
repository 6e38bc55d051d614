// Package host runs the SMS provider plugins: it finds the binary
// sms-<provider> in the plugin directory (FIELDHUB_PLUGIN_DIR), starts it
// with hashicorp/go-plugin over gRPC (sdk/sms), checks its health, starts
// it again when it crashed, and sends each message through the plugin that
// the message's company's settings choose. A send that the plugin's crash
// interrupted is sent again once by a fresh process. Host implements
// kernel/sms.Sender and kernel/sms.Deduper.
package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	ksms "github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/sdk/sms"
)

// Options configure a Host.
type Options struct {
	// Dir holds the plugin binaries (FIELDHUB_PLUGIN_DIR).
	Dir string
	// Resolve tells how a company's messages go out; SetResolver may set
	// it later. Without one, nothing can be sent (ksms.ErrNoProvider).
	Resolve ksms.Resolver
	// Env is added to the environment the plugins inherit ("NAME=value"),
	// for example a provider's base URL in tests.
	Env []string
	// HealthEvery is how often Run checks the running plugins (default 15 s).
	HealthEvery time.Duration
	Log         *slog.Logger
}

// Host starts and supervises the plugins.
type Host struct {
	opts Options
	mu   sync.Mutex
	// procs are the running plugins by provider name.
	procs map[string]*proc
	// closed is set by Close: no plugin starts after it.
	closed bool
}

// proc is one plugin process.
type proc struct {
	client   *plugin.Client
	rpc      plugin.ClientProtocol
	provider *sms.Client
	info     sms.Info
}

// New returns a host; plugins start on their first use.
func New(opts Options) *Host {
	if opts.HealthEvery <= 0 {
		opts.HealthEvery = 15 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Host{opts: opts, procs: map[string]*proc{}}
}

// SetResolver sets how a company's messages go out: the application wires
// the settings in after the kernel made the host.
func (h *Host) SetResolver(r ksms.Resolver) {
	h.mu.Lock()
	h.opts.Resolve = r
	h.mu.Unlock()
}

func (h *Host) resolve(ctx context.Context, companyID int64) (ksms.Route, error) {
	h.mu.Lock()
	r := h.opts.Resolve
	h.mu.Unlock()
	if r == nil {
		return ksms.Route{}, nil
	}
	return r(ctx, companyID)
}

// Binary is the path of the plugin of provider.
func (h *Host) Binary(provider string) string {
	name := "sms-" + provider
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(h.opts.Dir, name)
}

// ErrNoPlugin is the answer when the provider's plugin binary is missing.
var ErrNoPlugin = errors.New("no SMS plugin for the provider")

// plugin returns the running plugin of provider, starting it when needed.
func (h *Host) plugin(provider string) (*proc, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errors.New("the SMS plugins are stopped")
	}
	if p := h.procs[provider]; p != nil && !p.client.Exited() {
		return p, nil
	}
	delete(h.procs, provider)
	p, err := h.start(provider)
	if err != nil {
		return nil, err
	}
	h.procs[provider] = p
	return p, nil
}

func (h *Host) start(provider string) (*proc, error) {
	if provider == "" || strings.ContainsAny(provider, `/\.`) {
		return nil, fmt.Errorf("%w %q", ErrNoPlugin, provider)
	}
	path := h.Binary(provider)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w %q: %s is missing (build the plugins: just plugins)", ErrNoPlugin, provider, path)
	}
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), h.opts.Env...)
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  sms.Handshake,
		Plugins:          sms.PluginSet(nil),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     20 * time.Second,
		Logger:           hclogTo(h.opts.Log.With("plugin", "sms-"+provider)),
	})
	rpc, err := client.Client()
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("start the SMS plugin %s: %w", path, err)
	}
	raw, err := rpc.Dispense(sms.PluginName)
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("start the SMS plugin %s: %w", path, err)
	}
	p := &proc{client: client, rpc: rpc, provider: raw.(*sms.Client)}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if p.info, err = p.provider.Info(ctx); err != nil {
		client.Kill()
		return nil, fmt.Errorf("start the SMS plugin %s: %w", path, err)
	}
	h.opts.Log.Info("sms plugin started", "provider", provider, "idempotent", p.info.Idempotent)
	return p, nil
}

// drop kills p if it is still provider's plugin.
func (h *Host) drop(provider string, p *proc) {
	h.mu.Lock()
	if h.procs[provider] == p {
		delete(h.procs, provider)
	}
	h.mu.Unlock()
	p.client.Kill()
}

// Send sends m to each of its recipients through the plugin of its
// company's provider and answers the provider's ids, joined by ",". When
// the plugin dies during a send, a new process sends that recipient again,
// once.
func (h *Host) Send(ctx context.Context, m ksms.Message) (string, error) {
	route, err := h.resolve(ctx, m.CompanyID)
	if err != nil {
		return "", fmt.Errorf("read the SMS settings: %w", err)
	}
	if route.Provider == "" {
		return "", ksms.ErrNoProvider
	}
	ids := make([]string, 0, len(m.To))
	for i, to := range m.To {
		key := m.IdempotencyKey
		if key != "" && len(m.To) > 1 {
			key = fmt.Sprintf("%s-%d", key, i)
		}
		req := sms.Request{To: e164(to), Text: m.Text, Sender: route.Sender, Credentials: route.Credentials, IdempotencyKey: key}
		res, err := h.sendOne(ctx, route.Provider, req)
		if err != nil {
			return strings.Join(ids, ","), err
		}
		ids = append(ids, res.ID)
	}
	return strings.Join(ids, ","), nil
}

func (h *Host) sendOne(ctx context.Context, provider string, req sms.Request) (sms.Response, error) {
	for try := 0; ; try++ {
		p, err := h.plugin(provider)
		if err != nil {
			return sms.Response{}, err
		}
		res, err := p.provider.Send(ctx, req)
		if err == nil {
			return res, nil
		}
		se := sms.AsError(err)
		if se.Party != sms.PartyPlugin || try > 0 || ctx.Err() != nil || h.alive(p) {
			return sms.Response{}, err
		}
		// The plugin died during the send: start another and send again.
		h.opts.Log.Warn("sms plugin died during a send, restarting it", "provider", provider, "err", err)
		h.drop(provider, p)
	}
}

// alive reports whether p's process answers a health check.
func (h *Host) alive(p *proc) bool {
	return !p.client.Exited() && p.rpc.Ping() == nil
}

// Dedupes reports whether the provider of a company's messages drops a
// repeated idempotency key.
func (h *Host) Dedupes(ctx context.Context, companyID int64) (bool, error) {
	route, err := h.resolve(ctx, companyID)
	if err != nil || route.Provider == "" {
		return false, err
	}
	p, err := h.plugin(route.Provider)
	if err != nil {
		return false, err
	}
	return p.info.Idempotent, nil
}

// Run checks the running plugins every HealthEvery until ctx is done, and
// starts again one that does not answer; then it stops them all.
func (h *Host) Run(ctx context.Context) {
	tick := time.NewTicker(h.opts.HealthEvery)
	defer tick.Stop()
	defer h.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			h.CheckHealth()
		}
	}
}

// CheckHealth pings each running plugin and restarts one that does not
// answer.
func (h *Host) CheckHealth() {
	h.mu.Lock()
	procs := make(map[string]*proc, len(h.procs))
	for name, p := range h.procs {
		procs[name] = p
	}
	h.mu.Unlock()
	for name, p := range procs {
		if h.alive(p) {
			continue
		}
		h.opts.Log.Warn("sms plugin failed its health check, restarting it", "provider", name)
		h.drop(name, p)
		if _, err := h.plugin(name); err != nil {
			h.opts.Log.Error("restart the sms plugin", "provider", name, "err", err)
		}
	}
}

// Close stops every plugin.
func (h *Host) Close() {
	h.mu.Lock()
	procs := h.procs
	h.procs, h.closed = map[string]*proc{}, true
	h.mu.Unlock()
	for _, p := range procs {
		p.client.Kill()
	}
}

// e164 gives a number of digits with its country code its "+".
func e164(n string) string {
	n = strings.TrimSpace(n)
	if n != "" && !strings.HasPrefix(n, "+") {
		return "+" + n
	}
	return n
}

// hclogTo is a go-plugin logger that writes to log: the plugins' own
// output (their stderr) at its level, go-plugin's chatter only as warnings
// and errors.
func hclogTo(log *slog.Logger) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: "plugin", Level: hclog.Warn, Output: logWriter{log}, DisableTime: true})
}

// logWriter writes each line to a slog logger.
type logWriter struct{ log *slog.Logger }

func (w logWriter) Write(b []byte) (int, error) {
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			w.log.Warn(line)
		}
	}
	return len(b), nil
}
