// Package smstest runs an SMS provider through the real plugin protocol
// in tests: in the test's own process (InProcess: gRPC over a local
// connection, as go-plugin's own tests do) or as a built plugin binary
// started the way Fieldhub starts it (Build, Start).
package smstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/fieldhub/fieldhub/sdk/sms"
)

// InProcess serves p over go-plugin's gRPC transport inside the test and
// returns the host's side of it. It closes when the test ends.
func InProcess(t testing.TB, p sms.Provider) *sms.Client {
	t.Helper()
	client, _ := plugin.TestPluginGRPCConn(t, false, sms.PluginSet(p))
	t.Cleanup(func() { client.Close() })
	raw, err := client.Dispense(sms.PluginName)
	if err != nil {
		t.Fatalf("dispense the provider: %v", err)
	}
	return raw.(*sms.Client)
}

// Build compiles the plugin's main package pkg (a directory such as
// "./plugins/sms-46elks", relative to the test's package directory, or an
// import path) into a temporary folder and returns the binary's path.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	name := filepath.Base(pkg)
	if abs, err := filepath.Abs(pkg); err == nil && (name == "." || name == "..") {
		name = filepath.Base(abs)
	}
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("build the plugin %s: %v", pkg, err)
	}
	return out
}

// Plugin is a started plugin process.
type Plugin struct {
	// Client is the provider in the process.
	Client *sms.Client
	// Process is go-plugin's handle on it: Kill it to see how a host copes.
	Process *plugin.Client
}

// Start runs the plugin binary at path as Fieldhub does, with env
// ("NAME=value") added to the test's environment, and returns it; it is
// killed when the test ends.
func Start(t testing.TB, path string, env ...string) *Plugin {
	t.Helper()
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), env...)
	pc := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  sms.Handshake,
		Plugins:          sms.PluginSet(nil),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Logger:           hclog.New(&hclog.LoggerOptions{Name: "smstest", Output: os.Stderr, Level: hclog.Warn}),
	})
	t.Cleanup(pc.Kill)
	rpc, err := pc.Client()
	if err != nil {
		t.Fatalf("start the plugin %s: %v", path, err)
	}
	raw, err := rpc.Dispense(sms.PluginName)
	if err != nil {
		t.Fatalf("dispense the provider: %v", err)
	}
	return &Plugin{Client: raw.(*sms.Client), Process: pc}
}
