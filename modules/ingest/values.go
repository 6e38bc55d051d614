package ingest

import (
	"context"
	"strings"
	"time"
)

// Values writes values to a node's keys the way an uplink's values are
// stored: in the group commit with the uplinks (time series, keys
// registered, the node's latest data), then announced as UplinkReceived
// with Source set, so that charts, alarms and the live feed see them as
// they see an uplink's. It is how a person sets a manual value (POST
// /api/tag/{id}/tagdata) and how scripts make virtual sensors. The ingest
// module satisfies it.
type Values interface {
	// WriteValues validates and stores w. A tag that is not of
	// w.CompanyID is an errs.NotFound error; a bad key or value an
	// errs.Invalid error whose field is "key", "value" or "time".
	WriteValues(ctx context.Context, w Write) (Written, error)
}

// Write is a set of values for one node's keys at one time.
type Write struct {
	CompanyID int64
	TagID     int64
	// Time is when the values hold; zero for now. It may lie at most
	// MaxFuture ahead.
	Time time.Time
	// Values are by key: numbers (any Go number type), strings or
	// booleans (stored as 1 and 0, as an uplink's are). A key is what the
	// nodes module takes as a key name and must not start with '$', which
	// names the ingest's own series (UplinkKey).
	Values map[string]any
	// Source says who wrote them, for UplinkReceived.Source: SourceManual
	// or SourceScript.
	Source string
}

// Written is what WriteValues stored: the values as stored (float64 or
// string) and their time.
type Written struct {
	TagID  int64
	DevEUI string
	Time   time.Time
	Values map[string]any
}

// The sources of written values (UplinkReceived.Source); "" is an uplink
// from a network server or device.
const (
	SourceManual = "manual"
	SourceScript = "script"
)

// Message IDs (locale catalog keys) of the values WriteValues refuses.
const (
	IDValueKeyReserved = "ingest.value.keyReserved"
	IDValueType        = "ingest.value.type"
	IDValueTime        = "ingest.time.invalid"
	// IDValueKeyFormat is the nodes module's message of a malformed key.
	IDValueKeyFormat = "nodes.key.format"
)

// ReservedKey reports whether a key names one of the ingest's own series
// rather than a node's value.
func ReservedKey(k string) bool { return strings.HasPrefix(k, "$") }

// ValidKey reports whether k may name a node's key as the nodes module
// takes it: 1 to MaxKey letters, digits, dots, dashes and underscores.
func ValidKey(k string) bool { return k != "" && len(k) <= MaxKey && cleanKey(k) == k }
