package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"sync"

	"github.com/fieldhub/fieldhub/kernel/auth"
)

// Login is the program's own sign-in: HTTP Basic against its own list of
// users, each mapped to the Fieldhub member who acts for them. A real
// program would read its session cookie or its single sign-on here.
type Login struct {
	mu    sync.RWMutex
	users map[string]account
}

type account struct {
	password [sha256.Size]byte
	caller   auth.Caller
}

func newLogin() *Login { return &Login{users: map[string]account{}} }

func (l *Login) add(name, password string, c auth.Caller) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.users[name] = account{password: sha256.Sum256([]byte(password)), caller: c}
}

// authenticate is a kernel authenticator: a request with the Basic
// credentials of a user of the list acts as that user's member. Other
// requests go on as the kernel decides (an integration token on the ingest
// routes, or a visitor, whom the routes refuse).
func (l *Login) authenticate(r *http.Request) (auth.Caller, bool) {
	name, password, ok := r.BasicAuth()
	if !ok {
		return auth.Caller{}, false
	}
	l.mu.RLock()
	a, known := l.users[name]
	l.mu.RUnlock()
	given := sha256.Sum256([]byte(password))
	if !known || subtle.ConstantTimeCompare(given[:], a.password[:]) != 1 {
		return auth.Caller{}, false
	}
	return a.caller, true
}
