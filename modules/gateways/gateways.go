// Package gateways is the contract of the gateways module: the LoRaWAN
// gateways a company registers under one of its applications (SPEC section
// 7), with what the uplinks its nodes send tell about each of them, and the
// routes:
//
//   - POST /api/gateway/{applicationId} registers a gateway under that
//     application (body name, macAddress, latitude, longitude).
//   - GET /api/gateway/{gatewayId}, DELETE /api/gateway/{gatewayId} and
//     PUT /api/gateway/{gatewayId}/pos (body latitude, longitude).
//   - GET /api/gateway/company/{companyId} lists the company's gateways
//     with their statistics; GET /api/gateway/company/{companyId}/unknown
//     lists the gateways its uplinks named that it has not registered.
//   - GET /api/gateway/geocode?lat=&lon= asks the configured
//     Nominatim-compatible service for the address of a position.
//
// The statistics (last seen, uplinks in the last 24 hours, median RSSI and
// SNR, online or offline) come from the receptions of ingest.UplinkReceived:
// each instance counts them in memory and adds its counts to the database
// every few seconds. docs/api/gateways.md documents the shapes. Package
// module builds the module; the implementation lives in internal/.
package gateways

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Gateway is a registered gateway with, when listed, its statistics.
type Gateway struct {
	bun.BaseModel `bun:"table:gateways,alias:gw" json:"-"`

	ID            int64     `bun:"id,pk,autoincrement" json:"id"`
	CompanyID     int64     `bun:"company_id" json:"companyId"`
	ApplicationID int64     `bun:"application_id" json:"applicationId"`
	Name          string    `bun:"name" json:"name"`
	MacAddress    string    `bun:"mac_address" json:"macAddress"`
	Latitude      float64   `bun:"latitude" json:"latitude"`
	Longitude     float64   `bun:"longitude" json:"longitude"`
	CreatedAt     time.Time `bun:"created_at" json:"createdAt"`
	Stats
}

// Stats is what the company's uplinks tell about a gateway. LastSeen is
// nil, and the medians nil, until an uplink names it.
type Stats struct {
	LastSeen *time.Time `bun:"-" json:"lastSeen"`
	// Uplinks24h counts the company's uplinks the gateway heard in the last
	// 24 hours, in whole clock hours (the current one and the 24 before).
	Uplinks24h int64 `bun:"-" json:"uplinks24h"`
	// MedianRSSI (dBm) and MedianSNR (dB) are over a bounded sample of its
	// latest receptions of the last 24 hours.
	MedianRSSI *float64 `bun:"-" json:"medianRssi"`
	MedianSNR  *float64 `bun:"-" json:"medianSnr"`
	// State is StateOnline when the gateway was heard within the
	// configured silence (FIELDHUB_GATEWAY_OFFLINE_AFTER), else
	// StateOffline, StateNever when it was never heard.
	State string `bun:"-" json:"state"`
}

// The states of a gateway.
const (
	StateOnline  = "online"
	StateOffline = "offline"
	StateNever   = "never"
)

// Unknown is a gateway the company's uplinks named that it has not
// registered.
type Unknown struct {
	MacAddress string `json:"macAddress"`
	Stats
}

// Input is the body of POST /api/gateway/{applicationId}; Position that of
// PUT /api/gateway/{gatewayId}/pos. Pointers tell a missing field from a
// zero.
type Input struct {
	Name       string   `json:"name"`
	MacAddress string   `json:"macAddress"`
	Latitude   *float64 `json:"latitude"`
	Longitude  *float64 `json:"longitude"`
}

// Position is a new position of a gateway.
type Position struct {
	Latitude  *float64 `json:"latitude"`
	Longitude *float64 `json:"longitude"`
}

// Address is the answer of GET /api/gateway/geocode: the display name of
// the position, "" when the service knows no address there.
type Address struct {
	DisplayName string `json:"displayName"`
	Found       bool   `json:"found"`
}

// Accounts is what the module asks of the accounts module: whether a
// company exists (errs.NotFound for an unknown id).
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Applications is what the module asks of the nodes module: the
// application a gateway is registered under, and the company's
// applications for the create form.
type Applications interface {
	Application(ctx context.Context, id int64) (*nodes.Application, error)
}

// Module is the gateways module as the kernel sees it, and what other
// modules may ask of it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	// Registered lists the company's registered gateways, without their
	// statistics.
	Registered(ctx context.Context, companyID int64) ([]*Gateway, error)
}

var (
	euiStrip = strings.NewReplacer(" ", "", "-", "", ":", "")
	hex16    = regexp.MustCompile(`^[0-9A-F]{16}$`)
)

// NormaliseEUI strips spaces, dashes and colons from a gateway EUI and
// upper-cases it, the form in which gateways are stored and answered.
func NormaliseEUI(s string) string { return strings.ToUpper(euiStrip.Replace(strings.TrimSpace(s))) }

// ValidEUI reports whether s, normalised, is 16 hexadecimal digits.
func ValidEUI(s string) bool { return hex16.MatchString(s) }
