package nodes

import (
	"time"

	"github.com/uptrace/bun"
)

// Application groups a company's nodes and says which network server they
// talk through. The JSON names are the API's, with the network-server
// settings.
type Application struct {
	bun.BaseModel `bun:"table:applications,alias:app" json:"-"`

	ID                      int64  `bun:"id,pk,autoincrement" json:"id"`
	CompanyID               int64  `bun:"company_id" json:"companyId"`
	Name                    string `bun:"name" json:"name"`
	NetworkServer           string `bun:"network_server" json:"networkServer"`
	ChirpStackApplicationID string `bun:"chirpstack_application_id" json:"chirpstackApplicationId"`
	TTSDownlinkURL          string `bun:"tts_downlink_url" json:"ttsDownlinkUrl"`
	// SealedTTSAPIKey is the The Things Stack API key sealed with the
	// kernel's Box; Applications.TTSAPIKey opens it. It is never sent to
	// clients.
	SealedTTSAPIKey string    `bun:"tts_api_key" json:"-"`
	TTSAPIKeySet    bool      `bun:"-" json:"ttsApiKeySet"`
	CreatedAt       time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt       time.Time `bun:"updated_at" json:"updatedAt"`
}

// The network servers an application's nodes may talk through.
const (
	NetworkChirpStack = "chirpstack"
	NetworkTTS        = "tts"
	NetworkGeneric    = "generic"
)

// Tag is a node, identified by its DevEUI. The JSON names are the API's.
// Battery, BatteryVoltage, RSSI, ActiveAlarm, LatestTime and the latest data
// are the node's state as uplinks and alarms report it; people do not set
// them. Battery is percent (0-100) and BatteryVoltage volts, each nil until
// known (BatteryOf).
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
	ActiveAlarm bool       `bun:"active_alarm" json:"activeAlarm"`
	LatestTime  *time.Time `bun:"latest_time" json:"latestTime"`
	// BatteryVoltage is in volts (BatteryOf).
	BatteryVoltage *float64 `bun:"battery_voltage" json:"batteryVoltage"`
	// LatestData is the latest decoded uplink as a JSON object.
	LatestData string `bun:"latest_data" json:"-"`
	// LatestReceivedAt is when the latest uplink arrived; LatestTime is
	// the time it carries (ClockOffset compares them).
	LatestReceivedAt *time.Time `bun:"latest_received_at" json:"latestReceivedAt"`
	// DecodeErrorRecord (JSON) and DecodeErrorAt are the last uplink whose
	// payload the decoder could not read; DecodeError is derived from them.
	DecodeErrorRecord *string    `bun:"decode_error" json:"-"`
	DecodeErrorAt     *time.Time `bun:"decode_error_at" json:"-"`
	ImageVersion      *string    `bun:"image_version,scanonly" json:"-"`
	// UplinkInterval is how often the node is expected to send, in
	// seconds, 0 unknown: its device profile's (NodeSetup), which the
	// inactivity alarm goes by.
	UplinkInterval int64     `bun:"uplink_interval" json:"-"`
	CreatedAt      time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt      time.Time `bun:"updated_at" json:"updatedAt"`

	// Derived when the tag is loaded.
	Image          *string        `bun:"-" json:"image"`
	ActiveData     bool           `bun:"-" json:"activeData"`
	LatestValue    any            `bun:"-" json:"latestValue"`
	DataPoints24h  int64          `bun:"-" json:"dataPoints24h"`
	Keys           []string       `bun:"-" json:"keys"`
	Data           map[string]any `bun:"-" json:"data"`
	NameWithDevEUI string         `bun:"-" json:"nameWithDeveui"`
	// VDD is BatteryVoltage again, under the name SPEC.md gives the
	// node's supply voltage: in volts, whatever unit the decoder used.
	VDD *float64 `bun:"-" json:"vdd"`
	// DecodeError is the last decode failure, nil when the decoder never
	// failed (or the uplink it failed on decoded when decoded again).
	DecodeError *DecodeError `bun:"-" json:"decodeError"`
}

// DecodeError is an uplink whose payload the decoder could not read: when
// it was sent, the payload (lower-case hex), the port and the reasons.
type DecodeError struct {
	Time    time.Time `json:"time"`
	Payload string    `json:"payload"`
	FPort   int       `json:"fPort,omitempty"`
	Errors  []string  `json:"errors"`
}

// LatestFailed reports whether the node's latest uplink is the one its
// decoder could not read (the node list marks such nodes).
func (t *Tag) LatestFailed() bool {
	return t.DecodeError != nil && t.LatestTime != nil && t.DecodeError.Time.Equal(*t.LatestTime)
}

// ClockSkewWarning is how far the time an uplink carries may be from its
// arrival before the node page says the device's or network server's clock
// is off: network servers queue and retry for minutes, not for a day.
const ClockSkewWarning = 24 * time.Hour

// ClockOffset is how far the time the latest uplink carries lies before
// (positive) or after (negative) its arrival; ok is false when the arrival
// is not known.
func (t *Tag) ClockOffset() (time.Duration, bool) {
	if t.LatestTime == nil || t.LatestReceivedAt == nil {
		return 0, false
	}
	return t.LatestReceivedAt.Sub(*t.LatestTime), true
}

// ActiveWindow is how recent a node's latest uplink must be for it to count
// as sending data: a node silent for longer raises the inactivity alarm.
const ActiveWindow = 6 * time.Hour

// DefaultDecoder is the decoder of a tag created without one: the payload is
// kept as it came, as ChirpStack does for a device profile without a codec.
const DefaultDecoder = "raw"

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

// State is what an uplink or a device status reports of a node, for
// States.UpdateState. Nil fields (and a nil Data) are left as they are.
type State struct {
	// Time is when the uplink was received; with it, Data becomes the
	// node's latest data. An uplink older than the node's latest changes
	// nothing, so that a late redelivery does not turn the clock back.
	Time *time.Time
	// Data is the decoded uplink, keyed as the data keys are; stored only
	// together with Time.
	Data map[string]any
	// Battery is percent (0-100) and BatteryVoltage volts, as BatteryOf
	// reads them.
	Battery        *float64
	BatteryVoltage *float64
	RSSI           *float64
	// Received is when the uplink arrived, nil for an uplink decoded
	// again; stored only together with Time.
	Received *time.Time
	// DecodeError is what the decoder failed with on this uplink (its Time
	// is the uplink's), nil when it decoded; stored only together with
	// Time. An uplink at the time of the node's last decode error that
	// decodes (decoded again) clears it.
	DecodeError *DecodeError
	// Written marks values written to the node (by a person or a script)
	// rather than an uplink: Data, at Time, is merged into the latest data
	// when not older than the latest uplink, and the latest time moves
	// only for a node that has none (an inactivity alarm must still see a
	// silent node as silent). Neither a decode error nor the time of
	// arrival changes. The merge is the database's, so that an uplink
	// committed meanwhile is not overwritten.
	Written bool
}

// TagState is the State of one tag, for States.UpdateStates.
type TagState struct {
	TagID int64
	State
}

// Pool statuses: hidden, shown in the default list, or taken (a tag was
// made for the DevEUI).
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
