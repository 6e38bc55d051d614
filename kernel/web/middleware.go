package web

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"regexp"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

type infoKey struct{}

// requestInfo is filled as a request passes the chain and read by the access log.
type requestInfo struct {
	id      string
	route   string
	userID  int64
	nonce   string  // the Content-Security-Policy nonce of the answer
	pattern string  // the pattern of the route that serves the path, for the access log
	router  *Router // for SameOrigin
	// cookies: the request carries cookies and no Authorization header, so
	// a session cookie is what may authenticate it.
	cookies bool
}

func infoOf(ctx context.Context) *requestInfo {
	if i, ok := ctx.Value(infoKey{}).(*requestInfo); ok {
		return i
	}
	return &requestInfo{}
}

func setRoute(ctx context.Context, pattern string) { infoOf(ctx).route = pattern }
func routeOf(ctx context.Context) string           { return infoOf(ctx).route }

// RequestID returns the id of the request in ctx, for logs.
func RequestID(ctx context.Context) string { return infoOf(ctx).id }

var goodRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID keeps a well-formed id given by a proxy, else makes one.
func requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); goodRequestID.MatchString(id) {
		return id
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// recorder remembers the status and size of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status = status
		r.wrote = true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (WebSockets, flush).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Hijack hands the connection over, for WebSocket upgrades.
func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := r.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response does not support hijacking")
	}
	r.wrote = true
	r.status = http.StatusSwitchingProtocols
	return h.Hijack()
}

func (rt *Router) observe(r *http.Request, rec *recorder, info *requestInfo, took time.Duration) {
	route := info.route
	if route == "" {
		route = "unmatched"
	}
	rt.metrics.duration.WithLabelValues(route, strconv.Itoa(rec.status)).Observe(took.Seconds())
	if rt.logEvery {
		rt.log.Info("request", "method", r.Method, "path", rt.logPath(r, info.pattern), "route", route, "status", rec.status,
			"bytes", rec.bytes, "duration_ms", float64(took.Microseconds())/1000, "request_id", info.id, "user_id", info.userID)
	}
}

type metrics struct {
	registry *prometheus.Registry
	duration *prometheus.HistogramVec
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fieldhub_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by route pattern and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "status"}),
	}
	m.registry.MustRegister(m.duration)
	return m
}

// Registry is where modules register their own Prometheus metrics.
func (rt *Router) Registry() *prometheus.Registry { return rt.metrics.registry }

func stack() string { return string(debug.Stack()) }
