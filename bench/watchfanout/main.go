// Command watchfanout measures the partner API's Watch fan-out (issue 22:
// 5,000 uplinks/s to 10 subscribers, with the p99 delay of delivery): it
// builds the fieldhub binary, starts it on a fresh PostgreSQL database,
// creates a company with N nodes and an integration token through the API,
// opens S Watch streams of the company over Connect, then posts generic
// uplinks to the HTTP ingest at a paced rate from C keep-alive connections.
// Each uplink carries, as its value sent_ns, when it was posted (nanoseconds
// since the run began, on this program's monotonic clock); each subscriber
// takes the delay from there to its receipt. The delay so includes the
// ingest's durable write, as a partner sees it.
//
// With -instances 2 it starts two servers on the database, as two
// instances behind a load balancer: the uplinks go to the first, the
// subscribers watch on the second, so every uplink crosses the events
// module's fan-out between instances (PostgreSQL's LISTEN/NOTIFY).
//
//	go run ./bench/watchfanout                                 # 5,000/s to 10 subscribers for 15 s
//	go run ./bench/watchfanout -rate 500 -d 5s -nodes 50       # a quick check
//	go run ./bench/watchfanout -instances 2                    # across instances
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
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
)

type options struct {
	pgAdmin, bin                         string
	rate, subscribers, conns, nodes, ins int
	duration, warmup, drain              time.Duration
}

func main() {
	var o options
	flag.IntVar(&o.rate, "rate", 5000, "uplinks per second posted, paced")
	flag.IntVar(&o.subscribers, "subscribers", 10, "Watch streams of the company")
	flag.IntVar(&o.conns, "c", 256, "concurrent HTTP connections that post the uplinks")
	flag.DurationVar(&o.duration, "d", 15*time.Second, "measured duration of the posting")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "posting before the measured period (not counted)")
	flag.DurationVar(&o.drain, "drain", 10*time.Second, "how long the subscribers may take to receive the last uplinks")
	flag.IntVar(&o.nodes, "nodes", 1000, "nodes the uplinks are spread over, round robin")
	flag.IntVar(&o.ins, "instances", 1, "servers on the database: 1, or 2 (uplinks to the first, subscribers on the second)")
	flag.StringVar(&o.bin, "bin", "", "fieldhub binary to run (default: build it into a temporary folder)")
	flag.StringVar(&o.pgAdmin, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, to create and drop the benchmark database")
	flag.Parse()
	if o.rate < 1 || o.subscribers < 1 || o.conns < 1 || o.nodes < 1 || o.duration <= 0 || o.warmup < 0 || o.drain < 0 || (o.ins != 1 && o.ins != 2) {
		fatal(errors.New("-rate, -subscribers, -c and -nodes must be at least 1, -d positive, -warmup and -drain not negative, -instances 1 or 2"))
	}
	if err := run(o); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "watchfanout:", err)
	os.Exit(1)
}

func run(o options) (err error) {
	ctx := context.Background()
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "watchfanout", Bin: o.bin, PGAdmin: o.pgAdmin, Instances: o.ins})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	ingestServer, watchServer := portal.Servers[0], portal.Servers[len(portal.Servers)-1]
	super := portal.RootToken
	company, ingestToken, euis, err := setup(ingestServer.Base, super, o.nodes)
	if err != nil {
		return ingestServer.Fail(err)
	}
	fmt.Printf("watchfanout: PostgreSQL, %d instance(s), %d nodes, %d uplinks/s from %d connections to %d subscribers, %s measured after %s warm-up\n",
		o.ins, o.nodes, o.rate, o.conns, o.subscribers, o.duration, o.warmup)

	epoch := time.Now()
	measureFrom := o.warmup.Nanoseconds()
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	subs := make([]*subscriber, o.subscribers)
	var wg sync.WaitGroup
	for i := range subs {
		s, err := watch(watchCtx, partner.New(watchServer.Base, super), company)
		if err != nil {
			return watchServer.Fail(fmt.Errorf("subscriber %d: %w", i+1, err))
		}
		subs[i] = s
		wg.Go(func() { s.receive(epoch, measureFrom) })
	}

	sent, elapsed, err := post(ingestServer.Base, ingestToken, euis, o, epoch)
	if err != nil {
		return ingestServer.Fail(err)
	}
	// Wait for the last uplinks, or for the drain to end.
	deadline := time.Now().Add(o.drain)
	for time.Now().Before(deadline) && !allReceived(subs, sent) {
		time.Sleep(50 * time.Millisecond)
	}
	stopWatching()
	wg.Wait()

	fmt.Printf("ingest: %d uplinks measured in %.1f s: %.0f uplinks/s (asked %d/s)\n", sent, elapsed.Seconds(), float64(sent)/elapsed.Seconds(), o.rate)
	var all []time.Duration
	for i, s := range subs {
		line := fmt.Sprintf("subscriber %2d: received %d of %d", i+1, s.count.Load(), sent)
		if s.err != nil && !errors.Is(s.err, context.Canceled) {
			line += fmt.Sprintf(" (ended: %v)", s.err)
		}
		fmt.Println(line)
		all = append(all, s.delays...)
	}
	slices.Sort(all)
	r := loadkit.Result{Latencies: all}
	fmt.Printf("delay from post to receipt over %d deliveries: p50 %s  p90 %s  p99 %s  max %s\n",
		len(all), loadkit.Ms(r.Percentile(50)), loadkit.Ms(r.Percentile(90)), loadkit.Ms(r.Percentile(99)), loadkit.Ms(r.Percentile(100)))
	return nil
}

// subscriber is one Watch stream and what it received of the measured
// uplinks.
type subscriber struct {
	stream *connect.ServerStreamForClient[fieldhubv1.WatchResponse]
	count  atomic.Int64
	delays []time.Duration // read once receive has returned
	err    error
}

// watch opens a Watch of company and returns once it is in place (its
// headers have come).
func watch(ctx context.Context, c *partner.Client, company int64) (*subscriber, error) {
	stream, err := c.TagData.Watch(ctx, connect.NewRequest(&fieldhubv1.WatchRequest{CompanyId: company}))
	if err != nil {
		return nil, err
	}
	stream.ResponseHeader()
	if err := stream.Err(); err != nil {
		return nil, err
	}
	return &subscriber{stream: stream}, nil
}

// receive takes the delay of each uplink posted after measureFrom until
// the stream ends.
func (s *subscriber) receive(epoch time.Time, measureFrom int64) {
	for s.stream.Receive() {
		now := time.Since(epoch).Nanoseconds()
		sent := int64(s.stream.Msg().GetUplink().GetValues().GetFields()["sent_ns"].GetNumberValue())
		if sent < measureFrom {
			continue
		}
		s.delays = append(s.delays, time.Duration(now-sent))
		s.count.Add(1)
	}
	s.err = s.stream.Err()
	s.stream.Close()
}

func allReceived(subs []*subscriber, sent int64) bool {
	for _, s := range subs {
		if s.count.Load() < sent {
			return false
		}
	}
	return true
}

// post sends the uplinks at o.rate, the i-th at epoch + i/rate, from
// o.conns connections, through the warm-up and the measured period, and
// returns how many of those posted in the latter were stored and how long
// that period lasted. A connection that falls behind the pace posts at
// once, so the achieved rate tells when the ingest cannot keep it.
func post(base, token string, euis []string, o options, epoch time.Time) (int64, time.Duration, error) {
	interval := time.Second / time.Duration(o.rate)
	total := o.warmup + o.duration
	var seq, measured atomic.Int64
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.conns}}
	past := epoch.Add(-30 * time.Minute) // the uplinks' own times, distinct per node
	errc := make(chan error, o.conns)
	var wg sync.WaitGroup
	for range o.conns {
		wg.Go(func() {
			for {
				i := seq.Add(1) - 1
				at := time.Duration(i) * interval
				if at >= total {
					errc <- nil
					return
				}
				if wait := at - time.Since(epoch); wait > 0 {
					time.Sleep(wait)
				}
				n := int64(len(euis))
				sentNs := time.Since(epoch).Nanoseconds()
				body, _ := json.Marshal(map[string]any{"devEui": euis[i%n],
					"time":   past.Add(time.Duration(i/n) * time.Millisecond).Format(time.RFC3339Nano),
					"values": map[string]any{"sent_ns": sentNs, "seq": i}})
				if err := postOne(hc, base, token, body); err != nil {
					errc <- err
					return
				}
				if sentNs >= o.warmup.Nanoseconds() {
					measured.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			return 0, 0, err
		}
	}
	return measured.Load(), max(time.Since(epoch)-o.warmup, time.Nanosecond), nil
}

func postOne(hc *http.Client, base, token string, body []byte) error {
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
	return nil
}

// setup makes a company with n nodes and an integration token as the
// SuperAdmin (super, which also watches the company), and returns the
// company, the integration token and the nodes' DevEUIs.
func setup(base, super string, n int) (int64, string, []string, error) {
	c, err := loadkit.NewCompany(base, super, loadkit.CompanyOptions{Application: map[string]any{"name": "Bench field"}, TokenLabel: "bench"})
	if err != nil {
		return 0, "", nil, err
	}
	euis := make([]string, n)
	for i := range euis {
		euis[i] = fmt.Sprintf("70b3d57ed3%06x", i)
		if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", c.App), super,
			map[string]any{"name": fmt.Sprintf("Bench node %d", i), "deveui": euis[i]}, 201, nil); err != nil {
			return 0, "", nil, err
		}
	}
	return c.ID, c.IntegrationToken, euis, nil
}
