package host

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestProvidersListsBundledThenInstalled checks the providers offered: the
// bundled two always, then each executable sms-<name> of the directory by
// name, without files that are not plugins.
func TestProvidersListsBundledThenInstalled(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("sms-46elks", 0o755)
	write("sms-zeta", 0o755)
	write("sms-acme", 0o755)
	write("sms-notes.txt", 0o644) // not executable
	write("other", 0o755)         // not sms-*
	if err := os.Mkdir(filepath.Join(dir, "sms-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := New(Options{Dir: dir}).Providers()
	if want := []string{"46elks", "twilio", "acme", "zeta"}; !slices.Equal(got, want) {
		t.Errorf("providers %v, want %v", got, want)
	}
	if got := New(Options{Dir: filepath.Join(dir, "missing")}).Providers(); !slices.Equal(got, Bundled) {
		t.Errorf("without a directory %v, want the bundled %v", got, Bundled)
	}
}
