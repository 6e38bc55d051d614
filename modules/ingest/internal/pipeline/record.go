package pipeline

import (
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Every uplink of a node is kept as it came, beside its decoded values: one
// text point under ingest.UplinkKey holding the payload, the port, the
// radio values and the decode errors (ingest.UplinkRecord), written in the
// same tsdb.Store.Write as the values. It is not a key of the node (never
// registered, not in the node's data or the live feed), and it is what
// Redecode decodes again after the node's decoder changed.

// Limits of what an uplink's record keeps of its decode errors: a codec may
// answer a megabyte of them, the record is written for every uplink.
const (
	recordErrors     = 5
	recordErrorBytes = 300
)

// uplinkPoint is the record point of a prepared uplink job; ok is false for
// a device status and for an uplink without a payload (a generic body with
// values alone), which has nothing to decode again and whose radio values
// are stored as rssi and snr already.
func uplinkPoint(j *job) (tsdb.Point, bool) {
	u := j.msg.Uplink
	if u == nil || len(u.Payload) == 0 {
		return tsdb.Point{}, false
	}
	rec := ingest.UplinkRecord{Payload: hex.EncodeToString(u.Payload), FPort: u.FPort, RSSI: u.RSSI, SNR: u.SNR,
		Errors: keptErrors(j.decodeErrors)}
	s := tsdb.Series{Company: j.company, DevEUI: j.devEUI(), Key: ingest.UplinkKey}
	return tsdb.Text(s, j.msg.Time, rec.Text()), true
}

// keptErrors are the decode errors as the uplink's record and the node's
// state keep them: the first few, each clipped; nil for none.
func keptErrors(errors []string) []string {
	var out []string
	for i, e := range errors {
		if i == recordErrors {
			out = append(out, fmt.Sprintf("… %d more", len(errors)-i))
			break
		}
		out = append(out, clipText(e, recordErrorBytes))
	}
	return out
}

// decodeError is the node state's record of an uplink's decode failure,
// nil when it decoded.
func decodeError(j *job) *nodes.DecodeError {
	u := j.msg.Uplink
	if u == nil || len(j.decodeErrors) == 0 {
		return nil
	}
	return &nodes.DecodeError{Time: u.Time, Payload: hex.EncodeToString(u.Payload), FPort: u.FPort, Errors: keptErrors(j.decodeErrors)}
}

// clipText cuts s to at most n bytes of valid UTF-8, without NUL (which
// PostgreSQL refuses in text).
func clipText(s string, n int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
