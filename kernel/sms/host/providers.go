package host

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Bundled are the providers whose plugins the repository builds
// (plugins/sms-*), offered by the settings with their own credential
// fields whether or not their binaries are in place.
var Bundled = []string{"46elks", "twilio"}

// Providers lists the providers that can be chosen: the bundled ones, then
// every other plugin binary sms-<provider> in the plugin directory (a third
// party's), by name. The directory is read on each call, so a plugin copied
// in while the portal runs is offered at once.
func (h *Host) Providers() []string {
	out := slices.Clone(Bundled)
	entries, err := os.ReadDir(h.opts.Dir)
	if err != nil {
		return out
	}
	var found []string
	for _, e := range entries {
		name, ok := strings.CutPrefix(e.Name(), "sms-")
		if runtime.GOOS == "windows" {
			var exe bool
			name, exe = strings.CutSuffix(name, ".exe")
			ok = ok && exe
		}
		if !ok || name == "" || slices.Contains(out, name) || !executable(filepath.Join(h.opts.Dir, e.Name())) {
			continue
		}
		found = append(found, name)
	}
	slices.Sort(found)
	return append(out, found...)
}

// executable reports whether path is a regular file someone may run.
func executable(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}
