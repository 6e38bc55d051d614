package dashboards

// SeedDashboard describes a dashboard for Service.Seed: a category of a
// company (found by title among the root categories, made when missing)
// holding a dashboard (found by name in it) with modules.
type SeedDashboard struct {
	CompanyID int64
	Category  string
	Name      string
	Modules   []SeedModule
}

// SeedModule is a module of a SeedDashboard; the API's rules apply to it
// (a Tag must be a node of the company, its attributes known).
type SeedModule struct {
	Title      string
	Type       int
	Tag        string
	SizeSmall  string
	SizeMid    string
	Min, Max   *float64
	Attributes map[string]string
	MapZoom    *float64
	MapCenter  *LatLng
	TimeOffset int64
}
