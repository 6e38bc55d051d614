package loadkit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// A minimal MQTT 3.1.1 publisher for the load benchmarks, in the spirit of
// the HTTP client in load.go: it writes prebuilt PUBLISH packets with QoS 1,
// keeps up to a window of them unacknowledged, and parses only the PUBACKs.
// A publisher built on a full MQTT client would spend more of the shared CPU
// than the broker and the server it loads.

// Publisher is one MQTT connection that publishes with QoS 1.
type Publisher struct {
	conn  net.Conn
	rd    *bufio.Reader
	wr    *bufio.Writer
	slots chan struct{} // one per unacknowledged publish
	acked atomic.Int64
	next  uint16 // packet identifier of the next publish
	err   atomic.Value
	done  chan struct{} // closed when the reader stops
}

// DialMQTT connects to the broker at addr (host:port) with a clean session
// and no keep-alive, and returns a publisher that keeps up to window
// publishes unacknowledged.
func DialMQTT(addr, clientID string, window int) (*Publisher, error) {
	if window < 1 || window > 60000 {
		return nil, errors.New("window must be 1 to 60000")
	}
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	p := &Publisher{conn: conn, rd: bufio.NewReaderSize(conn, 64<<10), wr: bufio.NewWriterSize(conn, 64<<10),
		slots: make(chan struct{}, window), done: make(chan struct{})}
	// CONNECT: protocol "MQTT" level 4, clean session, keep-alive 0.
	var body []byte
	body = appendString(body, "MQTT")
	body = append(body, 4, 0x02, 0, 0)
	body = appendString(body, clientID)
	pkt := appendLength(append([]byte(nil), 0x10), len(body))
	if _, err := conn.Write(append(pkt, body...)); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	ack := make([]byte, 4)
	if _, err := io.ReadFull(p.rd, ack); err != nil {
		conn.Close()
		return nil, fmt.Errorf("CONNACK: %w", err)
	}
	if ack[0] != 0x20 || ack[3] != 0 {
		conn.Close()
		return nil, fmt.Errorf("broker refused the connection: CONNACK % x", ack)
	}
	_ = conn.SetReadDeadline(time.Time{})
	go p.read()
	return p, nil
}

// read takes the PUBACKs until the connection ends.
func (p *Publisher) read() {
	defer close(p.done)
	hdr := make([]byte, 4)
	for {
		if _, err := io.ReadFull(p.rd, hdr[:2]); err != nil {
			p.fail(err)
			return
		}
		if hdr[0] != 0x40 || hdr[1] != 2 {
			p.fail(fmt.Errorf("unexpected packet % x", hdr[:2]))
			return
		}
		if _, err := io.ReadFull(p.rd, hdr[2:4]); err != nil {
			p.fail(err)
			return
		}
		p.acked.Add(1)
		<-p.slots
	}
}

func (p *Publisher) fail(err error) {
	if p.err.Load() == nil {
		p.err.Store(err)
	}
}

// Err is what ended the connection, if anything.
func (p *Publisher) Err() error {
	if err, ok := p.err.Load().(error); ok {
		return err
	}
	return nil
}

// Acked is how many publishes the broker has acknowledged.
func (p *Publisher) Acked() int64 { return p.acked.Load() }

// Publish queues one QoS 1 publish, waiting while the window is full. It
// sends what is queued when the window fills; Flush sends the rest.
func (p *Publisher) Publish(topic string, payload []byte) error {
	select {
	case p.slots <- struct{}{}:
	default:
		if err := p.wr.Flush(); err != nil {
			return err
		}
		select {
		case p.slots <- struct{}{}:
		case <-p.done:
			return fmt.Errorf("connection ended: %v", p.Err())
		}
	}
	p.next++
	if p.next == 0 {
		p.next = 1
	}
	n := 2 + len(topic) + 2 + len(payload)
	var hdr [5]byte
	h := appendLength(append(hdr[:0], 0x32), n) // PUBLISH, QoS 1
	p.wr.Write(h)
	p.wr.WriteByte(byte(len(topic) >> 8))
	p.wr.WriteByte(byte(len(topic)))
	p.wr.WriteString(topic)
	p.wr.WriteByte(byte(p.next >> 8))
	p.wr.WriteByte(byte(p.next))
	_, err := p.wr.Write(payload)
	return err
}

// Flush sends the queued publishes.
func (p *Publisher) Flush() error { return p.wr.Flush() }

// Drain flushes and waits up to d for every publish to be acknowledged.
func (p *Publisher) Drain(d time.Duration) error {
	if err := p.Flush(); err != nil {
		return err
	}
	deadline := time.Now().Add(d)
	for len(p.slots) > 0 {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d publishes not acknowledged within %s", len(p.slots), d)
		}
		if err := p.Err(); err != nil {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// Close disconnects.
func (p *Publisher) Close() {
	_ = p.wr.Flush()
	_, _ = p.conn.Write([]byte{0xe0, 0}) // DISCONNECT
	p.conn.Close()
	<-p.done
}

func appendString(b []byte, s string) []byte {
	return append(append(b, byte(len(s)>>8), byte(len(s))), s...)
}

// appendLength appends MQTT's variable-length "remaining length".
func appendLength(b []byte, n int) []byte {
	for {
		d := byte(n % 128)
		n /= 128
		if n > 0 {
			d |= 0x80
		}
		b = append(b, d)
		if n == 0 {
			return b
		}
	}
}

// Broker is a Mosquitto of a benchmark's own, on a free loopback port.
type Broker struct {
	Addr string // host:port
	URL  string // mqtt://host:port
	cmd  *exec.Cmd
	done chan struct{}
	log  string
}

// StartMosquitto runs mosquitto with a configuration file in dir: a
// listener on a free loopback port, anonymous access, and the extra lines
// (the settings under test). It fails when mosquitto is not installed.
func StartMosquitto(dir string, extra ...string) (*Broker, error) {
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/mosquitto"); serr != nil {
			return nil, errors.New("mosquitto is not installed (scripts/ensure-mosquitto.sh installs it)")
		}
		bin = "/usr/sbin/mosquitto"
	}
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	_, port, _ := net.SplitHostPort(addr)
	conf := filepath.Join(dir, "mosquitto.conf")
	lines := append([]string{"listener " + port + " 127.0.0.1", "allow_anonymous true"}, extra...)
	if err := os.WriteFile(conf, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "mosquitto.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-c", conf)
	cmd.Stdout, cmd.Stderr, cmd.SysProcAttr = logFile, logFile, childAttr()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start mosquitto: %w", err)
	}
	b := &Broker{Addr: addr, URL: "mqtt://" + addr, cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(b.done)
	}()
	for range 100 {
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return b, nil
		}
		select {
		case <-b.done:
			return nil, fmt.Errorf("mosquitto exited at start:\n%s", Tail(logPath, 20))
		case <-time.After(50 * time.Millisecond):
		}
	}
	b.Stop()
	return nil, fmt.Errorf("mosquitto does not answer on %s:\n%s", addr, Tail(logPath, 20))
}

// PID is the broker's process id.
func (b *Broker) PID() int { return b.cmd.Process.Pid }

// Stop ends the broker.
func (b *Broker) Stop() {
	select {
	case <-b.done:
		return
	default:
	}
	_ = b.cmd.Process.Kill()
	<-b.done
}
