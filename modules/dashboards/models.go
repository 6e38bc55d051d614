package dashboards

import (
	"time"

	"github.com/uptrace/bun"
)

// Category is a node of a company's dashboard tree. The JSON names are
// those of docs/api/dashboards.md.
type Category struct {
	bun.BaseModel `bun:"table:dashboard_categories,alias:cat" json:"-"`

	ID         int64     `bun:"id,pk,autoincrement" json:"dashboardCategoryId"`
	GUID       string    `bun:"guid" json:"guid"`
	ParentID   *int64    `bun:"parent_id" json:"-"`
	ParentGUID *string   `bun:"parent_guid,scanonly" json:"parentGuid"`
	CompanyID  int64     `bun:"company_id" json:"companyId"`
	Title      string    `bun:"title" json:"title"`
	Icon       string    `bun:"icon" json:"icon"`
	Color      string    `bun:"color" json:"color"`
	Index      int       `bun:"position" json:"index"`
	CreatedAt  time.Time `bun:"created_at" json:"-"`
	UpdatedAt  time.Time `bun:"updated_at" json:"-"`
}

// Dashboard is a page of modules. Default and Categories are derived for
// the caller: Default when it is their default dashboard, Categories a
// list holding its category (empty at the root), the form the dashboard
// island reads.
type Dashboard struct {
	bun.BaseModel `bun:"table:dashboards,alias:dash" json:"-"`

	ID         int64     `bun:"id,pk,autoincrement" json:"dashboardId"`
	CompanyID  int64     `bun:"company_id" json:"companyId"`
	Name       string    `bun:"name" json:"name"`
	CategoryID *int64    `bun:"category_id" json:"categoryId"`
	Index      int       `bun:"position" json:"index"`
	Default    bool      `bun:"-" json:"default"`
	Categories []int64   `bun:"-" json:"categories"`
	CreatedAt  time.Time `bun:"created_at" json:"-"`
	UpdatedAt  time.Time `bun:"updated_at" json:"-"`
}

// Widget is a module of a dashboard, with its attributes and settings. It
// is called a Widget in the Go code to keep it apart from the kernel's
// modules; the API and the tables say module.
type Widget struct {
	bun.BaseModel `bun:"table:dashboard_modules,alias:mod" json:"-"`

	ID          int64    `bun:"id,pk,autoincrement" json:"dashboardModuleId"`
	DashboardID int64    `bun:"dashboard_id" json:"dashboardId"`
	Title       string   `bun:"title" json:"title"`
	Type        int      `bun:"type" json:"type"`
	Index       int      `bun:"position" json:"index"`
	Tag         string   `bun:"deveui" json:"tag"`
	SizeSmall   string   `bun:"size_small" json:"sizeSmall"`
	SizeMid     string   `bun:"size_mid" json:"sizeMid"`
	Content     string   `bun:"content" json:"content"`
	URL         string   `bun:"url" json:"url"`
	Image       *string  `bun:"-" json:"image"`
	Min         *float64 `bun:"min_value" json:"min"`
	Max         *float64 `bun:"max_value" json:"max"`
	SyncChart   bool     `bun:"sync_chart" json:"sync_chart"`
	CardColor   string   `bun:"card_color" json:"cardColor"`
	TitleColor  string   `bun:"title_color" json:"titleColor"`
	ValueColor  string   `bun:"value_color" json:"valueColor"`
	// AttributesJSON is the stored form of Attributes.
	AttributesJSON string            `bun:"attributes" json:"-"`
	Attributes     map[string]string `bun:"-" json:"attributes"`
	Settings       Settings          `bun:"embed:" json:"settings"`

	ImageVersion *string   `bun:"image_version,scanonly" json:"-"`
	CreatedAt    time.Time `bun:"created_at" json:"-"`
	UpdatedAt    time.Time `bun:"updated_at" json:"-"`
}

// Settings are a module's settings: the time offset its date-range picker
// stored and the views of its map and image map.
type Settings struct {
	// TimeOffset is now minus the range start, in seconds; 0 is the
	// module's default (24 hours).
	TimeOffset   int64    `bun:"time_offset" json:"timeOffset"`
	MapZoom      float64  `bun:"map_zoom" json:"mapZoom"`
	MapLat       *float64 `bun:"map_lat" json:"-"`
	MapLng       *float64 `bun:"map_lng" json:"-"`
	MapCenter    *LatLng  `bun:"-" json:"mapCenter"`
	MapType      string   `bun:"map_type" json:"mapType"`
	ImageMapZoom float64  `bun:"image_map_zoom" json:"imageMapZoom"`
}

// LatLng is a position, such as a map module's centre.
type LatLng struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// PublicLink lets anyone with its token read one dashboard until ExpiresAt.
type PublicLink struct {
	bun.BaseModel `bun:"table:dashboard_public_links,alias:pub" json:"-"`

	ID            int64     `bun:"id,pk,autoincrement" json:"id"`
	CompanyID     int64     `bun:"company_id" json:"companyId"`
	DashboardID   int64     `bun:"dashboard_id" json:"dashboardId"`
	DashboardName string    `bun:"dashboard_name,scanonly" json:"dashboardName"`
	Host          string    `bun:"host" json:"host"`
	ExpiresAt     time.Time `bun:"expires_at" json:"expiresAt"`
	Active        bool      `bun:"-" json:"active"`
	Token         string    `bun:"token" json:"token"`
	CreatedBy     *int64    `bun:"created_by" json:"-"`
	CreatedAt     time.Time `bun:"created_at" json:"createdAt"`
}

// Module types: what a module shows, as the API and the dashboard island
// number them.
const (
	TypeChart        = 0
	TypeGauge        = 1
	TypeText         = 2
	TypeImage        = 3
	TypeMap          = 4
	TypeCompanyInfo  = 5
	TypeIframe       = 6
	TypeWeather      = 7
	TypeLatest       = 8
	TypeRawTable     = 9
	TypeMultiChart   = 10
	TypeImageMap     = 11
	TypeFunction     = 12
	TypeNodeInfo     = 13
	TypeTrend        = 14
	TypeNodeOverview = 15
	TypeTilt         = 16
	TypeFillLevel    = 17
)

// Function button kinds (SPEC.md section 3), a type 12 module's
// function_type attribute: what pressing the button does.
const (
	FunctionScript     = 0 // runs the invoked script scriptid, after a confirmation
	FunctionValueInput = 1 // writes a typed value to the key tagkey of the module's node
	FunctionDashboard  = 2 // opens the dashboard dashboard_id
	FunctionDownlink   = 3 // queues the configured downlink on the module's node
)

// The values a VALUEINPUT button writes, its input_type attribute.
const (
	InputNumber = "number"
	InputText   = "text"
	InputBool   = "bool"
)

// Defaults of a new category and module.
const (
	DefaultIcon         = "mdi-shape-outline"
	DefaultColor        = "#2196F3"
	DefaultMapZoom      = 7
	DefaultMapType      = "roadmap"
	DefaultImageMapZoom = -1
	DefaultSize         = "md"
	// DefaultRange is a module's time range when it stored no offset: the
	// last 24 hours.
	DefaultRange = 24 * time.Hour
)

// DashboardIcon is the icon of the dashboards' leaves in the category tree.
const DashboardIcon = "mdi-view-dashboard"

// PublicTokenPrefix starts every public link token, so that one pasted in
// the wrong place is recognised.
const PublicTokenPrefix = "pd_"

// SeriesRef names one series of a multi-chart or map module: an entry of
// its "series" attribute.
type SeriesRef struct {
	DevEUI string `json:"deveui"`
	Key    string `json:"key"`
}

// Position places a sensor value on an image map, x and y in 0..1: an
// entry of its "positions" attribute.
type Position struct {
	DevEUI string  `json:"deveui"`
	Key    string  `json:"key"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
}
