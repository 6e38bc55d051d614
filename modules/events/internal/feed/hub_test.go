package feed

import (
	"fmt"
	"testing"
)

// TestHub checks that broadcasting reaches only the company's clients and
// never waits: a client whose queue is full is dropped, once, and the
// others go on receiving.
func TestHub(t *testing.T) {
	t.Parallel()
	h := newHub()
	slow, fast, other := newClient(1, 11, false, false, 2), newClient(1, 12, false, false, 8), newClient(2, 21, false, false, 8)
	for _, c := range []*client{slow, fast, other} {
		h.add(c)
	}
	drops := 0
	for i := range 4 {
		drops += h.broadcast(1, false, []byte(fmt.Sprint(i)))
		<-fast.queue // a client that keeps up
	}
	if drops != 1 {
		t.Errorf("%d drops, want 1 (the slow client, once)", drops)
	}
	select {
	case <-slow.dropped:
	default:
		t.Error("the slow client is not dropped")
	}
	if len(slow.queue) != 2 || len(other.queue) != 0 {
		t.Errorf("queues: slow %d, other company %d", len(slow.queue), len(other.queue))
	}
	h.remove(slow)
	h.remove(fast)
	if h.has(1) || !h.has(2) {
		t.Error("has after remove")
	}
}

// TestHubAudit checks that the audit trail reaches only the connections
// that receive it, and other messages every connection of the company.
func TestHubAudit(t *testing.T) {
	t.Parallel()
	h := newHub()
	admin, user := newClient(1, 11, false, true, 4), newClient(1, 12, false, false, 4)
	h.add(admin)
	h.add(user)
	h.broadcast(1, true, []byte("audit"))
	h.broadcast(1, false, []byte("uplink"))
	if len(admin.queue) != 2 || len(user.queue) != 1 || string(<-user.queue) != "uplink" {
		t.Errorf("queues: administrator %d, user %d", len(admin.queue), len(user.queue))
	}
}

func TestFrame(t *testing.T) {
	t.Parallel()
	if got := string(frame([]byte(`{"id":"x"}`))); got != `{"type":"BroadcastEvent","event":{"id":"x"}}` {
		t.Errorf("frame: %s", got)
	}
}
