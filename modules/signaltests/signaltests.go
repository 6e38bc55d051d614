// Package signaltests is the contract of the field signal tests module
// (SPEC.md sections 3 and 7 "Signal tests"): an installer walks a site with
// a node; while a test of that node is active, every uplink the ingest
// stores adds a point with the node's reported position and the signal of
// the gateways that heard it. The routes (docs/api/signaltests.md):
//
//   - POST /api/signaltest/{companyId}/{deveui} starts a test of a node of
//     the company (409 while the node has an active test).
//   - GET /api/signaltest/{companyId} lists the company's tests, newest
//     first, without their points.
//   - GET /api/signaltest/single/{testId} is a test with all its points.
//   - GET /api/signaltest/peek/{testId}?after={pointId} is a test with the
//     points after a cursor (all without one), for polling.
//   - PUT /api/signaltest/end/{testId} completes a test ("Complete test").
//   - DELETE /api/signaltest/{testId} deletes a test and its points.
//
// The routes are open to CompanyOrUser roles within the companies they
// may see; another company's test or node is not found. Package module
// builds the module; the implementation lives in internal/.
package signaltests

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Test is a field signal test of one node. The averages are those of its
// points' best-gateway values (Point.RSSI, Point.SNR), over the points
// that have one; nil while none has.
type Test struct {
	ID          int64  `json:"testId"`
	CompanyID   int64  `json:"companyId"`
	TagID       int64  `json:"tagId"`
	DevEUI      string `json:"deveui"`
	TagName     string `json:"tagName"`
	Description string `json:"description"`
	// LatitudeKey and LongitudeKey are the decoded keys the position is
	// read from; "" detects them in each uplink (DetectPosition).
	LatitudeKey  string     `json:"latitudeKey"`
	LongitudeKey string     `json:"longitudeKey"`
	Start        time.Time  `json:"start"`
	End          *time.Time `json:"end"`
	Active       bool       `json:"active"`
	AverageSNR   *float64   `json:"averageSnr"`
	AverageRSSI  *float64   `json:"averageRssi"`
	PointCount   int64      `json:"pointCount"`
}

// Detail is the answer of GET /api/signaltest/single/{testId}: the test
// with its points, oldest first.
type Detail struct {
	Test
	Points []Point `json:"points"`
}

// Point is one uplink of a test's node while the test was active.
type Point struct {
	ID int64 `json:"id"`
	// RSSI (dBm) and SNR (dB) are the best gateway's (BestReception); nil
	// when the uplink named no signal.
	RSSI *float64 `json:"rssi"`
	SNR  *float64 `json:"snr"`
	// Lat and Lng are the position the node reported; nil when the uplink
	// had none (or 0,0, a GPS without a fix).
	Lat *float64 `json:"lat"`
	Lng *float64 `json:"lng"`
	// GatewayID is the best gateway's id, "" when none was named.
	GatewayID       string      `json:"gatewayId"`
	SpreadingFactor int         `json:"spreadingFactor"`
	FCnt            int64       `json:"fCnt"`
	Receptions      []Reception `json:"receptions"`
	// CreatedAt is when the network server received the uplink.
	CreatedAt time.Time `json:"createdAt"`
}

// Reception is one gateway's hearing of a point's uplink. Name, Lat and
// Lng come from GatewayNames when the installation has one.
type Reception struct {
	GatewayID string   `json:"gatewayId"`
	RSSI      *float64 `json:"rssi"`
	SNR       *float64 `json:"snr"`
	Name      string   `json:"name,omitempty"`
	Lat       *float64 `json:"lat,omitempty"`
	Lng       *float64 `json:"lng,omitempty"`
}

// Peek is the answer of GET /api/signaltest/peek/{testId}: the test with
// the points after the cursor, and the cursor to ask with next (the last
// point's id, else the one asked with).
type Peek struct {
	Detail
	Cursor int64 `json:"cursor"`
}

// StartRequest is the body of POST /api/signaltest/{companyId}/{deveui}.
type StartRequest struct {
	Description  string `json:"description"`
	LatitudeKey  string `json:"latitudeKey"`
	LongitudeKey string `json:"longitudeKey"`
}

// MaxDescription is the longest description, in characters (SPEC.md
// section 9's name limit); MaxKey the longest position key.
const (
	MaxDescription = 255
	MaxKey         = 255
)

// Nodes finds the node a test is started on; the nodes module satisfies
// it.
type Nodes interface {
	TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error)
}

// GatewayInfo is what the gateways module knows of a gateway.
type GatewayInfo struct {
	Name string
	Lat  *float64
	Lng  *float64
}

// GatewayNames names the gateways of a company by their id (EUI) as
// uplinks name them. Optional: without it receptions show the id alone.
type GatewayNames interface {
	Names(ctx context.Context, companyID int64, euis []string) (map[string]GatewayInfo, error)
}

// Module is the module as the application wires it.
type Module interface {
	kernel.Module
}

// Message ids of the module's errors and audit entries; each is a key of
// the locale catalogs.
const (
	IDActive         = "signaltests.error.active"
	IDEnded          = "signaltests.error.ended"
	IDAuditStarted   = "signaltests.audit.started"
	IDAuditCompleted = "signaltests.audit.completed"
	IDAuditDeleted   = "signaltests.audit.deleted"
	IDCursorInvalid  = "signaltests.error.cursor"
)
