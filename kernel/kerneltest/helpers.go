package kerneltest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/events"
)

// WaitFor waits for ok, which something asynchronous (the event bus, a
// background loop) makes true, and fails the test with msg when within
// has passed.
func WaitFor(tb testing.TB, within time.Duration, ok func() bool, msg func() string) {
	tb.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			tb.Fatal(msg())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Recorder keeps the events a bus delivers on some topics, for tests that
// check what was published.
type Recorder struct {
	mu     sync.Mutex
	events []events.Event
}

// Record subscribes a new recorder to topics of bus.
func Record(bus events.Bus, topics ...string) *Recorder {
	r := &Recorder{}
	for _, topic := range topics {
		bus.Subscribe(topic, func(_ context.Context, ev events.Event) {
			r.mu.Lock()
			r.events = append(r.events, ev)
			r.mu.Unlock()
		})
	}
	return r
}

// Events returns the events recorded so far, in the order they came.
func (r *Recorder) Events() []events.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]events.Event(nil), r.events...)
}

// AppNode is an application of a company and a node in it, made through
// the API.
type AppNode struct {
	// AppID and TagID are the ids of the application and the node (0
	// without one).
	AppID, TagID int64
	// DevEUI is the node's DevEUI as it was given.
	DevEUI string
}

// AppNode makes an application of companyID named appName and, unless
// tagName is empty, a node in it, through the API as token's owner.
func (c *Client) AppNode(tb testing.TB, token string, companyID int64, appName, tagName, deveui string) AppNode {
	tb.Helper()
	f := AppNode{AppID: c.Must(tb, "POST", fmt.Sprintf("/api/applications/%d", companyID), token, map[string]any{"name": appName}, http.StatusCreated).Num("id"), DevEUI: deveui}
	if tagName != "" {
		f.TagID = c.Must(tb, "POST", fmt.Sprintf("/api/applications/%d/tag", f.AppID), token,
			map[string]any{"name": tagName, "deveui": deveui}, http.StatusCreated).Num("id")
	}
	return f
}

// Contains fails the test for each of want that body lacks and each of not
// that it shows.
func Contains(tb testing.TB, body string, want, not []string) {
	tb.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			tb.Errorf("lacks %q", w)
		}
	}
	for _, n := range not {
		if strings.Contains(body, n) {
			tb.Errorf("shows %q", n)
		}
	}
}

// TagData returns the keys of a node with their latest values (GET
// /api/tag/meta/{tag}/tagdata as token's owner) by key.
func (c *Client) TagData(tb testing.TB, token string, tag int64) map[string]map[string]any {
	tb.Helper()
	r := c.Must(tb, "GET", fmt.Sprintf("/api/tag/meta/%d/tagdata", tag), token, nil, http.StatusOK)
	out := map[string]map[string]any{}
	for _, x := range r.List() {
		m := x.(map[string]any)
		out[m["key"].(string)] = m
	}
	return out
}
