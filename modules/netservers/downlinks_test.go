package netservers_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// queueEnv is a running portal with a SuperAdmin ("super"), two companies,
// Acme and Beta, with their CompanyAdmins ("acmeAdmin", "betaAdmin"), a
// User of Acme ("acmeUser") and an Admin without a company ("loneAdmin"),
// for the tests of the downlink queue, run as steps.
type queueEnv struct {
	*kerneltest.Session
	nodes  nodes.Module
	queue  netservers.Downlinks
	events *kerneltest.Recorder
}

func newQueueEnv(t *testing.T, d db.Dialect) *queueEnv {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	e := &queueEnv{nodes: p.App.Nodes(), queue: p.App.NetServers(),
		events: kerneltest.Record(p.Host().Bus, nodes.TagCreated{}.Topic(), nodes.TagDeleted{}.Topic(), netservers.DownlinkCreated{}.Topic())}
	e.Session = kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Name: "Acme", User: true},
		kerneltest.CompanySpec{Key: "beta", Name: "Beta"})
	e.LoneAdmin(t)
	return e
}

// step is one call and what its answer must hold.
type step = kerneltest.Step[*queueEnv]

// run runs steps on a fresh portal of each database.
func run(t *testing.T, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newQueueEnv(t, d)
		kerneltest.RunSteps(t, e.Session, e, steps)
	})
}

const (
	devEUI     = "70B3D57ED005A1B2"
	betaDevEUI = "0004A30B001C0530"
)

// tagSteps create applications {app} and {app2} in Acme and {betaApp} in
// Beta, a tag {tag} in {app} and {betaTag} in Beta.
var tagSteps = kerneltest.TagSteps[*queueEnv](devEUI, betaDevEUI)

func TestDownlinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	post := func(name, body string, status int, field, id, text string) step {
		s := step{Name: name, As: "acmeAdmin", Method: "POST", Path: "/api/downlink/{tag}", Body: body, Status: status}
		if field != "" {
			s.Fields = map[string]string{field: id}
		}
		if text != "" {
			s.Texts = map[string]string{field: text}
		}
		return s
	}
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{Name: "queue hex", As: "acmeAdmin", Method: "POST", Path: "/api/downlink/{tag}", Body: `{"port":10,"payload":"01 02 ff","payloadType":"hex","confirmed":true}`,
			Status: 201, Want: map[string]any{"port": 10.0, "payload": "0102FF", "payloadType": "hex", "confirmed": true, "status": "queued", "deveui": devEUI},
			Save: map[string]string{"{first}": "id"}},
		post("queue base64", `{"port":2,"payload":"AQID","payloadType":"base64"}`, 201, "", "", ""),
		post("queue a JSON text", `{"port":3,"payload":"{\"valve\": \"open\"}","payloadType":"json"}`, 201, "", "", ""),
		{Name: "queue a JSON object", As: "acmeAdmin", Method: "POST", Path: "/api/downlink/{tag}", Body: `{"port":223,"payload":{"valve":"closed"},"payloadType":"json"}`,
			Status: 201, Want: map[string]any{"payload": `{"valve":"closed"}`}, Save: map[string]string{"{last}": "id"}},
		post("port 0", `{"port":0,"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.min", "Port must be greater than 0"),
		post("no port", `{"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.min", ""),
		post("negative port", `{"port":-5,"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.min", ""),
		post("port 224", `{"port":224,"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.max", "Port must be at most 223"),
		post("fractional port", `{"port":1.5,"payload":"01","payloadType":"hex"}`, 400, "port", "error.badJsonType", ""),
		post("unknown type", `{"port":1,"payload":"01","payloadType":"bin"}`, 400, "payloadType", "nodes.downlink.payloadType", ""),
		post("no type", `{"port":1,"payload":"01"}`, 400, "payloadType", "nodes.downlink.payloadType", ""),
		post("odd hex", `{"port":1,"payload":"123","payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.hex", ""),
		post("not hex", `{"port":1,"payload":"0x12","payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.hex", ""),
		post("hex too long", `{"port":1,"payload":"`+strings.Repeat("ab", 243)+`","payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.tooLong",
			"The payload must be at most 242 bytes"),
		post("bad base64", `{"port":1,"payload":"***","payloadType":"base64"}`, 400, "payload", "nodes.downlink.payload.base64", ""),
		post("JSON array", `{"port":1,"payload":"[1,2]","payloadType":"json"}`, 400, "payload", "nodes.downlink.payload.json", ""),
		post("broken JSON", `{"port":1,"payload":"{\"a\":","payloadType":"json"}`, 400, "payload", "nodes.downlink.payload.json", ""),
		post("a number for hex", `{"port":1,"payload":12,"payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.hex", ""),
		post("no payload", `{"port":1,"payloadType":"hex"}`, 400, "payload", "validation.required", ""),
		{Name: "Users may not queue", As: "acmeUser", Method: "POST", Path: "/api/downlink/{tag}", Body: `{"port":1,"payload":"01","payloadType":"hex"}`, Status: 403},
		{Name: "another company's tag", As: "betaAdmin", Method: "POST", Path: "/api/downlink/{tag}", Body: `{"port":1,"payload":"01","payloadType":"hex"}`, Status: 404},
		{Name: "rejected ones were not queued", As: "acmeUser", Method: "GET", Path: "/api/downlink/tag/{tag}", Status: 200, List: true, Items: 4,
			Then: func(t *testing.T, e *queueEnv, got any) {
				if first := got.([]any)[0].(map[string]any); first["id"] != float64(e.ID(t, "{last}")) {
					t.Errorf("not newest first: %v", got)
				}
				queue, err := e.queue.Queued(ctx, 10)
				if err != nil || len(queue) != 4 || queue[0].ID != e.ID(t, "{first}") || queue[0].DevEUI != devEUI ||
					!bytes.Equal(queue[0].Bytes(), []byte{1, 2, 0xff}) || queue[3].Object()["valve"] != "closed" {
					t.Errorf("Queued: %+v, %v", queue, err)
				}
				if err := e.queue.SetDownlinkStatus(ctx, e.ID(t, "{first}"), netservers.DownlinkSent, ""); err != nil {
					t.Fatal(err)
				}
				if err := e.queue.SetDownlinkStatus(ctx, e.ID(t, "{first}"), "lost", ""); errs.KindOf(err) != errs.Invalid {
					t.Errorf("unknown status: %v", err)
				}
				if queue, _ := e.queue.Queued(ctx, 10); len(queue) != 3 {
					t.Errorf("%d queued after one was sent", len(queue))
				}
			}},
		{Name: "another company's list", As: "betaAdmin", Method: "GET", Path: "/api/downlink/tag/{tag}", Status: 404},
		{Name: "a sent downlink stays", As: "acmeAdmin", Method: "DELETE", Path: "/api/downlink/{first}", Status: 409, ID: "nodes.downlink.notQueued",
			Texts: map[string]string{"": "Only a queued downlink can be removed"}},
		{Name: "Users may not remove", As: "acmeUser", Method: "DELETE", Path: "/api/downlink/{last}", Status: 403},
		{Name: "another company's admin may not remove", As: "betaAdmin", Method: "DELETE", Path: "/api/downlink/{last}", Status: 404},
		{Name: "remove a queued one", As: "acmeAdmin", Method: "DELETE", Path: "/api/downlink/{last}", Status: 204},
		{Name: "removed", As: "acmeAdmin", Method: "DELETE", Path: "/api/downlink/{last}", Status: 404},
		{Name: "three left", As: "acmeAdmin", Method: "GET", Path: "/api/downlink/tag/{tag}", Status: 200, List: true, Items: 3},
	}...)
	run(t, steps)
}
