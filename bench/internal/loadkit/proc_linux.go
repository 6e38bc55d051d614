//go:build linux

package loadkit

import "syscall"

// childAttr makes a benchmark's own broker die with the benchmark, also
// when it ends without running its deferred stops.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
