// Package store holds the accounts module's tables: users, companies and
// their logos, sessions and ended sessions, password resets, login failures
// and registration notices. Each function takes the bun.IDB to run on, so
// that the caller chooses the transaction.
package store

import (
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// errNotFound answers a lookup of an id or address nobody has.
var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)
