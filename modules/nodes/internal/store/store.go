// Package store holds the queries of the nodes module's tables:
// applications, tags with their pictures, data keys, the node pool and
// integration tokens, with the batched forms the ingest uses. Each function
// takes the bun.IDB to run on, so that the caller chooses the transaction.
package store

import (
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// notFoundOr turns "no rows" into the domain's not found and wraps the rest.
func notFoundOr(err error, what string, args ...any) error {
	if db.IsNoRows(err) {
		return errNotFound
	}
	return fmt.Errorf(what+": %w", append(args, err)...)
}

// Now is the time the module stores: the present, in UTC.
func Now() time.Time { return time.Now().UTC() }
