// Package smsfake holds test doubles of the SMS providers' HTTP APIs that
// the bundled plugins speak, 46elks and Twilio, answering in their
// published formats (see EXTERNAL-APIS.md sections 1 and 2): success,
// refusals of bad credentials and bad numbers, as plain text (46elks) or
// Twilio's JSON error. Point a plugin at one with its base URL variable
// (SMS_46ELKS_URL, SMS_TWILIO_URL).
package smsfake

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"
)

// SMS is one request a double received.
type SMS struct {
	From, To, Text string
	// Accepted tells whether the double answered that it accepted it.
	Accepted bool
	// ID is the id the double gave the accepted message.
	ID string
}

// double is what both fakes share: the requests, a hook and a signal.
type double struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []SMS
	// added is signalled (without blocking) on every request.
	added chan struct{}
	// BeforeAnswer, when set, is called with the request's number (from
	// 1) after the request is recorded and before it is answered: a test
	// blocks in it to hold a send in flight. Set it before the first
	// request.
	BeforeAnswer func(n int)
}

func newDouble(t testing.TB, h func(d *double, w http.ResponseWriter, r *http.Request)) *double {
	d := &double{added: make(chan struct{}, 1)}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h(d, w, r) }))
	t.Cleanup(d.srv.Close)
	return d
}

// URL is the double's base URL.
func (d *double) URL() string { return d.srv.URL }

// Requests returns every request received so far.
func (d *double) Requests() []SMS {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]SMS(nil), d.got...)
}

// Accepted returns the requests the double accepted.
func (d *double) Accepted() []SMS {
	var out []SMS
	for _, s := range d.Requests() {
		if s.Accepted {
			out = append(out, s)
		}
	}
	return out
}

// WaitAccepted waits until n messages were accepted or the timeout passes,
// and returns the accepted ones.
func (d *double) WaitAccepted(n int, timeout time.Duration) []SMS {
	deadline := time.After(timeout)
	for {
		if a := d.Accepted(); len(a) >= n {
			return a
		}
		select {
		case <-d.added:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			return d.Accepted()
		}
	}
}

// record adds s and returns its number; answer records the outcome.
func (d *double) record(s SMS) int {
	d.mu.Lock()
	d.got = append(d.got, s)
	n := len(d.got)
	d.mu.Unlock()
	return n
}

func (d *double) accept(n int, id string) {
	d.mu.Lock()
	d.got[n-1].Accepted, d.got[n-1].ID = true, id
	d.mu.Unlock()
	select {
	case d.added <- struct{}{}:
	default:
	}
}

func (d *double) hold(n int) {
	if d.BeforeAnswer != nil {
		d.BeforeAnswer(n)
	}
}

var e164 = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

func hexID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
