//go:build !linux

package netservers_test

import "syscall"

// brokerAttr: elsewhere than on Linux a test's own Mosquitto outlives a test
// binary that a timeout ends.
func brokerAttr() *syscall.SysProcAttr { return nil }
