//go:build linux

package netservers_test

import "syscall"

// brokerAttr makes a test's own Mosquitto die with the test binary, also
// when a timeout ends it before the test's cleanup can.
func brokerAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
