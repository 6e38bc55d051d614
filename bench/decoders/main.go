// Command decoders measures the decoder sandbox (kernel/sandbox) against
// Node, side by side in one run: for each codec, decodes per second as a
// trusted codec (TrustedCodec, as the built-in codecs run) with 1 and 2
// workers, and as an uploaded codec (Codec) with 2 workers, the calls of one
// tenant (a company's uplinks) and of two tenants taking turns (each worker
// a goroutine calling DecodeUplink, the pool sized to the workers); Node
// running the same codec in a loop in one context; the time to the first
// decode of a codec not loaded before, in both; and the memory a warm
// instance takes.
//
// The payloads are the codec's documentation vectors (<name>.test.json beside
// it, the catalog's format), used round robin.
//
//	go run ./bench/decoders                    # elsys and decentlab_dl_pr26 of the built-in catalog, 5 s each
//	go run ./bench/decoders -d 10s -codec modules/decoders/catalog/netvox_150.js
package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
	fmt.Println("| codec | trusted, 1 worker | trusted, 2 workers | uploaded, 2 workers | uploaded, 2 workers, 2 tenants | Node, 1 loop | trusted 2 workers / Node | uploaded 2 workers / Node | CPU per decode, uploaded / Node | 2 × Node's CPU per decode / uploaded's | first decode, sandbox | first decode, Node | memory per warm instance |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
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

	// The sandbox's configurations, each on an engine of its own whose
	// pool is sized to the workers.
	configs := []*config{
		{workers: 1, trusted: true, tenants: 1},
		{workers: 2, trusted: true, tenants: 1},
		{workers: 2, tenants: 1},
		{workers: 2, tenants: 2},
	}
	for _, cf := range configs {
		e, err := sandbox.New(ctx, sandbox.Options{PoolSize: cf.workers})
		if err != nil {
			return err
		}
		defer e.Close()
		load := e.Codec
		if cf.trusted {
			load = e.TrustedCodec
		}
		if cf.codec, err = load(ctx, string(src)); err != nil {
			return err
		}
	}
	node, err := startNode(codecFile.Name(), payloadFile)
	if err != nil {
		return err
	}
	defer node.close()

	// Every configuration and Node take turns, a second each, so that a
	// machine whose speed drifts (other work on it) weighs on all alike;
	// the first turn warms up and is not counted.
	rounds := max(1, int(d/time.Second))
	for r := 0; r <= rounds; r++ {
		for _, cf := range configs {
			start, cpu := time.Now(), processCPU()
			n, err := cf.run(ctx, payloads, limits, time.Second)
			if err != nil {
				return err
			}
			if r > 0 {
				cf.n += n
				cf.took += time.Since(start)
				cf.cpu += processCPU() - cpu
			}
		}
		n, took, cpu, err := node.run(time.Second)
		if err != nil {
			return err
		}
		if r > 0 {
			node.n += n
			node.took += took
			node.cpu += cpu
		}
	}
	one, two, uploaded, alternating := configs[0].rate(), configs[1].rate(), configs[2].rate(), configs[3].rate()
	nodeRate := float64(node.n) / node.took.Seconds()
	// CPU time per decode, the uploaded codec's and Node's: on a machine
	// that others share, the rates above are what the machine left over,
	// and 2 workers get no more of it than Node's one loop; twice Node's
	// CPU per decode over the sandbox's is what 2 idle cores would give.
	uploadedCPU := configs[2].cpu / time.Duration(configs[2].n)
	nodeCPU := node.cpu / time.Duration(node.n)

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

	fmt.Printf("| %s | %s/s | %s/s | %s/s | %s/s | %s/s | %.3f | %.3f | %s / %s | %.3f | %s | %s | %s |\n", filepath.Base(path),
		count(one), count(two), count(uploaded), count(alternating), count(nodeRate), two/nodeRate, uploaded/nodeRate,
		round(uploadedCPU), round(nodeCPU), 2*float64(nodeCPU)/float64(uploadedCPU),
		round(times[len(times)/2]), round(node.first), mem)
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

// config is one way of running the codec in the sandbox, and what it did.
type config struct {
	workers, tenants int
	trusted          bool
	codec            *sandbox.Codec
	n                int64
	took, cpu        time.Duration
}

func (cf *config) rate() float64 { return float64(cf.n) / cf.took.Seconds() }

// run has the workers decode for dur, each worker's calls taking turns
// between the tenants, and returns how many decodes they made.
func (cf *config) run(ctx context.Context, payloads []payload, limits sandbox.Limits, dur time.Duration) (int64, error) {
	var n atomic.Int64
	var firstErr atomic.Value
	stop := time.Now().Add(dur)
	names := make([]string, cf.tenants)
	for k := range names {
		names[k] = fmt.Sprintf("company %d", k+1)
	}
	recv := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for w := 0; w < cf.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, k := w, 0; time.Now().Before(stop); i, k = i+cf.workers, k+1 {
				p := payloads[i%len(payloads)]
				in := sandbox.Input{Bytes: p.raw, FPort: p.FPort, RecvTime: recv, Tenant: names[k%cf.tenants]}
				if _, err := cf.codec.DecodeUplink(ctx, in, limits); err != nil && !isThrown(err) {
					firstErr.CompareAndSwap(nil, err)
					return
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

// nodeLoop is node-loop.mjs running the codec, which decodes in a loop for
// as long as each request says.
type nodeLoop struct {
	cmd       *exec.Cmd
	in        io.WriteCloser
	out       *bufio.Scanner
	first     time.Duration
	n         int64
	took, cpu time.Duration
}

func startNode(codec, payloads string) (*nodeLoop, error) {
	cmd := exec.Command("node", "bench/decoders/node-loop.mjs", codec, payloads)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("node (run from the repository root): %w", err)
	}
	l := &nodeLoop{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	var start struct {
		FirstMicros float64 `json:"firstMicros"`
	}
	if err := l.read(&start); err != nil {
		l.close()
		return nil, err
	}
	l.first = time.Duration(start.FirstMicros * 1000)
	return l, nil
}

func (l *nodeLoop) read(v any) error {
	if !l.out.Scan() {
		if err := l.out.Err(); err != nil {
			return err
		}
		return errors.New("node ended (run from the repository root)")
	}
	return json.Unmarshal(l.out.Bytes(), v)
}

// run has Node decode for d, and returns how many decodes it made, in how
// long and with how much CPU time.
func (l *nodeLoop) run(d time.Duration) (n int64, took, cpu time.Duration, err error) {
	if _, err := fmt.Fprintln(l.in, d.Milliseconds()); err != nil {
		return 0, 0, 0, err
	}
	var r struct {
		N     int64   `json:"n"`
		Ms    float64 `json:"ms"`
		CPUMs float64 `json:"cpuMs"`
	}
	err = l.read(&r)
	return r.N, time.Duration(r.Ms * float64(time.Millisecond)), time.Duration(r.CPUMs * float64(time.Millisecond)), err
}

// processCPU is the CPU time the process has used, all threads.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (l *nodeLoop) close() {
	_ = l.in.Close()
	_ = l.cmd.Wait()
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
	case d < 10*time.Microsecond:
		return fmt.Sprintf("%.2f µs", float64(d)/1e3)
	}
	return fmt.Sprintf("%.0f µs", float64(d)/1e3)
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
