// Command dashboards measures how long the portal takes to answer every
// module data call of one dashboard: it builds the fieldhub binary, starts
// `fieldhub serve` on a fresh PostgreSQL database, creates through the API a
// company with 12 nodes and a dashboard of 12 modules of the usual kinds
// (charts, a multi-chart, a trend chart, a raw table, gauge, latest value,
// fill level, tilt, node info, node overview and a map), each showing the
// last 30 days, and loads 30 days of one value a minute for every series
// the modules show straight into the SQL time-series store (the store the
// ingest writes, with its hourly summaries). Then, -runs times, it makes
// every data call the dashboard island makes for those modules
// (GET /api/dashboards/modules/{id}/tagdata, /tagdata/latest and /info),
// once one after the other and once over 6 connections at a time (a
// browser's limit per host), and reports the median and p90 of the total
// time and the median of each call.
//
// The times are taken by the client on the loopback interface, so they hold
// the server's work plus a round trip of well under a millisecond. The
// weather module is left out: its forecast comes from an outside service
// and is answered from the server's 30-minute cache.
//
//	go run ./bench/dashboards                 # as in docs/performance.md, "Dashboards"
//	go run ./bench/dashboards -days 7 -runs 10
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
)

const parallel = 6

type options struct {
	days, runs int
	every      time.Duration
	bin, pg    string
	keep       bool
}

func main() {
	var o options
	flag.IntVar(&o.days, "days", 30, "days of data each series holds, and each module shows")
	flag.DurationVar(&o.every, "every", time.Minute, "time between two stored values of a series")
	flag.IntVar(&o.runs, "runs", 30, "timed runs of the dashboard's data calls (after one warm-up run)")
	flag.StringVar(&o.bin, "bin", "", "fieldhub binary to run (default: build it into a temporary folder)")
	flag.StringVar(&o.pg, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder and the database")
	flag.Parse()
	if o.days < 1 || o.runs < 1 || o.every < time.Second {
		fatal(errors.New("-days and -runs must be at least 1, -every at least 1s"))
	}
	if err := run(o); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "dashboards:", err)
	os.Exit(1)
}

// node is one of the bench company's nodes and the keys its modules show.
type node struct {
	name, eui string
	keys      []string
}

var benchNodes = []node{
	{"Office", "B0000000000000A1", []string{"temperature"}},
	{"Meeting room", "B0000000000000A2", []string{"temperature", "humidity"}},
	{"CO2 sensor", "B0000000000000A3", []string{"co2"}},
	{"Freezer", "B0000000000000A4", []string{"temperature"}},
	{"Greenhouse 1", "B0000000000000A5", []string{"temperature"}},
	{"Greenhouse 2", "B0000000000000A6", []string{"temperature"}},
	{"Greenhouse 3", "B0000000000000A7", []string{"temperature"}},
	{"Energy meter", "B0000000000000A8", []string{"power"}},
	{"Water tank", "B0000000000000A9", []string{"level"}},
	{"Door", "B0000000000000AA", []string{"openings"}},
	{"Weather station", "B0000000000000AB", []string{"temperature", "windSpeed"}},
	{"Crane tilt", "B0000000000000AC", []string{"tiltX", "tiltY"}},
}

// module is one module of the bench dashboard and the data calls the
// dashboard island makes for it.
type module struct {
	body  map[string]any
	calls []string // suffixes of /api/dashboards/modules/{id}
}

func modules(days int) []module {
	offset := days * 24 * 3600
	m := func(title string, typ int, tag string, attrs map[string]any, calls ...string) module {
		body := map[string]any{"title": title, "type": typ, "tag": tag, "attributes": attrs, "settings": map[string]any{"timeOffset": offset}}
		return module{body: body, calls: calls}
	}
	series := `[{"deveui":"B0000000000000A5","key":"temperature"},{"deveui":"B0000000000000A6","key":"temperature"},{"deveui":"B0000000000000A7","key":"temperature"}]`
	return []module{
		m("Office temperature", 0, "B0000000000000A1", map[string]any{"tagkey": "temperature"}, "/tagdata"),
		m("Meeting room climate", 0, "B0000000000000A2", map[string]any{"tagkey": "temperature,humidity"}, "/tagdata"),
		m("CO2", 1, "B0000000000000A3", map[string]any{"tagkey": "co2"}, "/tagdata/latest"),
		m("Freezer", 8, "B0000000000000A4", map[string]any{"tagkey": "temperature"}, "/tagdata/latest"),
		m("Greenhouses", 10, "", map[string]any{"series": series}, "/tagdata"),
		m("Power per day", 14, "B0000000000000A8", map[string]any{"tagkey": "power", "resolution": "day"}, "/tagdata?resolution=day"),
		m("Water tank", 17, "B0000000000000A9", map[string]any{"tagkey": "level", "min_value": "0", "max_value": "200"}, "/tagdata/latest"),
		m("Door openings", 9, "B0000000000000AA", map[string]any{"tagkey": "openings"}, "/tagdata?points=200"),
		m("Weather station", 13, "B0000000000000AB", map[string]any{"tagkey": "temperature,windSpeed"}, "/info", "/tagdata/latest"),
		m("Crane tilt", 16, "B0000000000000AC", map[string]any{"tagkey_x": "tiltX", "tagkey_y": "tiltY"}, "/tagdata/latest"),
		m("All nodes", 15, "", map[string]any{}, "/info"),
		m("Site map", 4, "", map[string]any{}, "/info"),
	}
}

func run(o options) (err error) {
	ctx := context.Background()
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "dashboards", Bin: o.bin, PGAdmin: o.pg, Keep: o.keep})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server, dbURL := portal.Server(), portal.DatabaseURL

	ids, companyID, token, err := setUp(server.Base, portal.RootToken, o.days)
	if err != nil {
		return server.Fail(err)
	}
	points, err := load(ctx, dbURL, companyID, o.days, o.every)
	if err != nil {
		return err
	}
	fmt.Printf("12 nodes, %d series, %d points (%d days, one value every %v), PostgreSQL\n", countSeries(), points, o.days, o.every)

	var calls []string
	for i, m := range modules(o.days) {
		for _, c := range m.calls {
			calls = append(calls, fmt.Sprintf("/api/dashboards/modules/%d%s", ids[i], c))
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: parallel}}
	perCall := make([][]time.Duration, len(calls))
	var serial, concurrent []time.Duration
	for r := 0; r <= o.runs; r++ {
		start := time.Now()
		for i, c := range calls {
			d, err := get(client, server.Base+c, token)
			if err != nil {
				return server.Fail(err)
			}
			if r > 0 {
				perCall[i] = append(perCall[i], d)
			}
		}
		total := time.Since(start)
		start = time.Now()
		if err := getAll(client, server.Base, calls, token); err != nil {
			return server.Fail(err)
		}
		if r > 0 { // the first run warms the caches up
			serial = append(serial, total)
			concurrent = append(concurrent, time.Since(start))
		}
	}
	fmt.Printf("%d data calls of 12 modules, %d runs after a warm-up:\n", len(calls), o.runs)
	fmt.Printf("  one after the other: median %s, p90 %s, max %s\n", ms(pct(serial, 50)), ms(pct(serial, 90)), ms(pct(serial, 100)))
	fmt.Printf("  %d at a time:         median %s, p90 %s, max %s\n", parallel, ms(pct(concurrent, 50)), ms(pct(concurrent, 90)), ms(pct(concurrent, 100)))
	fmt.Println("  median of each call:")
	for i, c := range calls {
		fmt.Printf("    %-60s %s\n", strings.TrimPrefix(c, "/api/dashboards/modules/"), ms(pct(perCall[i], 50)))
	}
	return nil
}

// setUp makes the company, its nodes and the dashboard through the API and
// returns the modules' ids, the company and a CompanyAdmin's token.
func setUp(base, root string, days int) ([]int64, int64, string, error) {
	co, err := loadkit.NewCompany(base, root, loadkit.CompanyOptions{Application: map[string]any{"name": "Bench"}})
	if err != nil {
		return nil, 0, "", err
	}
	token := co.AdminToken
	for i, n := range benchNodes {
		body := map[string]any{"name": n.name, "deveui": n.eui, "lat": 59.33 + float64(i)/1000, "long": 18.06}
		if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", co.App), token, body, http.StatusCreated, nil); err != nil {
			return nil, 0, "", err
		}
	}
	var d struct {
		ID int64 `json:"dashboardId"`
	}
	if err := loadkit.Call(base, "POST", "/api/dashboards", token, map[string]any{"name": "Bench"}, http.StatusCreated, &d); err != nil {
		return nil, 0, "", err
	}
	var ids []int64
	for _, m := range modules(days) {
		var w struct {
			ID int64 `json:"dashboardModuleId"`
		}
		if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/dashboards/%d/modules", d.ID), token, m.body, http.StatusCreated, &w); err != nil {
			return nil, 0, "", err
		}
		ids = append(ids, w.ID)
	}
	return ids, co.ID, token, nil
}

func countSeries() int {
	n := 0
	for _, nd := range benchNodes {
		n += len(nd.keys)
	}
	return n
}

// load writes days of values, one every every, ending now, for each key
// of each node: a daily cycle, a random walk and noise.
func load(ctx context.Context, dbURL string, companyID int64, days int, every time.Duration) (int, error) {
	bdb, err := db.Open(ctx, dbURL)
	if err != nil {
		return 0, err
	}
	defer bdb.Close()
	store := sqlts.New(bdb, sqlts.Options{})
	end := time.Now().UTC().Truncate(every)
	n := int(time.Duration(days) * 24 * time.Hour / every)
	rng := rand.New(rand.NewPCG(1, 2))
	total := 0
	start := time.Now()
	for _, nd := range benchNodes {
		for k, key := range nd.keys {
			s := tsdb.Series{Company: companyID, DevEUI: strings.ToLower(nd.eui), Key: key}
			walk := 0.0
			batch := make([]tsdb.Point, 0, 50_000)
			for i := 0; i < n; i++ {
				t := end.Add(-time.Duration(n-1-i) * every)
				walk += rng.NormFloat64() * 0.05
				day := math.Sin(2 * math.Pi * float64(t.Unix()%86400) / 86400)
				batch = append(batch, tsdb.Number(s, t, math.Round((20+float64(k)*10+5*day+walk+rng.NormFloat64()*0.2)*100)/100))
				if len(batch) == cap(batch) || i == n-1 {
					if err := store.Write(ctx, batch); err != nil {
						return total, fmt.Errorf("load %s: %w", s, err)
					}
					total += len(batch)
					batch = batch[:0]
				}
			}
		}
	}
	if _, err := bdb.ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
		return total, err
	}
	fmt.Printf("loaded %d points in %s\n", total, time.Since(start).Round(time.Millisecond))
	return total, nil
}

func get(client *http.Client, url, token string) (time.Duration, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %s", url, res.Status)
	}
	return d, nil
}

// getAll makes the calls over parallel connections at a time, as a browser
// loading the dashboard does.
func getAll(client *http.Client, base string, calls []string, token string) error {
	work := make(chan string)
	errc := make(chan error, len(calls))
	var wg sync.WaitGroup
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				if _, err := get(client, base+c, token); err != nil {
					errc <- err
				}
			}
		}()
	}
	for _, c := range calls {
		work <- c
	}
	close(work)
	wg.Wait()
	close(errc)
	return <-errc
}

func pct(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
