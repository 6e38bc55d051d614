package nodes

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// What the nodes module needs from other modules, each as narrow as its
// calls; package module receives them in its Deps.

// Accounts is the part of the accounts module that nodes uses: whether a
// company exists. It returns an errs.NotFound error for an unknown id.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Decoders is the list of device decoders a tag of a company may name: the
// built-in ones and the company's own. Has reports whether key is one of
// them; Catalog lists them by name for the tag forms, without the empty
// prompt. A Catalog that fails or is empty means the list could not be
// read: the forms then say "Could not fetch decoders" and offer the
// built-in list. SwitchedOff tells why a company's decoder is switched off
// (nil while it decodes), for the node details page to say why the node's
// values stopped.
type Decoders interface {
	Has(ctx context.Context, company int64, key string) (bool, error)
	Catalog(ctx context.Context, company int64) ([]decoders.Entry, error)
	SwitchedOff(ctx context.Context, company int64, key string) (*decoders.SwitchOff, error)
}

// Series is the part of tsdb.Store that nodes uses: it reads the stored
// values the node details page and the tag data API show (points, trends,
// latest values) and the counts of data points, and copies and deletes a
// node's series when a SuperAdmin moves the node to another company. The
// methods return what tsdb.Store documents.
type Series interface {
	Range(ctx context.Context, s tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error)
	Latest(ctx context.Context, s tsdb.Series) (tsdb.Point, bool, error)
	Aggregate(ctx context.Context, s tsdb.Series, from, to time.Time, bucket time.Duration) ([]tsdb.Bucket, error)
	AggregateEdges(ctx context.Context, s tsdb.Series, edges []time.Time) ([]tsdb.Bucket, error)
	Count(ctx context.Context, company int64, from, to time.Time) (int64, error)
	CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error)
	CopyNode(ctx context.Context, from, to int64, devEUI string) (int64, error)
	DeleteNode(ctx context.Context, company int64, devEUI string) error
}
