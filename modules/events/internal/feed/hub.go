package feed

import "sync"

// hub holds this instance's connections by company. Broadcasting never
// waits: each connection has a bounded queue, and one that is full is
// dropped (its client reconnects), so that a slow client costs only itself.
type hub struct {
	mu        sync.RWMutex
	byCompany map[int64]map[*client]struct{}
}

func newHub() *hub { return &hub{byCompany: map[int64]map[*client]struct{}{}} }

// client is one connection's place in the hub.
type client struct {
	company int64
	// audit tells whether the connection receives the audit trail
	// (USEREVENT entries): a CompanyAdmin's, an Admin's or a SuperAdmin's.
	audit bool
	queue chan []byte
	// dropped is closed when the queue overflowed.
	dropped chan struct{}
	once    sync.Once
}

func newClient(company int64, audit bool, queueSize int) *client {
	return &client{company: company, audit: audit, queue: make(chan []byte, queueSize), dropped: make(chan struct{})}
}

// offer queues msg, or drops the client when its queue is full; it
// reports whether this call dropped it.
func (c *client) offer(msg []byte) (droppedNow bool) {
	select {
	case <-c.dropped:
		return false
	default:
	}
	select {
	case c.queue <- msg:
		return false
	default:
		c.once.Do(func() { close(c.dropped); droppedNow = true })
		return droppedNow
	}
}

func (h *hub) add(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.byCompany[c.company]
	if set == nil {
		set = map[*client]struct{}{}
		h.byCompany[c.company] = set
	}
	set[c] = struct{}{}
}

func (h *hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.byCompany[c.company]
	delete(set, c)
	if len(set) == 0 {
		delete(h.byCompany, c.company)
	}
}

// has reports whether any connection here follows company, so that an
// instance skips the events nobody here is waiting for.
func (h *hub) has(company int64) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.byCompany[company]) > 0
}

// broadcast offers msg to every connection of company (with audit, only to
// those that receive the audit trail) and returns how many connections it
// dropped because they fell behind.
func (h *hub) broadcast(company int64, audit bool, msg []byte) (dropped int) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for c := range h.byCompany[company] {
		if audit && !c.audit {
			continue
		}
		if c.offer(msg) {
			dropped++
		}
	}
	return dropped
}
