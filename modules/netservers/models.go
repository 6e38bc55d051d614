package netservers

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// Downlink statuses: queued until the worker has handed the downlink to the
// network server (sent) or given up (failed); a confirmed downlink that the
// device confirmed is acknowledged, one it did not confirm in time failed.
const (
	DownlinkQueued       = "queued"
	DownlinkSent         = "sent"
	DownlinkAcknowledged = "acknowledged"
	DownlinkFailed       = "failed"
)

// Downlink is a message queued for a node, a row of downlinks. The table
// was made by the nodes module, which held the queue first; its migrations
// stay under migrations/nodes.
type Downlink struct {
	bun.BaseModel `bun:"table:downlinks,alias:dl" json:"-"`

	ID int64 `bun:"id,pk,autoincrement" json:"id"`
	// TagID, with the tag's DevEUI, application and company.
	TagID         int64  `bun:"tag_id" json:"tagId"`
	DevEUI        string `bun:"deveui,scanonly" json:"deveui"`
	ApplicationID int64  `bun:"application_id,scanonly" json:"applicationId"`
	CompanyID     int64  `bun:"company_id,scanonly" json:"companyId"`
	Port          int    `bun:"port" json:"port"`
	// Payload is normalised: hex digits in upper case, padded standard
	// base64, or a compact JSON object, as PayloadType says.
	Payload     string `bun:"payload" json:"payload"`
	PayloadType string `bun:"payload_type" json:"payloadType"`
	// Encoded is what the node's decoder encoded a JSON payload into when
	// it was queued (its encodeDownlink), in upper-case hex; empty for hex
	// and base64 payloads and for a decoder without an encoder.
	Encoded   string    `bun:"encoded" json:"encoded,omitempty"`
	Confirmed bool      `bun:"confirmed" json:"confirmed"`
	Status    string    `bun:"status" json:"status"`
	Detail    string    `bun:"detail" json:"detail"`
	CreatedBy *int64    `bun:"created_by" json:"createdBy"`
	CreatedAt time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt time.Time `bun:"updated_at" json:"updatedAt"`
	// Attempts counts the worker's tries to hand the downlink to the
	// network server; RetryAt, while it is still queued after a failed
	// try, is when the next may start.
	Attempts int        `bun:"attempts" json:"attempts"`
	RetryAt  *time.Time `bun:"retry_at" json:"retryAt"`
}

// Bytes returns the payload of a hex or base64 downlink, or the bytes a
// JSON downlink was encoded into; nil for a JSON downlink without (whose
// decoder has no encoder).
func (d *Downlink) Bytes() []byte {
	switch d.PayloadType {
	case "hex":
		b, _ := hex.DecodeString(d.Payload)
		return b
	case "base64":
		b, _ := base64.StdEncoding.DecodeString(d.Payload)
		return b
	case "json":
		if d.Encoded == "" {
			return nil
		}
		b, _ := hex.DecodeString(d.Encoded)
		return b
	}
	return nil
}

// Object returns the payload of a JSON downlink.
func (d *Downlink) Object() map[string]any {
	if d.PayloadType != "json" {
		return nil
	}
	var obj map[string]any
	_ = json.Unmarshal([]byte(d.Payload), &obj)
	return obj
}

// DownlinkAttempt is the outcome of one try of the downlink worker, for
// Downlinks.RecordDownlinkAttempt: DownlinkSent, DownlinkFailed (Detail
// says why), or DownlinkQueued to try again at RetryAt (Detail says what
// went wrong).
type DownlinkAttempt struct {
	Status  string
	Detail  string
	RetryAt time.Time
}

// DownlinkRequest is a downlink another module queues (QueueDownlink): the
// same fields as the body of POST /api/downlink/{tagId}, validated alike.
type DownlinkRequest struct {
	Port        int             `json:"port"`
	Payload     json.RawMessage `json:"payload"`
	PayloadType string          `json:"payloadType"`
	Confirmed   bool            `json:"confirmed"`
}
