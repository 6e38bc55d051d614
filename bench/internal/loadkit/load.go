package loadkit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Load is one closed-loop run: Conns keep-alive connections, each sending
// its next request as soon as the previous answer is read, for Warmup (not
// counted) and then Duration.
type Load struct {
	Addr      string
	Conns     int
	Warmup    time.Duration
	Duration  time.Duration
	ServerPID int // whose CPU time is measured
	// Request appends the next request of connection conn (0 to Conns-1)
	// to buf and returns it. It is called from that connection's goroutine
	// only.
	Request func(conn int, buf []byte) []byte
	// OK reports whether an answer's status counts as a success; nil counts
	// 200 only.
	OK func(status int) bool
}

// Result is what one measured run saw. Latencies are of the successful
// requests started inside the measured window, sorted.
type Result struct {
	Requests   int
	Errors     int
	FirstError string
	Reconnects int64
	Elapsed    time.Duration
	Latencies  []time.Duration
	ServerCPU  time.Duration
	ClientCPU  time.Duration
	DBCPU      time.Duration // every process named postgres (its backends)
	MachineCPU time.Duration // every process, the database server's included
}

// OKs is the number of successful requests.
func (r *Result) OKs() int { return len(r.Latencies) }

// Rate is successful requests per second.
func (r *Result) Rate() float64 { return float64(len(r.Latencies)) / r.Elapsed.Seconds() }

// Cores turns a CPU time of the measured window into cores kept busy.
func (r *Result) Cores(cpu time.Duration) float64 { return cpu.Seconds() / r.Elapsed.Seconds() }

// Percentile returns the p-th percentile latency (p in 0-100).
func (r *Result) Percentile(p float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := int(float64(len(r.Latencies))*p/100+0.5) - 1
	i = max(0, min(i, len(r.Latencies)-1))
	return r.Latencies[i]
}

// Print writes the usual summary lines.
func (r *Result) Print(unit string) {
	secs := r.Elapsed.Seconds()
	fmt.Printf("  %-12s %d in %.2f s (%d ok, %d errors, %d reconnects)\n", unit+":", r.Requests, secs, r.OKs(), r.Errors, r.Reconnects)
	fmt.Printf("  throughput:  %.0f %s/s\n", r.Rate(), unit)
	fmt.Printf("  latency:     p50 %s  p90 %s  p99 %s  max %s\n",
		Ms(r.Percentile(50)), Ms(r.Percentile(90)), Ms(r.Percentile(99)), Ms(r.Percentile(100)))
	fmt.Printf("  CPU:         server %.2f cores, loadgen %.2f cores, PostgreSQL %.2f cores, whole machine %.2f cores busy (of %d)\n",
		r.Cores(r.ServerCPU), r.Cores(r.ClientCPU), r.Cores(r.DBCPU), r.Cores(r.MachineCPU), runtime.NumCPU())
	if other := r.MachineCPU - r.ServerCPU - r.ClientCPU - r.DBCPU; r.Cores(other) > 0.1 {
		fmt.Printf("               and %.2f cores to the kernel (loopback networking) and other processes\n", r.Cores(other))
	}
	if r.FirstError != "" {
		fmt.Printf("  first error: %s\n", r.FirstError)
	}
}

// Ms formats a duration in milliseconds with two decimals.
func Ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + " ms"
}

// worker owns one connection and records the requests it started inside the
// measured window.
type worker struct {
	id         int
	load       *Load
	conn       net.Conn
	rd         *bufio.Reader
	buf        []byte
	lat        []time.Duration
	errors     int
	firstError string
	reconnects *atomic.Int64
}

// Run runs the load and measures it.
func Run(l Load) (*Result, error) {
	if l.OK == nil {
		l.OK = func(status int) bool { return status == http.StatusOK }
	}
	workers := make([]*worker, l.Conns)
	var reconnects atomic.Int64
	for i := range workers {
		w := &worker{id: i, load: &l, reconnects: &reconnects, lat: make([]time.Duration, 0, 1<<14)}
		if err := w.dial(); err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		workers[i] = w
	}
	start := time.Now()
	measureFrom := start.Add(l.Warmup)
	end := measureFrom.Add(l.Duration)
	var serverCPU0, clientCPU0, dbCPU0, machineCPU0 time.Duration
	var cpuOnce sync.Once
	markCPU := func() {
		serverCPU0, _ = ProcessCPU(l.ServerPID)
		clientCPU0 = SelfCPU()
		dbCPU0 = CommandCPU("postgres")
		machineCPU0, _ = MachineCPU()
	}
	if l.Warmup == 0 {
		cpuOnce.Do(markCPU)
	} else {
		timer := time.AfterFunc(l.Warmup, func() { cpuOnce.Do(markCPU) })
		defer timer.Stop()
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(measureFrom, end)
		}()
	}
	wg.Wait()
	stopped := time.Now()
	cpuOnce.Do(markCPU)
	serverCPU1, err := ProcessCPU(l.ServerPID)
	if err != nil {
		return nil, err
	}
	clientCPU1 := SelfCPU()
	dbCPU1 := CommandCPU("postgres")
	machineCPU1, err := MachineCPU()
	if err != nil {
		return nil, err
	}
	res := &Result{
		Reconnects: reconnects.Load(),
		Elapsed:    stopped.Sub(measureFrom),
		ServerCPU:  serverCPU1 - serverCPU0,
		ClientCPU:  clientCPU1 - clientCPU0,
		DBCPU:      dbCPU1 - dbCPU0,
		MachineCPU: machineCPU1 - machineCPU0,
	}
	for _, w := range workers {
		w.conn.Close()
		res.Latencies = append(res.Latencies, w.lat...)
		res.Errors += w.errors
		if res.FirstError == "" {
			res.FirstError = w.firstError
		}
	}
	res.Requests = len(res.Latencies) + res.Errors
	slices.Sort(res.Latencies)
	return res, nil
}

func (w *worker) dial() error {
	if w.conn != nil {
		w.conn.Close()
	}
	c, err := net.Dial("tcp", w.load.Addr)
	if err != nil {
		return err
	}
	w.conn = c
	if w.rd == nil {
		w.rd = bufio.NewReaderSize(c, 16<<10)
	} else {
		w.rd.Reset(c)
	}
	return nil
}

func (w *worker) loop(measureFrom, end time.Time) {
	for {
		w.buf = w.load.Request(w.id, w.buf[:0])
		t0 := time.Now()
		if !t0.Before(end) {
			return
		}
		status, keepAlive, err := w.roundTrip(w.buf)
		d := time.Since(t0)
		counted := !t0.Before(measureFrom)
		if err != nil {
			keepAlive = false // the connection's state is unknown
		} else if !w.load.OK(status) {
			err = fmt.Errorf("status %d", status)
		}
		if err != nil {
			if counted {
				w.errors++
				if w.firstError == "" {
					w.firstError = err.Error()
				}
			}
		} else if counted {
			w.lat = append(w.lat, d)
		}
		if !keepAlive {
			w.reconnects.Add(1)
			if derr := w.dial(); derr != nil {
				if counted && w.firstError == "" {
					w.firstError = derr.Error()
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
}

// roundTrip writes the request and reads one response: status line,
// headers, and a body given by Content-Length or chunked encoding.
func (w *worker) roundTrip(req []byte) (status int, keepAlive bool, err error) {
	if _, err := w.conn.Write(req); err != nil {
		return 0, false, err
	}
	line, err := w.rd.ReadSlice('\n')
	if err != nil {
		return 0, false, err
	}
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, false, fmt.Errorf("bad status line %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, false, fmt.Errorf("bad status line %q", line)
	}
	length, chunked := -1, false
	keepAlive = true
	for {
		h, err := w.rd.ReadSlice('\n')
		if err != nil {
			return status, false, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return status, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			keepAlive = !bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case chunked:
		err = w.skipChunked()
	case length >= 0:
		_, err = w.rd.Discard(length)
	default:
		return status, false, errors.New("response without Content-Length or chunked encoding")
	}
	if err != nil {
		return status, false, err
	}
	return status, keepAlive, nil
}

func (w *worker) skipChunked() error {
	for {
		line, err := w.rd.ReadSlice('\n')
		if err != nil {
			return err
		}
		sizeText, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		size, err := strconv.ParseInt(string(bytes.TrimSpace(sizeText)), 16, 64)
		if err != nil {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if size == 0 {
			for { // trailers, then the empty line
				t, err := w.rd.ReadSlice('\n')
				if err != nil {
					return err
				}
				if len(bytes.TrimRight(t, "\r\n")) == 0 {
					return nil
				}
			}
		}
		if _, err := w.rd.Discard(int(size) + 2); err != nil {
			return err
		}
	}
}

// ProcessCPU is the user and system CPU time a process has used so far,
// from /proc/<pid>/stat.
func ProcessCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond, nil
}

// CommandCPU is the CPU time that every running process named comm (such
// as postgres, whose backends are processes) has used so far. Processes
// that ended between two calls are missed.
func CommandCPU(comm string) time.Duration {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	var total time.Duration
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		name, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if err != nil || strings.TrimSpace(string(name)) != comm {
			continue
		}
		if d, err := ProcessCPU(pid); err == nil {
			total += d
		}
	}
	return total
}

// MachineCPU is the busy (not idle, not iowait) CPU time of all cores so far,
// from /proc/stat.
func MachineCPU() (time.Duration, error) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := bytes.Cut(raw, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 8 || f[0] != "cpu" {
		return 0, errors.New("unreadable /proc/stat")
	}
	var busy int64
	for i, v := range f[1:8] { // user nice system idle iowait irq softirq
		if i == 3 || i == 4 {
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		busy += n
	}
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(busy) * time.Second / ticksPerSecond, nil
}

// SelfCPU is the CPU time this process has used so far.
func SelfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
