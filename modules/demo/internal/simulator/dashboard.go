package simulator

import (
	"context"

	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/demo"
)

// demoDashboard is a dashboard over the demo's nodes with a module of each
// kind a newcomer looks for first: a chart, a gauge, a latest value, a map
// of every node and a tank's fill level.
func demoDashboard(companyID int64) dashboards.SeedDashboard {
	f := func(v float64) *float64 { return &v }
	return dashboards.SeedDashboard{CompanyID: companyID, Category: demo.DashboardCategory, Name: demo.DashboardName,
		Modules: []dashboards.SeedModule{
			{Title: "Office temperature", Type: dashboards.TypeChart, Tag: demoEUI(2), SizeSmall: "lg", SizeMid: "lg",
				Attributes: map[string]string{"tagkey": "temperature", "so_chart_type": "line", "axis_label": "°C", "decimal_rounding": "1"}},
			{Title: "Meeting room CO2", Type: dashboards.TypeGauge, Tag: demoEUI(7), SizeSmall: "md", SizeMid: "sm", Min: f(400), Max: f(2000),
				Attributes: map[string]string{"tagkey": "co2", "sufix": "ppm", "decimal_rounding": "0"}},
			{Title: "Kitchen freezer", Type: dashboards.TypeLatest, Tag: demoEUI(4), SizeSmall: "md", SizeMid: "sm",
				Attributes: map[string]string{"tagkey": "temperature", "sufix": "°C", "decimal_rounding": "1"}},
			{Title: "Rainwater tank", Type: dashboards.TypeFillLevel, Tag: demoEUI(6), SizeSmall: "md", SizeMid: "sm",
				Attributes: map[string]string{"tagkey": "level", "min_value": "0", "max_value": "200", "sufix": "cm"}},
			{Title: "Demo field", Type: dashboards.TypeMap, SizeSmall: "lg", SizeMid: "lg",
				MapZoom: f(16), MapCenter: &dashboards.LatLng{Lat: 59.3343, Lng: 18.0633}},
		}}
}

// seedDashboard makes the demo's dashboard unless it exists; a failure is
// logged, the simulator runs anyway.
func (m *Simulator) seedDashboard(ctx context.Context) {
	if m.deps.Dashboards == nil {
		return
	}
	id, made, err := m.deps.Dashboards.Seed(ctx, demoDashboard(m.deps.CompanyID))
	switch {
	case err != nil:
		m.log.Warn("demo dashboard not made", "err", err)
	case made:
		m.log.Info("demo dashboard made", "dashboard_id", id, "name", demo.DashboardName)
	}
}
