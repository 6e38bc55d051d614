// Command partneringest measures the partner API's client-streaming ingest
// (fieldhub.v1.IngestService/PushStream over Connect) against the HTTP
// ingest (POST /api/ingest/generic) in one run, on the same server and
// database: it builds the fieldhub binary, starts it on a fresh PostgreSQL
// database (or SQLite folder), creates a company with N nodes and an
// integration token through the API, then sends generic uplinks (5 values
// each, each naming its own node and time) first over HTTP from C
// keep-alive connections, then over C Connect client streams of -stream
// uplinks each, for a warm-up and a measured period each. An uplink counts
// once the portal says it is durable: a 200 over HTTP, the stream's answer
// over Connect.
//
//	go run ./bench/partneringest                       # PostgreSQL, 16 connections, 1,000 nodes, 15 s each
//	go run ./bench/partneringest -c 4 -d 2s -warmup 0 -nodes 10   # a quick check
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
)

type options struct {
	db, pgAdmin, bin  string
	conns, nodes, per int
	duration, warmup  time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", "postgres", "database: postgres or sqlite")
	flag.IntVar(&o.conns, "c", 16, "concurrent HTTP connections, and concurrent Connect streams")
	flag.IntVar(&o.per, "stream", 200, "uplinks per Connect stream")
	flag.DurationVar(&o.duration, "d", 15*time.Second, "measured duration of each way in")
	flag.DurationVar(&o.warmup, "warmup", 3*time.Second, "warm-up of each way in (not counted)")
	flag.IntVar(&o.nodes, "nodes", 1000, "nodes the uplinks are spread over, round robin")
	flag.StringVar(&o.bin, "bin", "", "fieldhub binary to run (default: build it into a temporary folder)")
	flag.StringVar(&o.pgAdmin, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, to create and drop the benchmark database")
	flag.Parse()
	if o.conns < 1 || o.per < 1 || o.nodes < 1 || o.duration <= 0 || o.warmup < 0 || (o.db != "postgres" && o.db != "sqlite") {
		fatal(errors.New("-c, -stream and -nodes must be at least 1, -d positive, -warmup not negative, -db postgres or sqlite"))
	}
	if err := run(o); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "partneringest:", err)
	os.Exit(1)
}

func run(o options) (err error) {
	ctx := context.Background()
	pgAdmin := ""
	if o.db == "postgres" {
		pgAdmin = o.pgAdmin
	}
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "partneringest", Bin: o.bin, PGAdmin: pgAdmin})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server := portal.Server()
	token, euis, err := setup(server.Base, portal.RootToken, o.nodes)
	if err != nil {
		return server.Fail(err)
	}
	g := &generator{euis: euis, base: time.Now().Add(-30 * time.Minute)}
	fmt.Printf("partneringest: %s, %d nodes, %d connections/streams (%d uplinks per stream), %s measured after %s warm-up\n",
		o.db, o.nodes, o.conns, o.per, o.duration, o.warmup)
	httpRate, err := measure("HTTP POST /api/ingest/generic", o, func(stop <-chan struct{}, count func(int)) error {
		return postHTTP(server.Base, token, g, stop, count)
	})
	if err != nil {
		return server.Fail(err)
	}
	client := partner.New(server.Base, token)
	connectRate, err := measure("Connect IngestService/PushStream", o, func(stop <-chan struct{}, count func(int)) error {
		return pushStreams(client, g, o.per, stop, count)
	})
	if err != nil {
		return server.Fail(err)
	}
	fmt.Printf("partneringest: Connect client-streaming / HTTP = %.2f\n", connectRate/httpRate)
	return nil
}

// measure runs o.conns senders through a warm-up and the measured period
// and prints the rate of the uplinks they count in the latter.
func measure(name string, o options, send func(stop <-chan struct{}, count func(int)) error) (float64, error) {
	var measuring atomic.Bool
	var counted atomic.Int64
	count := func(n int) {
		if measuring.Load() {
			counted.Add(int64(n))
		}
	}
	stop := make(chan struct{})
	errc := make(chan error, o.conns)
	var wg sync.WaitGroup
	for range o.conns {
		wg.Add(1)
		go func() { defer wg.Done(); errc <- send(stop, count) }()
	}
	time.Sleep(o.warmup)
	measuring.Store(true)
	start := time.Now()
	time.Sleep(o.duration)
	measuring.Store(false)
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
	}
	rate := float64(counted.Load()) / elapsed.Seconds()
	fmt.Printf("%-36s %8d uplinks in %.1f s: %8.0f uplinks/s\n", name, counted.Load(), elapsed.Seconds(), rate)
	return rate, nil
}

// generator hands out uplinks: node i%n at its own next time.
type generator struct {
	euis []string
	base time.Time
	seq  atomic.Int64
}

func (g *generator) next() (string, time.Time, map[string]any) {
	i := g.seq.Add(1) - 1
	n := int64(len(g.euis))
	f := float64(i % 100)
	return g.euis[i%n], g.base.Add(time.Duration(i/n) * time.Millisecond),
		map[string]any{"temperature": 20 + f/10, "humidity": 40 + f/5, "pressure": 1000 + f, "co2": 400 + f, "light": f}
}

// postHTTP posts uplinks one after another on a keep-alive connection.
func postHTTP(base, token string, g *generator, stop <-chan struct{}, count func(int)) error {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		eui, at, values := g.next()
		body, _ := json.Marshal(map[string]any{"devEui": eui, "time": at.Format(time.RFC3339Nano), "values": values})
		req, _ := http.NewRequest(http.MethodPost, base+"/api/ingest/generic", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP ingest answered %d", res.StatusCode)
		}
		count(1)
	}
}

// pushStreams sends streams of per uplinks, one after another.
func pushStreams(c *partner.Client, g *generator, per int, stop <-chan struct{}, count func(int)) error {
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		s := c.Ingest.PushStream(context.Background())
		for range per {
			eui, at, values := g.next()
			v, err := structpb.NewStruct(values)
			if err != nil {
				return err
			}
			if err := s.Send(&fieldhubv1.PushStreamRequest{Uplink: &fieldhubv1.Uplink{DevEui: eui, Time: timestamppb.New(at), Values: v}}); err != nil {
				break // the answer says why
			}
		}
		res, err := s.CloseAndReceive()
		if err != nil {
			return err
		}
		count(len(res.Msg.GetResults()))
	}
}

// setup makes a company with n nodes and an integration token as the
// SuperAdmin (super), and returns the token and the nodes' DevEUIs.
func setup(base, super string, n int) (string, []string, error) {
	c, err := loadkit.NewCompany(base, super, loadkit.CompanyOptions{Application: map[string]any{"name": "Bench field"}, TokenLabel: "bench"})
	if err != nil {
		return "", nil, err
	}
	euis := make([]string, n)
	for i := range euis {
		euis[i] = fmt.Sprintf("70b3d57ed2%06x", i)
		if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", c.App), super,
			map[string]any{"name": fmt.Sprintf("Bench node %d", i), "deveui": euis[i]}, 201, nil); err != nil {
			return "", nil, err
		}
	}
	return c.IntegrationToken, euis, nil
}
