// Command decoders measures the decoder sandbox (kernel/sandbox) against
// Node, side by side in one run: for each codec, decodes per second in the
// sandbox's fast runtime (TrustedCodec, as the built-in codecs run) with 1
// and 2 workers and in its guarded runtime (Codec, as uploaded codecs run)
// with 2 workers (each worker a goroutine calling DecodeUplink, the pool
// sized to the workers), Node running the same codec in a loop in one
// context, the time to the first decode of a codec not loaded before, in
// both, and the memory a warm instance takes.
//
// The payloads are the codec's documentation vectors (<name>.test.json beside
// it, the catalog's format), used round robin.
//
//	go run ./bench/decoders                    # elsys and decentlab_dl_pr26 of the built-in catalog, 5 s each
//	go run ./bench/decoders -d 10s -codec modules/decoders/catalog/netvox_150.js
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

type payload struct {
	FPort int   `json:"fPort"`
	Bytes []int `json:"bytes"`
	raw   []byte
}

func main() {
	var codecs stringList
	flag.Var(&codecs, "codec", "a codec's .js file, with its .test.json beside it (repeatable)")
	d := flag.Duration("d", 5*time.Second, "how long each rate is measured")
	firsts := flag.Int("first", 20, "how many loads the time to first decode is the median of")
	flag.Parse()
	if len(codecs) == 0 {
		codecs = stringList{"modules/decoders/catalog/elsys.js", "modules/decoders/catalog/decentlab_dl_pr26.js"}
	}
	fmt.Printf("GOMAXPROCS %d, %s, %s\n\n", runtime.GOMAXPROCS(0), runtime.Version(), nodeVersion())
	fmt.Println("| codec | trusted, 1 worker | trusted, 2 workers | guarded, 2 workers | Node, 1 loop | trusted 2 workers / Node | first decode, sandbox | first decode, Node | memory per warm instance |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, path := range codecs {
		if err := measure(path, *d, *firsts); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			os.Exit(1)
		}
	}
}

// source reads the codec of path. A built-in codec of the catalog
// (modules/decoders/catalog/<key>.js) is resolved as the module runs it,
// its "// @include" family libraries first (decoders.CatalogSource).
func source(path string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if dir := filepath.ToSlash(filepath.Dir(abs)); strings.HasSuffix(dir, "/modules/decoders/catalog") {
		src, err := decoders.CatalogSource(strings.TrimSuffix(filepath.Base(abs), ".js"))
		return []byte(src), err
	}
	return os.ReadFile(path)
}

func measure(path string, d time.Duration, firsts int) error {
	src, err := source(path)
	if err != nil {
		return err
	}
	// Node runs the same resolved source.
	codecFile, err := os.CreateTemp("", "codec-*.js")
	if err != nil {
		return err
	}
	defer os.Remove(codecFile.Name())
	_, err = codecFile.Write(src)
	if cerr := codecFile.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	payloads, payloadFile, err := readPayloads(strings.TrimSuffix(path, ".js") + ".test.json")
	if err != nil {
		return err
	}
	defer os.Remove(payloadFile)
	ctx := context.Background()
	limits := sandbox.Limits{Time: time.Second}

	rate := func(workers int, trusted bool) (float64, error) {
		e, err := sandbox.New(ctx, sandbox.Options{PoolSize: workers})
		if err != nil {
			return 0, err
		}
		defer e.Close()
		load := e.Codec
		if trusted {
			load = e.TrustedCodec
		}
		c, err := load(ctx, string(src))
		if err != nil {
			return 0, err
		}
		run := func(dur time.Duration) (int64, error) {
			var n atomic.Int64
			var firstErr atomic.Value
			stop := time.Now().Add(dur)
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := w; time.Now().Before(stop); i += workers {
						p := payloads[i%len(payloads)]
						if _, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: p.raw, FPort: p.FPort, RecvTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, limits); err != nil {
							var se *sandbox.Error
							if !errors.As(err, &se) || se.Kind != sandbox.KindThrown {
								firstErr.CompareAndSwap(nil, err)
								return
							}
						}
						n.Add(1)
					}
				}()
			}
			wg.Wait()
			if err, _ := firstErr.Load().(error); err != nil {
				return 0, err
			}
			return n.Load(), nil
		}
		if _, err := run(time.Second); err != nil {
			return 0, err
		}
		start := time.Now()
		n, err := run(d)
		return float64(n) / time.Since(start).Seconds(), err
	}
	one, err := rate(1, true)
	if err != nil {
		return err
	}
	two, err := rate(2, true)
	if err != nil {
		return err
	}
	guarded, err := rate(2, false)
	if err != nil {
		return err
	}
	node, err := nodeRate(codecFile.Name(), payloadFile, d)
	if err != nil {
		return err
	}

	// Time to first decode: a codec the engine has not seen (a comment
	// makes each source new), loaded and called once; the engine itself
	// is started and warm, as in a running portal.
	e, err := sandbox.New(ctx, sandbox.Options{})
	if err != nil {
		return err
	}
	defer e.Close()
	var times []time.Duration
	for i := 0; i < firsts; i++ {
		start := time.Now()
		c, err := e.TrustedCodec(ctx, fmt.Sprintf("%s\n// %d", src, i))
		if err != nil {
			return err
		}
		p := payloads[0]
		if _, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: p.raw, FPort: p.FPort}, limits); err != nil && !isThrown(err) {
			return err
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)

	// Memory per warm instance: linear memory (the engine's count) and the
	// Go heap wazero takes beside it, for the instances 64 calls at once
	// make (up to 16).
	mem, err := instanceMemory(ctx, string(src), payloads)
	if err != nil {
		return err
	}

	fmt.Printf("| %s | %s/s | %s/s | %s/s | %s/s | %.3f | %s | %s | %s |\n", filepath.Base(path),
		count(one), count(two), count(guarded), count(node.PerSecond), two/node.PerSecond,
		round(times[len(times)/2]), round(time.Duration(node.FirstMicros*1000)), mem)
	return nil
}

func instanceMemory(ctx context.Context, src string, payloads []payload) (string, error) {
	const n = 16
	e, err := sandbox.New(ctx, sandbox.Options{PoolSize: n})
	if err != nil {
		return "", err
	}
	defer e.Close()
	// A wrapper makes each call last some milliseconds, so that calls
	// overlap and the pool grows to n; the image hardly changes.
	c, err := e.TrustedCodec(ctx, src+`
var fieldhubBenchDecode = decodeUplink;
decodeUplink = function (input) { for (var i = 0; i < 200000; i++) {} return fieldhubBenchDecode(input); };`)
	if err != nil {
		return "", err
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 4*n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			p := payloads[i%len(payloads)]
			_, _ = c.DecodeUplink(ctx, sandbox.Input{Bytes: p.raw, FPort: p.FPort}, sandbox.Limits{Time: 10 * time.Second})
		}()
	}
	close(start)
	wg.Wait()
	runtime.GC()
	runtime.ReadMemStats(&after)
	s := e.Stats()
	if s.Idle < 2 {
		return "", fmt.Errorf("only %d warm instances", s.Idle)
	}
	// The codec's first instance was there before: the others are new.
	heap := float64(after.HeapInuse-before.HeapInuse) / float64(s.Idle-1)
	return fmt.Sprintf("%.2f MiB linear memory, %.2f MiB Go heap (%d instances)", float64(s.IdleMemory)/float64(s.Idle)/(1<<20), heap/(1<<20), s.Idle), nil
}

type nodeResult struct {
	PerSecond   float64 `json:"perSecond"`
	FirstMicros float64 `json:"firstMicros"`
}

func nodeRate(codec, payloads string, d time.Duration) (nodeResult, error) {
	var r nodeResult
	out, err := exec.Command("node", "bench/decoders/node-loop.mjs", codec, payloads, fmt.Sprint(d.Seconds())).Output()
	if err != nil {
		return r, fmt.Errorf("node (run from the repository root): %w", err)
	}
	return r, json.Unmarshal(out, &r)
}

func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "no node"
	}
	return "Node " + strings.TrimSpace(string(out))
}

func readPayloads(path string) ([]payload, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var cases []struct {
		FPort int    `json:"fPort"`
		Bytes string `json:"bytes"`
		Op    string `json:"op"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	var ps []payload
	for _, c := range cases {
		raw, err := hex.DecodeString(c.Bytes)
		if err != nil || (c.Op != "" && c.Op != "decodeUplink") {
			continue
		}
		p := payload{FPort: c.FPort, raw: raw, Bytes: []int{}}
		for _, x := range raw {
			p.Bytes = append(p.Bytes, int(x))
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return nil, "", fmt.Errorf("%s has no uplink payloads", path)
	}
	f, err := os.CreateTemp("", "payloads-*.json")
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if err := json.NewEncoder(f).Encode(ps); err != nil {
		return nil, "", err
	}
	return ps, f.Name(), nil
}

func isThrown(err error) bool {
	var se *sandbox.Error
	return errors.As(err, &se) && se.Kind == sandbox.KindThrown
}

func count(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f M", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1f k", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

func round(d time.Duration) string {
	switch {
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.0f µs", float64(d)/1e3)
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
