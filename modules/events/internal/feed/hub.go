package feed

import "sync"

// hub holds this instance's connections by company and by user.
// Broadcasting never waits: each connection has a bounded queue, and one
// that is full is dropped (its client reconnects), so that a slow client
// costs only itself.
type hub struct {
	mu        sync.RWMutex
	byCompany map[int64]map[*client]struct{}
	byUser    map[int64]map[*client]struct{}
}

func newHub() *hub {
	return &hub{byCompany: map[int64]map[*client]struct{}{}, byUser: map[int64]map[*client]struct{}{}}
}

// client is one connection's place in the hub.
type client struct {
	company int64
	user    int64
	// userOnly tells that the connection asked only for the messages to its
	// user (?only=user): the company's uplinks and log entries skip it.
	userOnly bool
	// audit tells whether the connection receives the audit trail
	// (USEREVENT entries): a CompanyAdmin's, an Admin's or a SuperAdmin's.
	audit bool
	queue chan []byte
	// dropped is closed when the queue overflowed.
	dropped chan struct{}
	once    sync.Once
}

func newClient(company, user int64, userOnly, audit bool, queueSize int) *client {
	return &client{company: company, user: user, userOnly: userOnly, audit: audit,
		queue: make(chan []byte, queueSize), dropped: make(chan struct{})}
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
	if !c.userOnly {
		join(h.byCompany, c.company, c)
	}
	join(h.byUser, c.user, c)
}

func (h *hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	leave(h.byCompany, c.company, c)
	leave(h.byUser, c.user, c)
}

func join(m map[int64]map[*client]struct{}, key int64, c *client) {
	set := m[key]
	if set == nil {
		set = map[*client]struct{}{}
		m[key] = set
	}
	set[c] = struct{}{}
}

func leave(m map[int64]map[*client]struct{}, key int64, c *client) {
	set := m[key]
	delete(set, c)
	if len(set) == 0 {
		delete(m, key)
	}
}

// hasUser reports whether any connection here is of one of users.
func (h *hub) hasUser(users []int64) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, u := range users {
		if len(h.byUser[u]) > 0 {
			return true
		}
	}
	return false
}

// toUsers offers msg to every connection of users and returns how many
// connections it dropped because they fell behind.
func (h *hub) toUsers(users []int64, msg []byte) (dropped int) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, u := range users {
		for c := range h.byUser[u] {
			if c.offer(msg) {
				dropped++
			}
		}
	}
	return dropped
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
