// Package store holds the accounts module's tables: users, companies and
// their logos, sessions, password resets and login failures. Each function
// takes the bun.IDB to run on, so that the caller chooses the transaction.
package store

import (
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// errNotFound answers a lookup of an id or address nobody has.
var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)
