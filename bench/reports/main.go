// Command reports measures the reports module's exports through the API of
// a running portal: it builds the fieldhub binary, starts `fieldhub serve`
// on a fresh PostgreSQL database, makes a company with its nodes through the
// API, loads their values straight into the SQL time-series store (the
// store the ingest writes, with its hourly summaries), and then times
// POST /api/report/multiexport:
//
//   - "rows": a regular .xlsx export of one key of one node holding -rows
//     values (one a second), the whole file read by the client; the
//     server's peak resident memory (VmHWM) before and after tells how much
//     the export made it grow.
//   - "trend": a trend .xlsx export, per hour, of a month of -every values
//     of -nodes nodes with -keys keys each.
//
// Run it as:
//
//	go run ./bench/reports                     # both, as in docs/performance.md, "Reports"
//	go run ./bench/reports -only rows -rows 200000
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
)

type options struct {
	rows, nodes, keys, days int
	every                   time.Duration
	only, bin, pg           string
	runs                    int
}

func main() {
	var o options
	flag.IntVar(&o.rows, "rows", 1_000_000, "values of the regular export (one a second)")
	flag.IntVar(&o.nodes, "nodes", 100, "nodes of the trend export")
	flag.IntVar(&o.keys, "keys", 5, "keys per node of the trend export")
	flag.IntVar(&o.days, "days", 30, "days of the trend export")
	flag.DurationVar(&o.every, "every", time.Minute, "one value per key this often, for the trend export")
	flag.IntVar(&o.runs, "runs", 3, "exports of each kind (the median is reported)")
	flag.StringVar(&o.only, "only", "", `"rows" or "trend": run one of them`)
	flag.StringVar(&o.bin, "bin", "", "a fieldhub binary to test (default: build one)")
	flag.StringVar(&o.pg, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "reports:", err)
		os.Exit(1)
	}
}

func run(o options) (err error) {
	ctx := context.Background()
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "reports", Bin: o.bin, PGAdmin: o.pg})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server, dbURL := portal.Server(), portal.DatabaseURL
	nodeCount := max(o.nodes, 1)
	if o.only == "rows" {
		nodeCount = 1
	}
	company, token, tags, err := setUp(server.Base, portal.RootToken, nodeCount)
	if err != nil {
		return server.Fail(err)
	}
	bdb, err := db.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer bdb.Close()
	store := sqlts.New(bdb, sqlts.Options{})
	end := time.Now().UTC().Truncate(time.Hour)

	if o.only != "trend" {
		from := end.Add(-time.Duration(o.rows) * time.Second)
		if err := load(ctx, store, company, tags[:1], []string{"value"}, from, time.Second, o.rows); err != nil {
			return err
		}
		body := map[string]any{"nodes": []int64{tags[0].id}, "keys": []string{"value"}, "type": "regular", "format": "xlsx",
			"from": from.Format(time.RFC3339), "to": end.Format(time.RFC3339)}
		before, err := status(server.PID(), "VmHWM:")
		if err != nil {
			return err
		}
		rss, _ := status(server.PID(), "VmRSS:")
		times, size, err := exports(server.PID(), server.Base, token, body, o.runs)
		if err != nil {
			return server.Fail(err)
		}
		after, _ := status(server.PID(), "VmHWM:")
		fmt.Printf("rows: regular .xlsx of %d values (1 node, 1 key, one a second): median %s (runs %s), file %.1f MB\n",
			o.rows, times[len(times)/2].Round(time.Millisecond), list(times), float64(size)/1e6)
		fmt.Printf("      server RSS before %d MB, peak before %d MB, peak after %d MB: grew %d MB\n", rss>>10, before>>10, after>>10, (after-max(before, rss))>>10)
	}
	if o.only != "rows" {
		n := int(time.Duration(o.days) * 24 * time.Hour / o.every)
		from := end.Add(-time.Duration(n) * o.every)
		var keys []string
		for k := range o.keys {
			keys = append(keys, "k"+strconv.Itoa(k))
		}
		if err := load(ctx, store, company, tags, keys, from, o.every, n); err != nil {
			return err
		}
		if err := store.SealHours(ctx, time.Now()); err != nil {
			return err
		}
		ids := make([]int64, len(tags))
		for i, t := range tags {
			ids[i] = t.id
		}
		body := map[string]any{"nodes": ids, "keys": keys, "type": "trend", "resolution": "hour", "format": "xlsx",
			"from": from.Format(time.RFC3339), "to": end.Format(time.RFC3339)}
		times, size, err := exports(server.PID(), server.Base, token, body, o.runs)
		if err != nil {
			return server.Fail(err)
		}
		fmt.Printf("trend: hourly .xlsx of %d nodes x %d keys, %d days of a value every %s (%d values): median %s (runs %s), file %.1f MB\n",
			len(tags), o.keys, o.days, o.every, n*len(tags)*o.keys, times[len(times)/2].Round(time.Millisecond), list(times), float64(size)/1e6)
	}
	return nil
}

type tag struct {
	id  int64
	eui string
}

// setUp makes a company with n nodes through the API and returns the
// company, a CompanyAdmin's token and the nodes.
func setUp(base, root string, n int) (int64, string, []tag, error) {
	c, err := loadkit.NewCompany(base, root, loadkit.CompanyOptions{Application: map[string]any{"name": "Bench"}})
	if err != nil {
		return 0, "", nil, err
	}
	var tags []tag
	for i := range n {
		eui := fmt.Sprintf("70B3D57ED0%06X", i+1)
		var t struct {
			ID int64 `json:"id"`
		}
		if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", c.App), c.AdminToken, map[string]any{"name": fmt.Sprintf("Meter %03d", i+1), "deveui": eui},
			http.StatusCreated, &t); err != nil {
			return 0, "", nil, err
		}
		tags = append(tags, tag{id: t.ID, eui: eui})
	}
	return c.ID, c.AdminToken, tags, nil
}

// load writes n values of each key of each node, one every step from from.
func load(ctx context.Context, store *sqlts.Store, company int64, tags []tag, keys []string, from time.Time, step time.Duration, n int) error {
	start := time.Now()
	batch := make([]tsdb.Point, 0, 50_000)
	total := 0
	for _, t := range tags {
		for k, key := range keys {
			s := tsdb.Series{Company: company, DevEUI: strings.ToLower(t.eui), Key: key}
			for i := range n {
				at := from.Add(time.Duration(i) * step)
				v := math.Round((20+float64(k)+5*math.Sin(float64(i)/500))*100) / 100
				batch = append(batch, tsdb.Number(s, at, v))
				if len(batch) == cap(batch) {
					if err := store.Write(ctx, batch); err != nil {
						return err
					}
					total += len(batch)
					batch = batch[:0]
				}
			}
		}
	}
	if len(batch) > 0 {
		if err := store.Write(ctx, batch); err != nil {
			return err
		}
		total += len(batch)
	}
	fmt.Printf("loaded %d values in %s\n", total, time.Since(start).Round(time.Second))
	return nil
}

// exports runs the export runs times and returns the sorted times and the
// file's size; it prints the server's and PostgreSQL's CPU time per export,
// which a busy machine does not stretch as it stretches the wall time.
func exports(pid int, base, token string, body map[string]any, runs int) ([]time.Duration, int64, error) {
	var times []time.Duration
	var size int64
	for range max(runs, 1) {
		cpu0, _ := loadkit.ProcessCPU(pid)
		pg0 := loadkit.CommandCPU("postgres")
		start := time.Now()
		n, err := export(base, token, body)
		if err != nil {
			return nil, 0, err
		}
		times = append(times, time.Since(start))
		cpu1, _ := loadkit.ProcessCPU(pid)
		fmt.Printf("      export in %s: server CPU %s, PostgreSQL CPU %s\n", time.Since(start).Round(time.Millisecond),
			(cpu1 - cpu0).Round(10*time.Millisecond), (loadkit.CommandCPU("postgres") - pg0).Round(10*time.Millisecond))
		size = n
	}
	for i := range times { // a few values: insertion sort
		for j := i; j > 0 && times[j] < times[j-1]; j-- {
			times[j], times[j-1] = times[j-1], times[j]
		}
	}
	return times, size, nil
}

func export(base, token string, body map[string]any) (int64, error) {
	raw := fmt.Sprintf(`{"nodes":%s,"keys":%s,"type":%q,"format":%q,"from":%q,"to":%q,"resolution":"hour"}`,
		jsonInts(body["nodes"].([]int64)), jsonStrings(body["keys"].([]string)), body["type"], body["format"], body["from"], body["to"])
	req, err := http.NewRequest(http.MethodPost, base+"/api/report/multiexport", strings.NewReader(raw))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Timeout: 10 * time.Minute}
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("export: %s", res.Status)
	}
	return n, nil
}

func jsonInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(s, ",") + "]"
}

func jsonStrings(v []string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Quote(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}

func list(times []time.Duration) string {
	s := make([]string, len(times))
	for i, t := range times {
		s[i] = t.Round(time.Millisecond).String()
	}
	return strings.Join(s, ", ")
}

// status reads a line of /proc/<pid>/status in kB.
func status(pid int, field string) (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
