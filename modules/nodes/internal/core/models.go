// Package core implements the nodes module: applications, their nodes (tags)
// with data keys and pictures, the pool of unknown DevEUIs, integration
// tokens and the queue of downlinks.
//
// Downlinks are only queued here. Delivery to the network server is done by
// the ingest/downlink worker, which reads the queue through Queued, sends
// each downlink through the application's network server and records the
// outcome with SetDownlinkStatus.
package core

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// Application groups a company's nodes and says which network server they
// talk through. The JSON names are those of SPEC.md section 3 plus the
// network-server settings.
type Application struct {
	bun.BaseModel `bun:"table:applications,alias:app" json:"-"`

	ID                      int64  `bun:"id,pk,autoincrement" json:"id"`
	CompanyID               int64  `bun:"company_id" json:"companyId"`
	Name                    string `bun:"name" json:"name"`
	NetworkServer           string `bun:"network_server" json:"networkServer"`
	ChirpStackApplicationID string `bun:"chirpstack_application_id" json:"chirpstackApplicationId"`
	TTSDownlinkURL          string `bun:"tts_downlink_url" json:"ttsDownlinkUrl"`
	// SealedTTSAPIKey is the The Things Stack API key sealed with the
	// kernel's Box; Service.TTSAPIKey opens it. It is never sent to clients.
	SealedTTSAPIKey string    `bun:"tts_api_key" json:"-"`
	TTSAPIKeySet    bool      `bun:"-" json:"ttsApiKeySet"`
	CreatedAt       time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt       time.Time `bun:"updated_at" json:"updatedAt"`
}

// Tag is a node, identified by its DevEUI. The JSON names are those of
// SPEC.md section 3. Battery, RSSI, VDD, ActiveAlarm, LatestTime and the
// latest data are the node's state as uplinks and alarms report it; people
// do not set them.
type Tag struct {
	bun.BaseModel `bun:"table:tags,alias:tag" json:"-"`

	ID            int64  `bun:"id,pk,autoincrement" json:"id"`
	CompanyID     int64  `bun:"company_id" json:"companyId"`
	ApplicationID int64  `bun:"application_id" json:"applicationId"`
	Name          string `bun:"name" json:"name"`
	// DevEUI is 16 upper-case hexadecimal digits.
	DevEUI       string `bun:"deveui" json:"deveui"`
	SealedAppKey string `bun:"app_key" json:"-"`
	// AppKey is opened from SealedAppKey when the tag is loaded; the API
	// shows it only to those who manage the tag's company.
	AppKey      string     `bun:"-" json:"appKey"`
	AppEUI      string     `bun:"app_eui" json:"appEui"`
	Profile     string     `bun:"profile" json:"profile"`
	Lat         *float64   `bun:"latitude" json:"lat"`
	Long        *float64   `bun:"longitude" json:"long"`
	Location    string     `bun:"location" json:"location"`
	Type        string     `bun:"type" json:"type"`
	Decoder     string     `bun:"decoder" json:"decoder"`
	Battery     *float64   `bun:"battery" json:"battery"`
	RSSI        *float64   `bun:"rssi" json:"rssi"`
	VDD         *float64   `bun:"vdd" json:"vdd"`
	ActiveAlarm bool       `bun:"active_alarm" json:"activeAlarm"`
	LatestTime  *time.Time `bun:"latest_time" json:"latestTime"`
	// LatestData is the latest decoded uplink as a JSON object.
	LatestData   string    `bun:"latest_data" json:"-"`
	ImageVersion *string   `bun:"image_version,scanonly" json:"-"`
	CreatedAt    time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt    time.Time `bun:"updated_at" json:"updatedAt"`

	// Derived when the tag is loaded.
	Image          *string        `bun:"-" json:"image"`
	ActiveData     bool           `bun:"-" json:"activeData"`
	LatestValue    any            `bun:"-" json:"latestValue"`
	DataPoints24h  int64          `bun:"-" json:"dataPoints24h"`
	Keys           []string       `bun:"-" json:"keys"`
	Data           map[string]any `bun:"-" json:"data"`
	NameWithDevEUI string         `bun:"-" json:"nameWithDeveui"`
}

// ActiveWindow is how recent a node's latest uplink must be for it to count
// as sending data (SPEC.md section 9: an inactivity alarm after 6 hours).
const ActiveWindow = 6 * time.Hour

// Key describes one data key of a tag: a name in the decoded uplinks (such
// as "temperature") with how people see it.
type Key struct {
	bun.BaseModel `bun:"table:tag_keys,alias:tk" json:"-"`

	ID        int64     `bun:"id,pk,autoincrement" json:"id"`
	TagID     int64     `bun:"tag_id" json:"tagId"`
	Key       string    `bun:"tag_key" json:"key"`
	Label     string    `bun:"label" json:"label"`
	Unit      string    `bun:"unit" json:"unit"`
	Decimals  *int      `bun:"decimals" json:"decimals"`
	Default   bool      `bun:"is_default" json:"defaultKey"`
	CreatedAt time.Time `bun:"created_at" json:"createdAt"`
	TagName   string    `bun:"tag_name,scanonly" json:"name"`
	TagDevEUI string    `bun:"tag_deveui,scanonly" json:"tagDeveui"`
}

// Pool statuses (SPEC.md section 3: hidden, shown in the default list, or
// taken).
const (
	PoolHidden = "hidden"
	PoolShown  = "shown"
	PoolTaken  = "taken"
)

// PoolEntry is a DevEUI that reached the portal without belonging to a tag.
type PoolEntry struct {
	bun.BaseModel `bun:"table:node_pool,alias:pool" json:"-"`

	ID         int64     `bun:"id,pk,autoincrement" json:"id"`
	DevEUI     string    `bun:"deveui" json:"deveui"`
	Source     string    `bun:"source" json:"source"`
	Status     string    `bun:"status" json:"status"`
	CreatedAt  time.Time `bun:"created_at" json:"createdAt"`
	LastSeenAt time.Time `bun:"last_seen_at" json:"lastSeenAt"`
}

// Token is an integration access token of a company. Only its hash is kept;
// Token (the secret itself) is set once, in the answer that creates it.
type Token struct {
	bun.BaseModel `bun:"table:integration_tokens,alias:itok" json:"-"`

	ID         int64      `bun:"id,pk,autoincrement" json:"id"`
	CompanyID  int64      `bun:"company_id" json:"companyId"`
	UserID     *int64     `bun:"user_id" json:"userId"`
	Label      string     `bun:"label" json:"label"`
	IsCompany  bool       `bun:"is_company" json:"isCompany"`
	Hash       string     `bun:"token_hash" json:"-"`
	Hint       string     `bun:"hint" json:"hint"`
	CreatedAt  time.Time  `bun:"created_at" json:"createdAt"`
	LastUsedAt *time.Time `bun:"last_used_at" json:"lastUsedAt"`
	Token      string     `bun:"-" json:"token,omitempty"`
}

// TokenPrefix starts every integration token, so that one pasted in the
// wrong place is recognised (by people and by secret scanners).
const TokenPrefix = "fh_"

// Downlink statuses: queued until the worker has handed the downlink to the
// network server (sent) or given up (failed); a confirmed downlink that the
// device confirmed is acknowledged, one it did not confirm in time failed.
const (
	DownlinkQueued       = "queued"
	DownlinkSent         = "sent"
	DownlinkAcknowledged = "acknowledged"
	DownlinkFailed       = "failed"
)

// Downlink is a message queued for a node.
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
	Payload     string    `bun:"payload" json:"payload"`
	PayloadType string    `bun:"payload_type" json:"payloadType"`
	Confirmed   bool      `bun:"confirmed" json:"confirmed"`
	Status      string    `bun:"status" json:"status"`
	Detail      string    `bun:"detail" json:"detail"`
	CreatedBy   *int64    `bun:"created_by" json:"createdBy"`
	CreatedAt   time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt   time.Time `bun:"updated_at" json:"updatedAt"`
	// Attempts counts the worker's tries to hand the downlink to the
	// network server; RetryAt, while it is still queued after a failed
	// try, is when the next may start.
	Attempts int        `bun:"attempts" json:"attempts"`
	RetryAt  *time.Time `bun:"retry_at" json:"retryAt"`
}

// DownlinkAttempt is the outcome of one try of the downlink worker:
// DownlinkSent, DownlinkFailed (Detail says why), or DownlinkQueued to try
// again at RetryAt (Detail says what went wrong).
type DownlinkAttempt struct {
	Status  string
	Detail  string
	RetryAt time.Time
}

// Bytes returns the payload of a hex or base64 downlink; a JSON downlink has
// none (its object is encoded by the device's codec or the network server).
func (d *Downlink) Bytes() []byte {
	switch d.PayloadType {
	case "hex":
		b, _ := hex.DecodeString(d.Payload)
		return b
	case "base64":
		b, _ := base64.StdEncoding.DecodeString(d.Payload)
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

// TagCreated is published after a tag is created.
type TagCreated struct {
	TagID, CompanyID, ApplicationID int64
	DevEUI                          string
}

// Topic names the event.
func (TagCreated) Topic() string { return "nodes.tag_created" }

// DownlinkCreated is published after a downlink is queued, so that the
// worker can deliver it without waiting for its next round.
type DownlinkCreated struct {
	DownlinkID, TagID, CompanyID, ApplicationID int64
}

// Topic names the event.
func (DownlinkCreated) Topic() string { return "nodes.downlink_created" }

// TagDeleted is published after a tag and its keys, picture and downlinks
// are deleted. Its data series are the subscribers' to remove.
type TagDeleted struct {
	TagID, CompanyID, ApplicationID int64
	DevEUI                          string
}

// Topic names the event.
func (TagDeleted) Topic() string { return "nodes.tag_deleted" }
