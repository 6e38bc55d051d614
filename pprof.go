//go:build pprof

// Profiling build: `go build -tags pprof` serves net/http/pprof on the
// address in PPROF_ADDR (such as 127.0.0.1:6060) beside the portal, for
// the benchmarks (bench/ingest -pprof). Release builds leave it out.
package main

import (
	"fmt"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof/ on http.DefaultServeMux
	"os"
)

func init() {
	addr := os.Getenv("PPROF_ADDR")
	if addr == "" {
		return
	}
	go func() {
		if err := http.ListenAndServe(addr, nil); err != nil {
			fmt.Fprintln(os.Stderr, "pprof:", err)
		}
	}()
}
