package netservers

import (
	"fmt"
	"strconv"
	"strings"
)

// DownlinkRef is the identifier the downlink worker gives downlink id at
// the network server: ChirpStack's queue item id (which must be a UUID) and
// a correlation id of The Things Stack, so that the network server's ack,
// txack and downlink messages name the downlink they are about.
func DownlinkRef(downlinkID int64) string { return fmt.Sprintf("%s%012x", refPrefix, downlinkID) }

// refPrefix starts every DownlinkRef: a UUID of version 4's layout whose
// first groups say Fieldhub (f1e1d), with the downlink's id in the last.
const refPrefix = "f1e1d000-0000-4000-8000-"

// DownlinkRefTag may precede a DownlinkRef in a correlation id of The
// Things Stack; the worker sends it so.
const DownlinkRefTag = "fieldhub:downlink:"

// ParseDownlinkRef returns the downlink id of a DownlinkRef, also when it
// is written as "fieldhub:downlink:<ref>".
func ParseDownlinkRef(ref string) (int64, bool) {
	s := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(ref), DownlinkRefTag))
	if len(s) != len(refPrefix)+12 || !strings.HasPrefix(s, refPrefix) {
		return 0, false
	}
	id, err := strconv.ParseInt(s[len(refPrefix):], 16, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}
