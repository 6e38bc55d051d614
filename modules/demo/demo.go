// Package demo is the contract of the demo module: what `fieldhub demo`
// (and `fieldhub serve --demo`) adds beside the demo company that the
// accounts module creates. Once the portal listens, the module makes sure
// the demo company has an application "Demo field" with a dozen nodes of
// different kinds (room climate, a freezer, a door, a water tank, CO2, a GPS
// tracker, an energy meter, a soil probe, a weather station, a parking
// sensor with a draining battery), and an integration token for itself;
// then, until the portal stops, it posts plausible, slowly varying uplinks
// for each node every few seconds to POST /api/ingest/generic, the same
// route and code path as a real device, so a new user sees data arrive
// within seconds.
//
// It touches no other module's internals: it finds the demo company's
// CompanyAdmin through accounts.Service, acts as them with a short-lived
// access token signed by the kernel, and does everything else through the
// portal's HTTP API (applications, tags, integration tokens, ingest).
// Nodes that exist already (by DevEUI) are kept; a demo node a user deleted
// is made again at the next demo start. The integration token is replaced
// at every start, since a token is shown only when it is made.
package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// ApplicationName is the name of the demo's application.
const ApplicationName = "Demo field"

// TokenLabel is the label of the integration token the simulator uses.
const TokenLabel = "Demo simulator"

// DashboardName and DashboardCategory name the demo's dashboard: a chart,
// a gauge, a latest value, a map and a fill level over the demo's nodes.
const (
	DashboardCategory = "Demo"
	DashboardName     = "Demo overview"
)

// Node is one simulated node of the demo: its name, DevEUI and the keys
// its uplinks carry.
type Node struct {
	Name     string
	DevEUI   string // 16 upper-case hexadecimal digits, as tags store them
	Type     string
	Location string
	Lat      float64
	Long     float64
	// Every is the usual time between two uplinks (each is 20 % early or
	// late at random).
	Every time.Duration
	// Keys are the keys of "values" in its uplinks (dotted when nested).
	Keys []string
}

// The demo's DevEUIs start with F1E1D0DE ("fieldhub demo") and end with
// the node's number.
func demoEUI(n int) string { return fmt.Sprintf("F1E1D0DE%08X", n) }

// Nodes lists the demo's nodes, in a park of buildings in Stockholm.
func Nodes() []Node {
	return []Node{
		{Name: "Meeting room climate", DevEUI: demoEUI(1), Type: "Room sensor", Location: "House A, meeting room",
			Lat: 59.33431, Long: 18.06323, Every: 10 * time.Second, Keys: []string{"temperature", "humidity"}},
		{Name: "Office climate", DevEUI: demoEUI(2), Type: "Room sensor", Location: "House A, open-plan office",
			Lat: 59.33438, Long: 18.06341, Every: 10 * time.Second, Keys: []string{"temperature", "humidity"}},
		{Name: "Server room climate", DevEUI: demoEUI(3), Type: "Room sensor", Location: "House A, basement",
			Lat: 59.33425, Long: 18.06330, Every: 15 * time.Second, Keys: []string{"temperature", "humidity"}},
		{Name: "Kitchen freezer", DevEUI: demoEUI(4), Type: "Temperature probe", Location: "House A, kitchen",
			Lat: 59.33440, Long: 18.06310, Every: 10 * time.Second, Keys: []string{"temperature"}},
		{Name: "Front door", DevEUI: demoEUI(5), Type: "Door sensor", Location: "House A, entrance",
			Lat: 59.33420, Long: 18.06300, Every: 5 * time.Second, Keys: []string{"door.open", "openings"}},
		{Name: "Rainwater tank", DevEUI: demoEUI(6), Type: "Level sensor", Location: "Courtyard",
			Lat: 59.33402, Long: 18.06355, Every: 15 * time.Second, Keys: []string{"level", "waterTemperature"}},
		{Name: "Meeting room CO2", DevEUI: demoEUI(7), Type: "CO2 sensor", Location: "House A, meeting room",
			Lat: 59.33432, Long: 18.06325, Every: 10 * time.Second, Keys: []string{"co2", "temperature", "humidity"}},
		{Name: "Service van", DevEUI: demoEUI(8), Type: "GPS tracker", Location: "On the road",
			Lat: 59.32930, Long: 18.06860, Every: 5 * time.Second, Keys: []string{"lat", "long", "speed"}},
		{Name: "Main energy meter", DevEUI: demoEUI(9), Type: "Energy meter", Location: "House A, switchboard",
			Lat: 59.33423, Long: 18.06318, Every: 10 * time.Second, Keys: []string{"energy", "power"}},
		{Name: "Greenhouse soil probe", DevEUI: demoEUI(10), Type: "Soil moisture probe", Location: "Greenhouse, bed 3",
			Lat: 59.33390, Long: 18.06390, Every: 20 * time.Second, Keys: []string{"soilMoisture", "soilTemperature"}},
		{Name: "Roof weather station", DevEUI: demoEUI(11), Type: "Weather station", Location: "House B, roof",
			Lat: 59.33470, Long: 18.06420, Every: 15 * time.Second, Keys: []string{"temperature", "humidity", "pressure", "windSpeed"}},
		{Name: "Parking bay 12", DevEUI: demoEUI(12), Type: "Parking sensor", Location: "Car park, bay 12",
			Lat: 59.33380, Long: 18.06250, Every: 5 * time.Second, Keys: []string{"occupied", "batteryLevel"}},
	}
}

// Gateway is one of the demo's gateways, which its nodes' uplinks name.
type Gateway struct {
	Name string
	EUI  string // 16 upper-case hexadecimal digits
	Lat  float64
	Long float64
}

// Gateways lists the demo's gateways: one on each house's roof and one at
// the car park. Each node is heard by the gateways GatewaysOf names.
func Gateways() []Gateway {
	return []Gateway{
		{Name: "House A roof", EUI: "F1E1D0DE0A000001", Lat: 59.33436, Long: 18.06328},
		{Name: "House B roof", EUI: "F1E1D0DE0A000002", Lat: 59.33468, Long: 18.06415},
		{Name: "Car park mast", EUI: "F1E1D0DE0A000003", Lat: 59.33372, Long: 18.06262},
	}
}

// GatewaysOf returns the indexes (in Gateways) of the gateways that hear
// the demo's i-th node (0-based): the nearest, and for every other node a
// second one.
func GatewaysOf(i int) []int {
	first := i % 3
	if i%2 == 0 {
		return []int{first, (first + 1) % 3}
	}
	return []int{first}
}

// Accounts is the part of accounts.Service the demo uses: the users of the
// demo company, to act as its CompanyAdmin.
type Accounts interface {
	CompanyUsers(ctx context.Context, companyID int64) ([]accounts.User, error)
}

// Dashboards makes the demo's dashboard; the dashboards module satisfies
// it.
type Dashboards interface {
	Seed(ctx context.Context, s dashboards.SeedDashboard) (int64, bool, error)
}

// Module is the demo module as the kernel and the application see it:
// Start sets up the demo's nodes and runs the uplink simulator in the
// background until the kernel stops.
type Module interface {
	kernel.Module
	kernel.Starter
	kernel.Stopper
}
