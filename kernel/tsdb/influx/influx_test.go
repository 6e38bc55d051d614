package influx

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/tsdbtest"
)

// InfluxEnv names the variable with the InfluxDB the tests use; the
// default is the one scripts/ensure-influxdb.sh starts.
const InfluxEnv = "FIELDHUB_TEST_INFLUX"

func serverURL() string {
	if u := os.Getenv(InfluxEnv); u != "" {
		return strings.TrimRight(u, "/")
	}
	return "http://127.0.0.1:8086"
}

// open returns a store on a database of its own, dropped when the test
// ends. It fails the test when InfluxDB does not answer: the backend is
// part of the product and must not go untested.
func open(t *testing.T, opts Options) *Store {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := fmt.Sprintf("fieldhub_test_%d_%s", os.Getpid(), hex.EncodeToString(b))
	st, err := Open(context.Background(), serverURL()+"/"+name, opts)
	if err != nil {
		t.Fatalf("InfluxDB is required for these tests and did not answer at %s (run scripts/ensure-influxdb.sh, or set %s): %v",
			serverURL(), InfluxEnv, err)
	}
	t.Cleanup(func() {
		if err := st.dropDatabase(context.Background()); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
		st.Close()
	})
	return st
}

func TestConformance(t *testing.T) {
	// Range reads raw points up to RawLimit and asks InfluxDB for
	// per-bucket extremes above: each variant sends every read one way.
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"raw", Options{RawLimit: math.MaxInt32}},
		{"extremes", Options{RawLimit: 1, CopyBatch: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tsdbtest.Run(t, func(t *testing.T) tsdb.Store { return open(t, tc.opts) })
		})
	}
}

func TestBatches(t *testing.T) {
	st := open(t, Options{})
	st.batch = 7 // several requests for one Write
	se := tsdb.Series{Company: 4, DevEUI: "0011223344556677", Key: "k"}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var pts []tsdb.Point
	for i := range 50 {
		pts = append(pts, tsdb.Number(se, t0.Add(time.Duration(i)*time.Second), float64(i)))
	}
	if err := st.Write(context.Background(), pts); err != nil {
		t.Fatal(err)
	}
	n, err := st.Count(context.Background(), 4, t0, t0.Add(time.Hour))
	if err != nil || n != 50 {
		t.Fatalf("count: got %d, %v; want 50", n, err)
	}
}

func TestOpenURL(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, url string
		wantErr   string
	}{
		{"no database", "http://127.0.0.1:8086", "the path must name one database"},
		{"two path segments", "http://127.0.0.1:8086/a/b", "the path must name one database"},
		{"other scheme", "udp://127.0.0.1:8089/db", "want http(s)://"},
		{"unknown parameter", "http://127.0.0.1:8086/db?retention=1d", `unknown parameter "retention"`},
		{"bad batch", "http://127.0.0.1:8086/db?batch=0", "want a positive number"},
		{"bad create", "http://127.0.0.1:8086/db?create=maybe", "create="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(ctx, tc.url, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want an error with %q", err, tc.wantErr)
			}
		})
	}
	t.Run("credentials and options", func(t *testing.T) {
		// Nothing listens on port 1: Open parses, then fails to ping,
		// and says the server is unavailable without showing the password.
		_, err := Open(ctx, "http://me:secret@127.0.0.1:1/fieldhub?measurement=data&create=false&batch=10", Options{})
		if !errs.Is(err, errs.Unavailable) {
			t.Fatalf("got %v, want errs.Unavailable", err)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Fatalf("error shows the password: %v", err)
		}
	})
	t.Run("measurement with special characters", func(t *testing.T) {
		st := open(t, Options{})
		st.measurement = `tag data, "v1"`
		se := tsdb.Series{Company: 1, DevEUI: "0011223344556677", Key: "k"}
		at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		if err := st.Write(ctx, []tsdb.Point{tsdb.Number(se, at, 1)}); err != nil {
			t.Fatal(err)
		}
		p, ok, err := st.Latest(ctx, se)
		if err != nil || !ok || p.Value != 1 {
			t.Fatalf("got %+v, %v, %v", p, ok, err)
		}
	})
}

func TestLineProtocol(t *testing.T) {
	se := tsdb.Series{Company: 12, DevEUI: "70b3d57ed0000001", Key: `a b,c=d"e`}
	at := time.Date(2024, 3, 1, 0, 0, 0, 1500, time.UTC)
	for _, tc := range []struct {
		name string
		p    tsdb.Point
		want string
	}{
		{"number", tsdb.Number(se, at, -1.5e-7),
			`tag\ data\,x,company=12,deveui=70b3d57ed0000001,key=a\ b\,c\=d"e value=-1.5e-07 1709251200000001` + "\n"},
		{"integer-valued number stays a float", tsdb.Number(se, at, 3),
			`tag\ data\,x,company=12,deveui=70b3d57ed0000001,key=a\ b\,c\=d"e value=3 1709251200000001` + "\n"},
		{"text", tsdb.Text(se, at, `say "hi" \ bye`),
			`tag\ data\,x,company=12,deveui=70b3d57ed0000001,key=a\ b\,c\=d"e text="say \"hi\" \\ bye" 1709251200000001` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			appendLine(&b, "tag data,x", tc.p)
			if b.String() != tc.want {
				t.Fatalf("got  %s\nwant %s", b.String(), tc.want)
			}
		})
	}
	if got := literal(`it's a \ test`); got != `'it\'s a \\ test'` {
		t.Errorf("literal: %s", got)
	}
	if got := ident(`a "b"`); got != `"a \"b\""` {
		t.Errorf("ident: %s", got)
	}
}
