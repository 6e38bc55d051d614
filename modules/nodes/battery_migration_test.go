package nodes_test

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/migrations"
)

// TestBatteryMigrationMovesStoredReadings runs the battery migration's
// updates over readings stored as they were before it (`battery` in any
// unit, the renamed `vdd` in volts or millivolts): each lands on the scale
// nodes.BatteryOf gives it, and what fits none is cleared.
func TestBatteryMigrationMovesStoredReadings(t *testing.T) {
	raw, err := fs.ReadFile(migrations.FS, "nodes/20261229000000_battery_voltage.sql")
	if err != nil {
		t.Fatal(err)
	}
	var updates []string // the column is renamed already: the updates only
	for _, stmt := range strings.Split(string(raw), ";\n") {
		if i := strings.Index(stmt, "UPDATE "); i >= 0 {
			updates = append(updates, stmt[i:])
		}
	}
	if len(updates) != 3 {
		t.Fatalf("%d updates in the migration", len(updates))
	}
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name                     string
		battery, vdd             *float64 // as stored before
		wantPercent, wantVoltage *float64
	}{
		{"Elsys vdd in millivolts, copied into battery", f(3600), f(3600), nil, f(3.6)},
		{"generic battery in volts", f(3.5), nil, nil, f(3.5)},
		{"Milesight battery in percent", f(92), nil, f(92), nil},
		{"batteryVoltage in volts, copied into battery", f(3.61), f(3.61), nil, f(3.61)},
		{"battery in millivolts", f(3312.4), nil, nil, f(3.312)},
		{"a status percent beside a millivolt vdd", f(87), f(3600), f(87), f(3.6)},
		{"readings that fit no scale", f(250), f(0), nil, nil},
		{"nothing reported", nil, nil, nil, nil},
	}
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		ctx := context.Background()
		var app struct{ ID int64 }
		e.MustDo(t, "acmeAdmin", "POST", "/api/applications/{acme}", `{"name": "Old field"}`, http.StatusCreated, &app)
		ids := make([]int64, len(cases))
		for i, c := range cases {
			var tag struct{ ID int64 }
			e.MustDo(t, "acmeAdmin", "POST", fmt.Sprintf("/api/applications/%d/tag", app.ID),
				fmt.Sprintf(`{"name": %q, "deveui": "70B3D57ED00001%02X"}`, c.name, i), http.StatusCreated, &tag)
			ids[i] = tag.ID
			e.exec(t, "UPDATE tags SET battery = ?, battery_voltage = ? WHERE id = ?", c.battery, c.vdd, tag.ID)
		}
		for _, u := range updates {
			if _, err := e.k.Host().DB.ExecContext(ctx, u); err != nil {
				t.Fatalf("%s: %v", u, err)
			}
		}
		for i, c := range cases {
			var got struct {
				Battery        *float64 `bun:"battery"`
				BatteryVoltage *float64 `bun:"battery_voltage"`
			}
			if err := e.k.Host().DB.NewRaw("SELECT battery, battery_voltage FROM tags WHERE id = ?", ids[i]).Scan(ctx, &got); err != nil {
				t.Fatal(err)
			}
			if !same(got.Battery, c.wantPercent) || !same(got.BatteryVoltage, c.wantVoltage) {
				t.Errorf("%s: battery %s %%, %s V; want %s %%, %s V", c.name,
					show(got.Battery), show(got.BatteryVoltage), show(c.wantPercent), show(c.wantVoltage))
			}
		}
	})
}

func same(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func show(v *float64) string {
	if v == nil {
		return "none"
	}
	return fmt.Sprint(*v)
}
