//go:build !linux

package loadkit

import "syscall"

// childAttr: elsewhere than on Linux a benchmark's own broker outlives a
// benchmark that ends without running its deferred stops.
func childAttr() *syscall.SysProcAttr { return nil }
