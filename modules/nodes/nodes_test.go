package nodes_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// env is a running portal with a SuperAdmin ("super"), two companies, Acme
// and Beta, with their CompanyAdmins ("acmeAdmin", "betaAdmin"), a User of
// Acme ("acmeUser") and an Admin without a company ("loneAdmin").
type env struct {
	*kerneltest.Session
	k      *kernel.Kernel
	nodes  nodes.Module
	queue  netservers.Downlinks // the downlinks of TestState's nodes
	events *kerneltest.Recorder
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	e := &env{k: p.App.Kernel(), nodes: p.App.Nodes(), queue: p.App.NetServers(),
		events: kerneltest.Record(p.Host().Bus, nodes.TagCreated{}.Topic(), nodes.TagDeleted{}.Topic())}
	e.Session = kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Name: "Acme", User: true},
		kerneltest.CompanySpec{Key: "beta", Name: "Beta"})
	e.LoneAdmin(t)
	return e
}

// value reads one stored value straight from the database, "" if absent.
func (e *env) value(t *testing.T, query string, args ...any) string {
	t.Helper()
	var v sql.NullString
	if err := e.k.Host().DB.NewRaw(query, args...).Scan(context.Background(), &v); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return v.String
}

func (e *env) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	if _, err := e.k.Host().DB.NewRaw(query, args...).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// step is one call and what its answer must hold.
type step = kerneltest.Step[*env]

// run runs steps on a fresh portal of each database.
func run(t *testing.T, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		kerneltest.RunSteps(t, e.Session, e, steps)
	})
}

// entry returns the list item whose key holds value.
func entry(t *testing.T, got any, key string, value any) map[string]any {
	t.Helper()
	list, _ := got.([]any)
	for _, item := range list {
		if m, ok := item.(map[string]any); ok && reflect.DeepEqual(m[key], value) {
			return m
		}
	}
	t.Fatalf("no item with %s = %v in %v", key, value, got)
	return nil
}

func nowUTC() time.Time { return time.Now().UTC() }

const (
	devEUI     = "70B3D57ED005A1B2"
	betaDevEUI = "0004A30B001C0530"
)

func TestApplications(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("å", 254)
	ttsURL := "https://eu1.cloud.thethings.network/api/v3/as/applications/acme/webhooks/fh/devices/{devId}/down/push"
	run(t, []step{
		{Name: "create", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":" Fields "}`, Status: 201,
			Want:   map[string]any{"name": "Fields", "networkServer": "generic", "chirpstackApplicationId": "", "ttsDownlinkUrl": "", "ttsApiKeySet": false},
			Absent: []string{"ttsApiKey"}, Save: map[string]string{"{app}": "id"},
			Then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["companyId"] != float64(e.ID(t, "{acme}")) || got.(map[string]any)["createdAt"] == nil {
					t.Errorf("answer %v", got)
				}
			}},
		{Name: "name required", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"  "}`, Status: 400,
			Fields: map[string]string{"name": "nodes.application.name.required"}, Texts: map[string]string{"name": "Your application must have a name"}},
		{Name: "name absent", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{}`, Status: 400,
			Fields: map[string]string{"name": "nodes.application.name.required"}},
		{Name: "name required in Swedish", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{}`, Lang: "sv", Status: 400,
			Texts: map[string]string{"name": "Din applikation måste ha ett namn"}},
		{Name: "254 characters is fine", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"` + long + `"}`, Status: 201,
			Want: map[string]any{"name": long}, Save: map[string]string{"{long}": "id"}},
		{Name: "255 characters is too long", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"` + long + `x"}`, Status: 400,
			Fields: map[string]string{"name": "nodes.application.name.tooLong"}, Texts: map[string]string{"name": "Name must be fewer than 255 characters"}},
		{Name: "control character", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"a\u0000b"}`, Status: 400,
			Fields: map[string]string{"name": "nodes.text.invalid"}},
		{Name: "name of the wrong type", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":5}`, Status: 400,
			Fields: map[string]string{"name": "error.badJsonType"}},
		{Name: "not JSON", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":`, Status: 400, ID: "error.badJson"},
		{Name: "caller without a company", As: "loneAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"Mine"}`, Status: 400,
			ID: "nodes.application.noCompany", Texts: map[string]string{"": "You must register a company first to create applications"}},
		{Name: "unknown network server", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"X","networkServer":"loriot"}`,
			Status: 400, Fields: map[string]string{"networkServer": "nodes.application.networkServer"}},
		{Name: "ChirpStack id must be a UUID", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}",
			Body: `{"name":"X","networkServer":"chirpstack","chirpstackApplicationId":"42"}`, Status: 400,
			Fields: map[string]string{"chirpstackApplicationId": "nodes.application.chirpstackId"}},
		{Name: "TTS URL must be http(s)", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}",
			Body: `{"name":"X","networkServer":"tts","ttsDownlinkUrl":"ftp://x"}`, Status: 400,
			Fields: map[string]string{"ttsDownlinkUrl": "nodes.application.ttsUrl"}},
		{Name: "TTS URL on the portal's own network", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}",
			Body: `{"name":"X","networkServer":"tts","ttsDownlinkUrl":"http://10.1.2.3:1885/api/v3/as/applications/a/webhooks/w/devices/{devId}/down/push"}`, Status: 400,
			Fields: map[string]string{"ttsDownlinkUrl": "nodes.application.ttsUrlPrivate"}},
		{Name: "ChirpStack application", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}",
			Body: `{"name":"Barn","networkServer":"ChirpStack","chirpstackApplicationId":"5C1E0F3A-8D6B-4C1F-9A2E-0B7D3E4F5A6B"}`, Status: 201,
			Want: map[string]any{"networkServer": "chirpstack", "chirpstackApplicationId": "5c1e0f3a-8d6b-4c1f-9a2e-0b7d3e4f5a6b"}},
		{Name: "TTS application with a sealed key", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}",
			Body: `{"name":"Stable","networkServer":"tts","ttsDownlinkUrl":"` + ttsURL + `","ttsApiKey":"NNSXS.SECRETKEY"}`, Status: 201,
			Want:   map[string]any{"networkServer": "tts", "ttsDownlinkUrl": ttsURL, "ttsApiKeySet": true},
			Absent: []string{"ttsApiKey"}, Save: map[string]string{"{tts}": "id"},
			Then: func(t *testing.T, e *env, got any) {
				raw := e.value(t, "SELECT tts_api_key FROM applications WHERE id = ?", e.ID(t, "{tts}"))
				if raw == "" || strings.Contains(raw, "SECRETKEY") {
					t.Errorf("key stored as %q", raw)
				}
				if key, err := e.nodes.TTSAPIKey(context.Background(), e.ID(t, "{tts}")); err != nil || key != "NNSXS.SECRETKEY" {
					t.Errorf("TTSAPIKey = %q, %v", key, err)
				}
			}},
		{Name: "rejected creates stored nothing", As: "acmeUser", Method: "GET", Path: "/api/companies/{acme}/applications", Status: 200, List: true, Items: 4},
		{Name: "Users may not create", As: "acmeUser", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"X"}`, Status: 403},
		{Name: "another company's admin gets 404", As: "betaAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"X"}`, Status: 404, ID: "error.notFound"},
		{Name: "SuperAdmin, no such company", As: "super", Method: "POST", Path: "/api/applications/999999", Body: `{"name":"X"}`, Status: 404},
		{Name: "SuperAdmin creates for any company", As: "super", Method: "POST", Path: "/api/applications/{beta}", Body: `{"name":"Beta fields"}`, Status: 201,
			Save: map[string]string{"{betaApp}": "id"}},
		{Name: "read", As: "acmeUser", Method: "GET", Path: "/api/applications/{app}", Status: 200, Want: map[string]any{"name": "Fields"}},
		{Name: "read another company's", As: "betaAdmin", Method: "GET", Path: "/api/applications/{app}", Status: 404, ID: "error.notFound"},
		{Name: "bad id", As: "acmeAdmin", Method: "GET", Path: "/api/applications/abc", Status: 400, ID: "error.badId"},
		{Name: "rename keeps the rest", As: "acmeAdmin", Method: "PUT", Path: "/api/applications/{tts}", Body: `{"name":"Stable 2"}`, Status: 200,
			Want: map[string]any{"name": "Stable 2", "networkServer": "tts", "ttsDownlinkUrl": ttsURL, "ttsApiKeySet": true}},
		{Name: "bad update changes nothing", As: "acmeAdmin", Method: "PUT", Path: "/api/applications/{tts}", Body: `{"name":"","ttsApiKey":""}`, Status: 400,
			Fields: map[string]string{"name": "nodes.application.name.required"},
			Then: func(t *testing.T, e *env, _ any) {
				if key, _ := e.nodes.TTSAPIKey(context.Background(), e.ID(t, "{tts}")); key != "NNSXS.SECRETKEY" {
					t.Errorf("key %q after a rejected update", key)
				}
			}},
		{Name: "an empty key removes it", As: "acmeAdmin", Method: "PUT", Path: "/api/applications/{tts}", Body: `{"ttsApiKey":""}`, Status: 200,
			Want: map[string]any{"ttsApiKeySet": false, "name": "Stable 2"}},
		{Name: "Users may not update", As: "acmeUser", Method: "PUT", Path: "/api/applications/{app}", Body: `{"name":"X"}`, Status: 403},
		{Name: "another company's admin cannot update", As: "betaAdmin", Method: "PUT", Path: "/api/applications/{app}", Body: `{"name":"X"}`, Status: 404},
		{Name: "another company's admin cannot delete", As: "betaAdmin", Method: "DELETE", Path: "/api/applications/{app}", Status: 404},
		{Name: "list of another company", As: "betaAdmin", Method: "GET", Path: "/api/companies/{acme}/applications", Status: 404},
		{Name: "own list", As: "betaAdmin", Method: "GET", Path: "/api/companies/{beta}/applications", Status: 200, List: true, Items: 1},
		{Name: "delete", As: "acmeAdmin", Method: "DELETE", Path: "/api/applications/{long}", Status: 204},
		{Name: "deleted", As: "acmeAdmin", Method: "GET", Path: "/api/applications/{long}", Status: 404},
		{Name: "list after delete", As: "acmeAdmin", Method: "GET", Path: "/api/companies/{acme}/applications", Status: 200, List: true, Items: 3,
			Then: func(t *testing.T, e *env, got any) {
				if entry(t, got, "name", "Barn")["networkServer"] != "chirpstack" {
					t.Errorf("list %v", got)
				}
			}},
	})
}

// appSteps create applications {app} and {app2} in Acme and {betaApp} in
// Beta; tagSteps add a tag {tag} in {app} and {betaTag} in Beta.
var (
	appSteps = kerneltest.AppSteps[*env]()
	tagSteps = kerneltest.TagSteps[*env](devEUI, betaDevEUI)
)

func TestTags(t *testing.T) {
	t.Parallel()
	full := `{"name":"Door","deveui":"70-b3-d5-7e-d0-05-a1-b2","appKey":"00112233445566778899aabbccddeeff","appEui":"70:b3:d5:7e:d0:00:00:01",
		"lat":59.33,"long":18.07,"decoder":"raw","profile":"Class A","location":"Entrance","type":"door"}`
	bad := func(name, body, field, id, text string) step {
		s := step{Name: name, As: "acmeAdmin", Method: "POST", Path: "/api/applications/{app}/tag", Body: body, Status: 400,
			Fields: map[string]string{field: id}}
		if text != "" {
			s.Texts = map[string]string{field: text}
		}
		return s
	}
	steps := append(appSteps[:len(appSteps):len(appSteps)], []step{
		{Name: "create", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{app}/tag", Body: full, Status: 201,
			Want: map[string]any{"name": "Door", "deveui": devEUI, "appKey": "00112233445566778899AABBCCDDEEFF", "appEui": "70B3D57ED0000001",
				"lat": 59.33, "long": 18.07, "decoder": "raw", "profile": "Class A", "location": "Entrance", "type": "door",
				"nameWithDeveui": "Door (" + devEUI + ")", "keys": []any{}, "data": map[string]any{}, "dataPoints24h": 0.0,
				"activeData": false, "activeAlarm": false, "latestValue": nil, "image": nil, "battery": nil, "batteryVoltage": nil, "rssi": nil, "vdd": nil, "latestTime": nil},
			Save: map[string]string{"{tag}": "id"},
			Then: func(t *testing.T, e *env, got any) {
				obj := got.(map[string]any)
				if obj["applicationId"] != float64(e.ID(t, "{app}")) || obj["companyId"] != float64(e.ID(t, "{acme}")) {
					t.Errorf("owner %v", obj)
				}
				raw := e.value(t, "SELECT app_key FROM tags WHERE deveui = ?", devEUI)
				if raw == "" || strings.Contains(strings.ToUpper(raw), "00112233445566778899AABBCCDDEEFF") {
					t.Errorf("app key stored as %q", raw)
				}
				tag, err := e.nodes.TagByDevEUI(context.Background(), "70b3d57ed005a1b2")
				if err != nil || tag.AppKey != "00112233445566778899AABBCCDDEEFF" || tag.ID != e.ID(t, "{tag}") {
					t.Errorf("TagByDevEUI: %+v, %v", tag, err)
				}
			}},
		{Name: "decoder defaults to raw", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{app}/tag", Body: `{"name":"Sensor","deveui":"0011223344556677"}`,
			Status: 201, Want: map[string]any{"decoder": "raw", "appKey": "", "appEui": "", "lat": nil}, Save: map[string]string{"{tag2}": "id"}},
		bad("DevEUI too short", `{"name":"X","deveui":"70B3D57E"}`, "deveui", "nodes.deveui.format", "A DevEUI is 16 hexadecimal digits"),
		bad("DevEUI too long", `{"name":"X","deveui":"70B3D57ED005A1B2FF"}`, "deveui", "nodes.deveui.format", ""),
		bad("DevEUI not hex", `{"name":"X","deveui":"70B3D57ED005A1BG"}`, "deveui", "nodes.deveui.format", ""),
		bad("DevEUI required", `{"name":"X","deveui":" "}`, "deveui", "validation.required", "This field must be filled in"),
		bad("DevEUI taken, other spelling", `{"name":"X","deveui":"70:b3:d5:7e:d0:05:a1:b2"}`, "Deveui", "nodes.deveui.taken",
			"Node with this DevEUI already exists on this server"),
		bad("name required", `{"deveui":"1111111111111111"}`, "name", "validation.required", "This field must be filled in"),
		bad("name too long", `{"name":"`+strings.Repeat("n", 256)+`","deveui":"1111111111111111"}`, "name", "validation.max255", "Max characters is 255"),
		bad("AppKey format", `{"name":"X","deveui":"1111111111111111","appKey":"0011"}`, "appKey", "nodes.appKey.format", "An AppKey is 32 hexadecimal digits"),
		bad("AppEUI format", `{"name":"X","deveui":"1111111111111111","appEui":"zz"}`, "appEui", "nodes.appEui.format", "An AppEUI is 16 hexadecimal digits"),
		bad("latitude range", `{"name":"X","deveui":"1111111111111111","lat":90.5}`, "lat", "nodes.lat.range", "Latitude must be between -90 and 90"),
		bad("longitude range", `{"name":"X","deveui":"1111111111111111","long":-180.01}`, "long", "nodes.long.range", "Longitude must be between -180 and 180"),
		bad("latitude not a number", `{"name":"X","deveui":"1111111111111111","lat":"north"}`, "lat", "error.badJsonType", ""),
		bad("unknown decoder", `{"name":"X","deveui":"1111111111111111","decoder":"no_such_decoder"}`, "decoder", "nodes.decoder.unknown", "Choose a decoder from the list"),
		bad("location too long", `{"name":"X","deveui":"1111111111111111","location":"`+strings.Repeat("l", 256)+`"}`, "location", "validation.max255", ""),
		bad("type too long", `{"name":"X","deveui":"1111111111111111","type":"`+strings.Repeat("t", 65)+`"}`, "type", "validation.tooLong", ""),
		bad("control character", `{"name":"X\u0007","deveui":"1111111111111111"}`, "name", "nodes.text.invalid", ""),
		{Name: "DevEUI is unique across companies", As: "betaAdmin", Method: "POST", Path: "/api/applications/{betaApp}/tag",
			Body: `{"name":"Copy","deveui":"` + devEUI + `"}`, Status: 400, Fields: map[string]string{"Deveui": "nodes.deveui.taken"}},
		{Name: "Beta's own tag", As: "betaAdmin", Method: "POST", Path: "/api/applications/{betaApp}/tag", Body: `{"name":"Gate","deveui":"` + betaDevEUI + `"}`,
			Status: 201, Save: map[string]string{"{betaTag}": "id"}},
		{Name: "another company's application gets 404", As: "betaAdmin", Method: "POST", Path: "/api/applications/{app}/tag",
			Body: `{"name":"X","deveui":"2222222222222222"}`, Status: 404, ID: "error.notFound"},
		{Name: "Users may not create", As: "acmeUser", Method: "POST", Path: "/api/applications/{app}/tag", Body: `{"name":"X","deveui":"2222222222222222"}`, Status: 403},
		{Name: "rejected creates stored nothing", As: "acmeAdmin", Method: "GET", Path: "/api/tag", Status: 200, List: true, Items: 2,
			Then: func(t *testing.T, e *env, got any) {
				if n := e.value(t, "SELECT COUNT(*) FROM tags"); n != "3" {
					t.Errorf("%s tags stored, want 3", n)
				}
			}},
		{Name: "Users see their company's tags without AppKeys", As: "acmeUser", Method: "GET", Path: "/api/tag", Status: 200, List: true, Items: 2,
			Then: func(t *testing.T, e *env, got any) {
				if door := entry(t, got, "deveui", devEUI); door["appKey"] != "" || door["appEui"] != "70B3D57ED0000001" {
					t.Errorf("door %v", door)
				}
			}},
		{Name: "Beta sees its own", As: "betaAdmin", Method: "GET", Path: "/api/tag", Status: 200, List: true, Items: 1},
		{Name: "Beta may not ask for Acme's", As: "betaAdmin", Method: "GET", Path: "/api/tag?companyId={acme}", Status: 404},
		{Name: "SuperAdmin sees all", As: "super", Method: "GET", Path: "/api/tag", Status: 200, List: true, Items: 3},
		{Name: "SuperAdmin picks a company", As: "super", Method: "GET", Path: "/api/tag?companyId={beta}", Status: 200, List: true, Items: 1},
		{Name: "bad companyId", As: "super", Method: "GET", Path: "/api/tag?companyId=x", Status: 400, ID: "error.badId"},
		{Name: "a user without a company has none", As: "loneAdmin", Method: "GET", Path: "/api/tag", Status: 200, List: true, Items: 0},
		{Name: "by company", As: "acmeUser", Method: "GET", Path: "/api/tag/company/{acme}", Status: 200, List: true, Items: 2},
		{Name: "by company, another company", As: "betaAdmin", Method: "GET", Path: "/api/tag/company/{acme}", Status: 404},
		{Name: "by company, the old companies path", As: "acmeUser", Method: "GET", Path: "/api/companies/{acme}/tags", Status: 200, List: true, Items: 2},
		{Name: "no such listing", As: "acmeUser", Method: "GET", Path: "/api/tag/firm/{acme}", Status: 404},
		{Name: "read", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200, Want: map[string]any{"name": "Door", "appKey": ""}},
		{Name: "read as admin shows the AppKey", As: "acmeAdmin", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Want: map[string]any{"appKey": "00112233445566778899AABBCCDDEEFF"}},
		{Name: "read another company's", As: "betaAdmin", Method: "GET", Path: "/api/tag/{tag}", Status: 404},
		{Name: "update by DevEUI in any spelling", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/70-b3-d5-7e-d0-05-a1-b2",
			Body: `{"name":"Front door","lat":null}`, Status: 200,
			Want: map[string]any{"name": "Front door", "lat": nil, "long": 18.07, "location": "Entrance", "appKey": "00112233445566778899AABBCCDDEEFF"}},
		{Name: "update, bad DevEUI in the path", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/nothex", Body: `{"name":"X"}`, Status: 400,
			Fields: map[string]string{"deveui": "nodes.deveui.format"}},
		{Name: "update, unknown DevEUI", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/FFFFFFFFFFFFFFFF", Body: `{"name":"X"}`, Status: 404},
		{Name: "update another company's", As: "betaAdmin", Method: "PUT", Path: "/api/tag/" + devEUI, Body: `{"name":"X"}`, Status: 404},
		{Name: "Users may not update", As: "acmeUser", Method: "PUT", Path: "/api/tag/" + devEUI, Body: `{"name":"X"}`, Status: 403},
		{Name: "new DevEUI taken by another company", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/" + devEUI,
			Body: `{"deveui":"` + strings.ToLower(betaDevEUI) + `"}`, Status: 400, Fields: map[string]string{"Deveui": "nodes.deveui.taken"}},
		{Name: "move to another company's application", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/" + devEUI,
			Body: `{"applicationId":{betaApp},"lat":-91}`, Status: 400,
			Fields: map[string]string{"applicationId": "nodes.application.unknown", "lat": "nodes.lat.range"}},
		{Name: "rejected updates changed nothing", As: "acmeAdmin", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Want: map[string]any{"name": "Front door", "deveui": devEUI, "lat": nil},
			Then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["applicationId"] != float64(e.ID(t, "{app}")) {
					t.Errorf("application changed: %v", got)
				}
			}},
		{Name: "move to another application and change the DevEUI", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/" + devEUI,
			Body: `{"applicationId":{app2},"deveui":"70B3D57ED005A1B3"}`, Status: 200, Want: map[string]any{"deveui": "70B3D57ED005A1B3"},
			Then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["applicationId"] != float64(e.ID(t, "{app2}")) {
					t.Errorf("not moved: %v", got)
				}
			}},
		{Name: "the old DevEUI is free again", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/70B3D57ED005A1B3", Body: `{"deveui":"` + devEUI + `"}`,
			Status: 200, Want: map[string]any{"deveui": devEUI}},
		{Name: "an application with tags stays", As: "acmeAdmin", Method: "DELETE", Path: "/api/applications/{app2}", Status: 409,
			ID: "nodes.application.hasTags"},
		{Name: "Users may not delete", As: "acmeUser", Method: "DELETE", Path: "/api/tag/{tag}", Status: 403},
		{Name: "another company's admin cannot delete", As: "betaAdmin", Method: "DELETE", Path: "/api/tag/{tag}", Status: 404},
		{Name: "delete", As: "acmeAdmin", Method: "DELETE", Path: "/api/tag/{tag}", Status: 204,
			Then: func(t *testing.T, e *env, _ any) {
				want := []events.Event{
					nodes.TagCreated{TagID: e.ID(t, "{tag}"), CompanyID: e.ID(t, "{acme}"), ApplicationID: e.ID(t, "{app}"), DevEUI: devEUI},
					nodes.TagDeleted{TagID: e.ID(t, "{tag}"), CompanyID: e.ID(t, "{acme}"), ApplicationID: e.ID(t, "{app2}"), DevEUI: devEUI},
				}
				kerneltest.WaitFor(t, 10*time.Second, func() bool {
					seen := 0
					for _, ev := range e.events.Events() {
						for _, w := range want {
							if ev == w {
								seen++
							}
						}
					}
					return seen == len(want)
				}, func() string { return fmt.Sprintf("events %+v, want %+v among them", e.events.Events(), want) })
			}},
		{Name: "deleted", As: "acmeAdmin", Method: "GET", Path: "/api/tag/{tag}", Status: 404},
		{Name: "now the application may go", As: "acmeAdmin", Method: "DELETE", Path: "/api/applications/{app2}", Status: 204},
		{Name: "a deleted company's nodes go with it", As: "super", Method: "DELETE", Path: "/api/companies/{beta}", Status: 204,
			Before: func(t *testing.T, e *env) {
				e.MustDo(t, "betaAdmin", "POST", "/api/tag/key/add", `{"tagId":{betaTag},"key":"level"}`, 201, nil)
				e.MustDo(t, "betaAdmin", "POST", "/api/downlink/{betaTag}", `{"port":1,"payload":"01","payloadType":"hex"}`, 201, nil)
				e.MustDo(t, "betaAdmin", "POST", "/api/integration/tokens/{beta}", `{"label":"x","isCompany":true}`, 201, nil)
			},
			Then: func(t *testing.T, e *env, _ any) {
				// Acme keeps its first application and the tag "Sensor".
				left := map[string]string{"applications": "1", "tags": "1", "tag_keys": "0", "downlinks": "0", "integration_tokens": "0"}
				for table, want := range left {
					if n := e.value(t, "SELECT COUNT(*) FROM "+table); n != want {
						t.Errorf("%s rows in %s, want %s", n, table, want)
					}
				}
			}},
	}...)
	run(t, steps)
}

func TestTagImages(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		for _, s := range tagSteps {
			if status, raw := e.Do(t, s.As, s.Method, s.Path, s.Body, ""); status != s.Status {
				t.Fatalf("%s: %d %s", s.Name, status, raw)
			} else {
				var obj map[string]any
				_ = json.Unmarshal(raw, &obj)
				for p, k := range s.Save {
					e.IDs[p] = fmt.Sprint(int64(obj[k].(float64)))
				}
			}
		}
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 32)...)
		cases := []struct {
			name        string
			as, method  string
			body        []byte
			contentType string
			status      int
			id          string
		}{
			{"SVG is refused", "acmeAdmin", "POST", []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), "image/svg+xml", 400, "image.type"},
			{"empty", "acmeAdmin", "POST", nil, "image/png", 400, "image.missing"},
			{"too large", "acmeAdmin", "POST", append(png, make([]byte, 2<<20)...), "image/png", 413, "image.tooLarge"},
			{"Users may not upload", "acmeUser", "POST", png, "image/png", 403, "error.forbidden"},
			{"another company's admin", "betaAdmin", "POST", png, "image/png", 404, "error.notFound"},
			{"no image yet", "acmeUser", "GET", nil, "", 404, "error.notFound"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, _, raw := e.Send(t, tc.as, tc.method, "/api/tag/{tag}/image", tc.body, tc.contentType, "")
				var obj map[string]any
				_ = json.Unmarshal(raw, &obj)
				if status != tc.status || obj["id"] != tc.id {
					t.Errorf("%d %s, want %d %s", status, raw, tc.status, tc.id)
				}
			})
		}
		t.Run("upload, serve, delete", func(t *testing.T) {
			status, _, raw := e.Send(t, "acmeAdmin", "POST", "/api/tag/{tag}/image", png, "image/png", "")
			var tag map[string]any
			_ = json.Unmarshal(raw, &tag)
			url, _ := tag["image"].(string)
			if status != 200 || !strings.HasPrefix(url, e.Fill("/api/tag/{tag}/image?v=")) {
				t.Fatalf("upload: %d %s", status, raw)
			}
			status, h, body := e.Send(t, "acmeUser", "GET", url, nil, "", "")
			if status != 200 || h.Get("Content-Type") != "image/png" || !bytes.Equal(body, png) {
				t.Errorf("serve: %d %s", status, h.Get("Content-Type"))
			}
			if status, _, _ := e.Send(t, "betaAdmin", "GET", url, nil, "", ""); status != 404 {
				t.Errorf("another company's admin read the picture: %d", status)
			}
			if status, _, raw := e.Send(t, "betaAdmin", "DELETE", "/api/tag/{tag}/image", nil, "", ""); status != 404 {
				t.Errorf("another company's admin deleted: %d %s", status, raw)
			}
			if status, _, raw := e.Send(t, "acmeAdmin", "DELETE", "/api/tag/{tag}/image", nil, "", ""); status != 204 {
				t.Errorf("delete: %d %s", status, raw)
			}
			status, raw = e.Do(t, "acmeAdmin", "GET", "/api/tag/{tag}", "", "")
			if err := json.Unmarshal(raw, &tag); err != nil || status != 200 || tag["image"] != nil {
				t.Errorf("after delete: %d %s", status, raw)
			}
		})
	})
}

func TestKeys(t *testing.T) {
	t.Parallel()
	add := func(name, body string, status int, field, id string) step {
		s := step{Name: name, As: "acmeAdmin", Method: "POST", Path: "/api/tag/key/add", Body: body, Status: status}
		if field != "" {
			s.Fields = map[string]string{field: id}
		} else if id != "" {
			s.ID = id
		}
		return s
	}
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{Name: "add", As: "acmeAdmin", Method: "POST", Path: "/api/tag/key/add",
			Body: `{"tagId":{tag},"key":"temperature","label":"Temperature","unit":"°C","decimals":1,"defaultKey":true}`, Status: 201,
			Want: map[string]any{"key": "temperature", "label": "Temperature", "unit": "°C", "decimals": 1.0, "defaultKey": true,
				"tagDeveui": devEUI, "name": "Door"}},
		{Name: "add a second default", As: "acmeAdmin", Method: "POST", Path: "/api/tag/key/add",
			Body: `{"tagId":{tag},"key":"humidity","label":"Humidity","unit":"%","defaultKey":true}`, Status: 201,
			Want: map[string]any{"key": "humidity", "decimals": nil, "defaultKey": true}},
		{Name: "only one default", As: "acmeUser", Method: "GET", Path: "/api/tag/key/label/{tag}/temperature", Status: 200,
			Want: map[string]any{"label": "Temperature", "defaultKey": false}},
		add("key taken", `{"tagId":{tag},"key":"humidity"}`, 400, "key", "nodes.key.taken"),
		add("key with a space", `{"tagId":{tag},"key":"air temp"}`, 400, "key", "nodes.key.format"),
		add("key too long", `{"tagId":{tag},"key":"`+strings.Repeat("k", 65)+`"}`, 400, "key", "nodes.key.format"),
		add("decimals out of range", `{"tagId":{tag},"key":"co2","decimals":11}`, 400, "decimals", "nodes.key.decimals"),
		add("unit too long", `{"tagId":{tag},"key":"co2","unit":"`+strings.Repeat("u", 33)+`"}`, 400, "unit", "validation.tooLong"),
		add("no tag", `{"key":"co2"}`, 400, "tagId", "validation.required"),
		add("unknown tag", `{"tagId":999999,"key":"co2"}`, 404, "", "error.notFound"),
		{Name: "another company's tag", As: "betaAdmin", Method: "POST", Path: "/api/tag/key/add", Body: `{"tagId":{tag},"key":"co2"}`, Status: 404},
		{Name: "Users may not add", As: "acmeUser", Method: "POST", Path: "/api/tag/key/add", Body: `{"tagId":{tag},"key":"co2"}`, Status: 403},
		{Name: "update", As: "acmeAdmin", Method: "POST", Path: "/api/tag/key/update", Body: `{"tagId":{tag},"key":"temperature","label":"Air","decimals":null}`,
			Status: 200, Want: map[string]any{"label": "Air", "decimals": nil, "unit": "°C", "defaultKey": false}},
		{Name: "update an unknown key", As: "acmeAdmin", Method: "POST", Path: "/api/tag/key/update", Body: `{"tagId":{tag},"key":"co2","label":"CO2"}`, Status: 404},
		{Name: "update with bad decimals", As: "acmeAdmin", Method: "POST", Path: "/api/tag/key/update", Body: `{"tagId":{tag},"key":"temperature","decimals":-1}`,
			Status: 400, Fields: map[string]string{"decimals": "nodes.key.decimals"}},
		{Name: "update another company's", As: "betaAdmin", Method: "POST", Path: "/api/tag/key/update", Body: `{"tagId":{tag},"key":"temperature","label":"X"}`,
			Status: 404},
		{Name: "make temperature the default", As: "acmeAdmin", Method: "POST", Path: "/api/tag/{tag}/default/temperature", Status: 200,
			Want: map[string]any{"key": "temperature", "defaultKey": true, "label": "Air"}},
		{Name: "default of an unknown key", As: "acmeAdmin", Method: "POST", Path: "/api/tag/{tag}/default/co2", Status: 404},
		{Name: "default of another company's tag", As: "betaAdmin", Method: "POST", Path: "/api/tag/{tag}/default/humidity", Status: 404},
		{Name: "latest values", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				e.exec(t, "UPDATE tags SET latest_data = ?, latest_time = ?, battery = 3.6 WHERE id = ?",
					`{"temperature":21.5,"humidity":40}`, nowUTC(), e.ID(t, "{tag}"))
			},
			Want: map[string]any{"keys": []any{"humidity", "temperature"}, "latestValue": 21.5, "activeData": true, "battery": 3.6,
				"data": map[string]any{"temperature": 21.5, "humidity": 40.0}}},
		{Name: "the tag's keys", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}/keys", Status: 200, List: true, Items: 2},
		{Name: "the tag's keys, another company", As: "betaAdmin", Method: "GET", Path: "/api/tag/{tag}/keys", Status: 404},
		{Name: "tag data of the tag", As: "acmeUser", Method: "GET", Path: "/api/tag/meta/{tag}/tagdata", Status: 200, List: true, Items: 2,
			Then: func(t *testing.T, e *env, got any) {
				temp := entry(t, got, "key", "temperature")
				if temp["value"] != 21.5 || temp["time"] == nil || temp["tagDeveui"] != devEUI || temp["defaultKey"] != true {
					t.Errorf("temperature %v", temp)
				}
			}},
		{Name: "tag data, another company", As: "betaAdmin", Method: "GET", Path: "/api/tag/meta/{tag}/tagdata", Status: 404},
		{Name: "keys of the company", As: "acmeUser", Method: "GET", Path: "/api/tag/tagdata/keys/{acme}", Status: 200, List: true, Items: 2,
			Before: func(t *testing.T, e *env) {
				if err := e.nodes.EnsureKeys(context.Background(), e.ID(t, "{betaTag}"), []string{"pressure", "bad key", "pressure"}); err != nil {
					t.Fatal(err)
				}
			}},
		{Name: "keys of Beta, registered by the ingest", As: "betaAdmin", Method: "GET", Path: "/api/tag/tagdata/keys/{beta}", Status: 200, List: true, Items: 1,
			Then: func(t *testing.T, e *env, got any) {
				if p := entry(t, got, "key", "pressure"); p["tagDeveui"] != betaDevEUI || p["label"] != "" {
					t.Errorf("pressure %v", p)
				}
			}},
		{Name: "keys of another company", As: "betaAdmin", Method: "GET", Path: "/api/tag/tagdata/keys/{acme}", Status: 404},
		{Name: "label, bad key", As: "acmeUser", Method: "GET", Path: "/api/tag/key/label/{tag}/a%20b", Status: 400,
			Fields: map[string]string{"key": "nodes.key.format"}},
		{Name: "label, another company", As: "betaAdmin", Method: "GET", Path: "/api/tag/key/label/{tag}/humidity", Status: 404},
		{Name: "Users may not delete", As: "acmeUser", Method: "DELETE", Path: "/api/tag/key/delete/{tag}/humidity", Status: 403},
		{Name: "another company's admin cannot delete", As: "betaAdmin", Method: "DELETE", Path: "/api/tag/key/delete/{tag}/humidity", Status: 404},
		{Name: "delete", As: "acmeAdmin", Method: "DELETE", Path: "/api/tag/key/delete/{tag}/humidity", Status: 204},
		{Name: "deleted", As: "acmeAdmin", Method: "GET", Path: "/api/tag/key/label/{tag}/humidity", Status: 404},
		{Name: "delete again", As: "acmeAdmin", Method: "DELETE", Path: "/api/tag/key/delete/{tag}/humidity", Status: 404},
	}...)
	run(t, steps)
}

func TestPool(t *testing.T) {
	t.Parallel()
	pooled := "AABBCCDDEEFF0011"
	ctx := context.Background()
	steps := append(appSteps[:len(appSteps):len(appSteps)], []step{
		{Name: "the ingest adds unknown DevEUIs", As: "super", Method: "GET", Path: "/api/tag/pool", Status: 200, List: true, Items: 2,
			Before: func(t *testing.T, e *env) {
				for _, add := range []struct{ deveui, source string }{{"aa-bb-cc-dd-ee-ff-00-11", "chirpstack"}, {"0102030405060708", "tts"}, {pooled, "tts"}} {
					if err := e.nodes.AddToPool(ctx, add.deveui, add.source); err != nil {
						t.Fatal(err)
					}
				}
				if err := e.nodes.AddToPool(ctx, "12345", "tts"); errs.KindOf(err) != errs.Invalid {
					t.Errorf("a bad DevEUI: %v", err)
				}
			},
			Then: func(t *testing.T, e *env, got any) {
				p := entry(t, got, "deveui", pooled)
				if p["status"] != "shown" || p["source"] != "tts" {
					t.Errorf("entry %v", p)
				}
				e.IDs["{pooled}"] = fmt.Sprint(int64(p["id"].(float64)))
				e.IDs["{other}"] = fmt.Sprint(int64(entry(t, got, "deveui", "0102030405060708")["id"].(float64)))
			}},
		{Name: "only for the SuperAdmin", As: "acmeAdmin", Method: "GET", Path: "/api/tag/pool", Status: 403},
		{Name: "hide", As: "super", Method: "PUT", Path: "/api/tag/pool/{other}", Body: `{"status":"hidden"}`, Status: 200,
			Want: map[string]any{"status": "hidden", "deveui": "0102030405060708"}},
		{Name: "hidden ones leave the default list", As: "super", Method: "GET", Path: "/api/tag/pool", Status: 200, List: true, Items: 1},
		{Name: "the hidden list", As: "super", Method: "GET", Path: "/api/tag/pool?status=hidden", Status: 200, List: true, Items: 1},
		{Name: "all", As: "super", Method: "GET", Path: "/api/tag/pool?status=all", Status: 200, List: true, Items: 2},
		{Name: "bad filter", As: "super", Method: "GET", Path: "/api/tag/pool?status=gone", Status: 400, Fields: map[string]string{"status": "nodes.pool.status"}},
		{Name: "bad status", As: "super", Method: "PUT", Path: "/api/tag/pool/{other}", Body: `{"status":"deleted"}`, Status: 400,
			Fields: map[string]string{"status": "nodes.pool.status"}, Texts: map[string]string{"status": "The status must be hidden, shown or taken"}},
		{Name: "no status", As: "super", Method: "PUT", Path: "/api/tag/pool/{other}", Body: `{}`, Status: 400, Fields: map[string]string{"status": "nodes.pool.status"}},
		{Name: "unknown entry", As: "super", Method: "PUT", Path: "/api/tag/pool/999999", Body: `{"status":"shown"}`, Status: 404},
		{Name: "others may not change", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/pool/{other}", Body: `{"status":"shown"}`, Status: 403},
		{Name: "show again", As: "super", Method: "PUT", Path: "/api/tag/pool/{other}", Body: `{"status":"shown"}`, Status: 200,
			Want: map[string]any{"status": "shown"}},
		{Name: "a tag takes its DevEUI from the pool", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{app}/tag",
			Body: `{"name":"From the pool","deveui":"` + pooled + `"}`, Status: 201, Save: map[string]string{"{tag}": "id"}},
		{Name: "taken", As: "super", Method: "GET", Path: "/api/tag/pool?status=taken", Status: 200, List: true, Items: 1,
			Then: func(t *testing.T, e *env, got any) {
				entry(t, got, "deveui", pooled)
				if err := e.nodes.AddToPool(ctx, pooled, "chirpstack"); err != nil {
					t.Fatal(err)
				}
				if s := e.value(t, "SELECT status FROM node_pool WHERE deveui = ?", pooled); s != "taken" {
					t.Errorf("a DevEUI with a tag went back to %q", s)
				}
				if err := e.nodes.AddToPool(ctx, devEUI, "chirpstack"); err != nil {
					t.Fatal(err)
				}
			}},
		{Name: "a heard DevEUI whose tag is gone is shown again", As: "super", Method: "GET", Path: "/api/tag/pool", Status: 200, List: true, Items: 3,
			Before: func(t *testing.T, e *env) {
				e.MustDo(t, "acmeAdmin", "DELETE", "/api/tag/{tag}", "", 204, nil)
				if err := e.nodes.AddToPool(ctx, pooled, "chirpstack"); err != nil {
					t.Fatal(err)
				}
			},
			Then: func(t *testing.T, e *env, got any) {
				if p := entry(t, got, "deveui", pooled); p["source"] != "chirpstack" {
					t.Errorf("entry %v", p)
				}
			}},
	}...)
	run(t, steps)
}

func TestIntegrationTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var secret string
	run(t, []step{
		{Name: "create", As: "acmeAdmin", Method: "POST", Path: "/api/integration/tokens/{acme}", Body: `{"label":"ChirpStack","isCompany":true}`, Status: 201,
			Want: map[string]any{"label": "ChirpStack", "isCompany": true, "userId": nil}, Save: map[string]string{"{token}": "id"},
			Then: func(t *testing.T, e *env, got any) {
				obj := got.(map[string]any)
				secret, _ = obj["token"].(string)
				if !strings.HasPrefix(secret, "fh_") || len(secret) < 40 || obj["hint"] != secret[:7] {
					t.Fatalf("token %q, hint %v", secret, obj["hint"])
				}
				sum := sha256.Sum256([]byte(secret))
				if h := e.value(t, "SELECT token_hash FROM integration_tokens WHERE id = ?", e.ID(t, "{token}")); h != hex.EncodeToString(sum[:]) {
					t.Errorf("stored hash %q", h)
				}
				if n := e.value(t, "SELECT COUNT(*) FROM integration_tokens WHERE token_hash = ? OR label = ? OR hint = ?", secret, secret, secret); n != "0" {
					t.Errorf("the token is stored in clear")
				}
				company, err := e.nodes.TokenCompany(ctx, secret)
				if err != nil || company != e.ID(t, "{acme}") {
					t.Errorf("TokenCompany = %d, %v", company, err)
				}
				for _, bad := range []string{"fh_wrong", secret[3:], secret + "x", ""} {
					var de *errs.Error
					if _, err := e.nodes.TokenCompany(ctx, bad); !errors.As(err, &de) || de.Kind != errs.Unauthorized || de.ID != "nodes.token.invalid" {
						t.Errorf("TokenCompany(%q): %v", bad, err)
					}
				}
				if e.value(t, "SELECT last_used_at FROM integration_tokens WHERE id = ?", e.ID(t, "{token}")) == "" {
					t.Errorf("use not noted")
				}
			}},
		{Name: "personal token", As: "acmeAdmin", Method: "POST", Path: "/api/integration/tokens/{acme}", Body: `{"label":"Mine"}`, Status: 201,
			Want: map[string]any{"isCompany": false},
			Then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["userId"] == nil {
					t.Errorf("personal token without its user: %v", got)
				}
			}},
		{Name: "label required", As: "acmeAdmin", Method: "POST", Path: "/api/integration/tokens/{acme}", Body: `{"isCompany":true}`, Status: 400,
			Fields: map[string]string{"label": "validation.required"}},
		{Name: "label too long", As: "acmeAdmin", Method: "POST", Path: "/api/integration/tokens/{acme}", Body: `{"label":"` + strings.Repeat("l", 256) + `"}`,
			Status: 400, Fields: map[string]string{"label": "validation.max255"}},
		{Name: "isCompany must be a boolean", As: "acmeAdmin", Method: "POST", Path: "/api/integration/tokens/{acme}", Body: `{"label":"x","isCompany":"yes"}`,
			Status: 400, Fields: map[string]string{"isCompany": "error.badJsonType"}},
		{Name: "shown once: the list has hints only", As: "acmeAdmin", Method: "GET", Path: "/api/integration/tokens/{acme}", Status: 200, List: true, Items: 2,
			Then: func(t *testing.T, e *env, got any) {
				for _, item := range got.([]any) {
					tok := item.(map[string]any)
					if _, ok := tok["token"]; ok || !strings.HasPrefix(tok["hint"].(string), "fh_") {
						t.Errorf("listed %v", tok)
					}
				}
			}},
		{Name: "Users may not list", As: "acmeUser", Method: "GET", Path: "/api/integration/tokens/{acme}", Status: 403},
		{Name: "another company's admin may not list", As: "betaAdmin", Method: "GET", Path: "/api/integration/tokens/{acme}", Status: 404},
		{Name: "another company's admin may not create", As: "betaAdmin", Method: "POST", Path: "/api/integration/tokens/{acme}", Body: `{"label":"x"}`, Status: 404},
		{Name: "another company's admin may not delete", As: "betaAdmin", Method: "DELETE", Path: "/api/integration/tokens/{token}", Status: 404},
		{Name: "SuperAdmin, no such company", As: "super", Method: "POST", Path: "/api/integration/tokens/999999", Body: `{"label":"x"}`, Status: 404},
		{Name: "delete", As: "acmeAdmin", Method: "DELETE", Path: "/api/integration/tokens/{token}", Status: 204,
			Then: func(t *testing.T, e *env, _ any) {
				if _, err := e.nodes.TokenCompany(ctx, secret); errs.KindOf(err) != errs.Unauthorized {
					t.Errorf("a deleted token still works: %v", err)
				}
			}},
		{Name: "delete again", As: "acmeAdmin", Method: "DELETE", Path: "/api/integration/tokens/{token}", Status: 404},
		{Name: "one left", As: "acmeAdmin", Method: "GET", Path: "/api/integration/tokens/{acme}", Status: 200, List: true, Items: 1},
	})
}

func TestState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := func(v float64) *float64 { return &v }
	at := time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC)
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{Name: "an uplink's state", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				if err := e.nodes.EnsureKeys(ctx, e.ID(t, "{tag}"), []string{"temperature", "rssi"}); err != nil {
					t.Fatal(err)
				}
				e.MustDo(t, "acmeAdmin", "POST", "/api/tag/{tag}/default/temperature", "", 200, nil)
				err := e.nodes.UpdateState(ctx, e.ID(t, "{tag}"), nodes.State{Time: &at,
					Data: map[string]any{"temperature": 21.5, "rssi": -80.0, "state": "ok"}, Battery: f(87), RSSI: f(-80), BatteryVoltage: f(3.3)})
				if err != nil {
					t.Fatal(err)
				}
			},
			Want: map[string]any{"battery": 87.0, "batteryVoltage": 3.3, "rssi": -80.0, "vdd": 3.3, "latestTime": "2024-05-01T12:00:00.123456Z",
				"latestValue": 21.5, "activeData": false}},
		{Name: "an older uplink leaves it", As: "acmeUser", Method: "GET", Path: "/api/tag/meta/{tag}/tagdata", Status: 200, List: true, Items: 2,
			Before: func(t *testing.T, e *env) {
				old := at.Add(-time.Minute)
				if err := e.nodes.UpdateState(ctx, e.ID(t, "{tag}"), nodes.State{Time: &old, Data: map[string]any{"temperature": 1.0}}); err != nil {
					t.Fatal(err)
				}
			},
			Then: func(t *testing.T, e *env, got any) {
				if k := entry(t, got, "key", "temperature"); k["value"] != 21.5 || k["time"] != "2024-05-01T12:00:00.123456Z" {
					t.Errorf("temperature %v", k)
				}
			}},
		{Name: "a battery alone, and a newer uplink", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				if err := e.nodes.UpdateState(ctx, e.ID(t, "{tag}"), nodes.State{Battery: f(88)}); err != nil {
					t.Fatal(err)
				}
				now := time.Now().UTC()
				if err := e.nodes.UpdateState(ctx, e.ID(t, "{tag}"), nodes.State{Time: &now, Data: map[string]any{"temperature": 22.0}}); err != nil {
					t.Fatal(err)
				}
				if err := e.nodes.UpdateState(ctx, 999999, nodes.State{Battery: f(1)}); err != nil {
					t.Errorf("an unknown tag: %v", err)
				}
			},
			Want: map[string]any{"battery": 88.0, "rssi": -80.0, "latestValue": 22.0, "activeData": true}},
		{Name: "downlink outcomes", As: "acmeAdmin", Method: "POST", Path: "/api/downlink/{tag}", Body: `{"port":1,"payload":"01","payloadType":"hex","confirmed":true}`,
			Status: 201, Save: map[string]string{"{dl}": "id"},
			Then: func(t *testing.T, e *env, _ any) {
				id := e.ID(t, "{dl}")
				d, err := e.queue.Downlink(ctx, id)
				if err != nil || d.TagID != e.ID(t, "{tag}") || d.CompanyID != e.ID(t, "{acme}") || d.DevEUI != devEUI || d.Status != netservers.DownlinkQueued {
					t.Fatalf("Downlink = %+v, %v", d, err)
				}
				if err := e.queue.SetDownlinkStatus(ctx, id, netservers.DownlinkAcknowledged, ""); err != nil {
					t.Fatal(err)
				}
				if d, _ := e.queue.Downlink(ctx, id); d.Status != "acknowledged" {
					t.Errorf("status %q", d.Status)
				}
				if _, err := e.queue.Downlink(ctx, 999999); errs.KindOf(err) != errs.NotFound {
					t.Errorf("an unknown downlink: %v", err)
				}
			}},
	}...)
	run(t, steps)
}

// TestBatchForms: the batch forms the ingest uses for a whole group commit
// answer as the single forms do, tag by tag.
func TestBatchForms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := func(v float64) *float64 { return &v }
	at := time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC)
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{Name: "keys of many tags", As: "acmeAdmin", Method: "POST", Path: "/api/tag/{tag}/default/temperature", Status: 200,
			Before: func(t *testing.T, e *env) {
				err := e.nodes.EnsureKeysOfTags(ctx, map[int64][]string{
					e.ID(t, "{tag}"):     {"temperature", "rssi", "not a key!", "temperature"},
					e.ID(t, "{betaTag}"): {"level"},
					999999:               {"gone"}, // a tag deleted meanwhile
				})
				if err != nil {
					t.Fatal(err)
				}
				// Again: known keys are left alone.
				if err := e.nodes.EnsureKeysOfTags(ctx, map[int64][]string{e.ID(t, "{tag}"): {"rssi", "snr"}}); err != nil {
					t.Fatal(err)
				}
			},
			Then: func(t *testing.T, e *env, _ any) {
				for tag, want := range map[string][]string{"{tag}": {"rssi", "snr", "temperature"}, "{betaTag}": {"level"}} {
					got, err := e.nodes.Tag(ctx, e.ID(t, tag))
					if err != nil || !reflect.DeepEqual(got.Keys, want) {
						t.Errorf("keys of %s: %v, %v; want %v", tag, got.Keys, err, want)
					}
				}
				if n := e.value(t, "SELECT COUNT(*) FROM tag_keys WHERE tag_id = 999999"); n != "0" {
					t.Errorf("%s keys of a missing tag", n)
				}
			}},
		{Name: "states of many tags", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				tag, beta := e.ID(t, "{tag}"), e.ID(t, "{betaTag}")
				older, newer := at.Add(-time.Minute), at.Add(time.Minute)
				err := e.nodes.UpdateStates(ctx, []nodes.TagState{
					{TagID: tag, State: nodes.State{Time: &at, Data: map[string]any{"temperature": 21.5, "state": "ok"}, Battery: f(87), RSSI: f(-80), BatteryVoltage: f(3.3)}},
					{TagID: beta, State: nodes.State{Battery: f(88)}},
					// The same tag again: an older uplink changes nothing, its
					// battery included; a newer one wins.
					{TagID: tag, State: nodes.State{Time: &older, Data: map[string]any{"temperature": 1.0}, Battery: f(1)}},
					{TagID: beta, State: nodes.State{Time: &newer, Data: map[string]any{"level": 7.0}, RSSI: f(-100)}},
					{TagID: 999999, State: nodes.State{Battery: f(1)}}, // an unknown tag is not an error
					{TagID: beta, State: nodes.State{RSSI: f(math.NaN())}},
					{TagID: tag, State: nodes.State{}}, // nothing to set
				})
				if err != nil {
					t.Fatal(err)
				}
			},
			Want: map[string]any{"battery": 87.0, "batteryVoltage": 3.3, "rssi": -80.0, "vdd": 3.3, "latestTime": "2024-05-01T12:00:00.123456Z",
				"latestValue": 21.5, "data": map[string]any{"temperature": 21.5, "state": "ok"}},
			Then: func(t *testing.T, e *env, _ any) {
				beta, err := e.nodes.Tag(ctx, e.ID(t, "{betaTag}"))
				if err != nil || *beta.Battery != 88 || *beta.RSSI != -100 || !beta.LatestTime.Equal(at.Add(time.Minute).Truncate(time.Microsecond)) || beta.Data["level"] != 7.0 {
					t.Errorf("Beta's tag %+v, %v", beta, err)
				}
				// As the single form leaves it: an older state changes nothing.
				old := at.Add(-time.Hour)
				if err := e.nodes.UpdateStates(ctx, []nodes.TagState{{TagID: e.ID(t, "{tag}"), State: nodes.State{Time: &old, Battery: f(2)}}}); err != nil {
					t.Fatal(err)
				}
				if tag, _ := e.nodes.Tag(ctx, e.ID(t, "{tag}")); *tag.Battery != 87 {
					t.Errorf("an older state set the battery to %v", *tag.Battery)
				}
			}},
		{Name: "values written merge into the latest data", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				tag := e.ID(t, "{tag}")
				failed := &nodes.DecodeError{Time: at, Payload: "ff", Errors: []string{"unreadable"}}
				err := e.nodes.UpdateStates(ctx, []nodes.TagState{{TagID: tag, State: nodes.State{Time: &at,
					Data: map[string]any{"temperature": 21.5, "state": "ok"}, DecodeError: failed}}})
				if err != nil {
					t.Fatal(err)
				}
				older := at.Add(-time.Second)
				err = e.nodes.UpdateStates(ctx, []nodes.TagState{
					// At the uplink's time, as a triggered script writes:
					// merged, the time and the decode error kept.
					{TagID: tag, State: nodes.State{Time: &at, Data: map[string]any{"dew_point": 10.5, "state": "wet"}, Written: true}},
					// Older than the latest uplink: the series alone keep it.
					{TagID: tag, State: nodes.State{Time: &older, Data: map[string]any{"old": 1.0}, Written: true}},
				})
				if err != nil {
					t.Fatal(err)
				}
			},
			Want: map[string]any{"latestTime": "2024-05-01T12:00:00.123456Z", "battery": 87.0,
				"data": map[string]any{"temperature": 21.5, "state": "wet", "dew_point": 10.5}},
			Then: func(t *testing.T, e *env, _ any) {
				if tag, err := e.nodes.Tag(ctx, e.ID(t, "{tag}")); err != nil || tag.DecodeError == nil || tag.DecodeError.Payload != "ff" {
					t.Errorf("the decode error of the uplink at the values' time: %+v, %v", tag.DecodeError, err)
				}
			}},
		{Name: "a node without uplinks", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{app}/tag",
			Body: `{"name":"Quiet","deveui":"0011223344556677","decoder":"raw"}`, Status: 201, Save: map[string]string{"{quiet}": "id"}},
		{Name: "takes the time of values written to it", As: "acmeUser", Method: "GET", Path: "/api/tag/{quiet}", Status: 200,
			Before: func(t *testing.T, e *env) {
				err := e.nodes.UpdateStates(ctx, []nodes.TagState{{TagID: e.ID(t, "{quiet}"),
					State: nodes.State{Time: &at, Data: map[string]any{"setpoint": 5.0}, Written: true}}})
				if err != nil {
					t.Fatal(err)
				}
			},
			Want: map[string]any{"latestTime": "2024-05-01T12:00:00.123456Z", "data": map[string]any{"setpoint": 5.0}}},
		{Name: "tags of many DevEUIs", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Then: func(t *testing.T, e *env, _ any) {
				got, err := e.nodes.TagsByDevEUI(ctx, []string{strings.ToLower(devEUI), "00-04-A3-0B-00-1C-05-30", devEUI,
					"FFFFFFFFFFFFFFFF", "not a DevEUI", ""})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 2 {
					t.Fatalf("got %d tags: %v", len(got), got)
				}
				for _, eui := range []string{devEUI, betaDevEUI} {
					one, err := e.nodes.TagByDevEUI(ctx, eui)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got[eui], one) {
						t.Errorf("%s in a batch:\n%+v\nalone:\n%+v", eui, got[eui], one)
					}
				}
				if got[devEUI].LatestValue != 21.5 || len(got[devEUI].Keys) != 3 {
					t.Errorf("derived fields %+v", got[devEUI])
				}
				if none, err := e.nodes.TagsByDevEUI(ctx, nil); err != nil || len(none) != 0 {
					t.Errorf("no DevEUIs: %v, %v", none, err)
				}
			}},
	}...)
	run(t, steps)
}

// TestTokenUseNotedOnce: a token's use is written when it is first
// presented, not again on every request.
func TestTokenUseNotedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var secret string
	run(t, []step{
		{Name: "create", As: "acmeAdmin", Method: "POST", Path: "/api/integration/tokens/{acme}", Body: `{"label":"ChirpStack","isCompany":true}`, Status: 201,
			Save: map[string]string{"{token}": "id"},
			Then: func(t *testing.T, e *env, got any) {
				secret = got.(map[string]any)["token"].(string)
				var noted string
				for i := range 5 {
					if company, err := e.nodes.TokenCompany(ctx, secret); err != nil || company != e.ID(t, "{acme}") {
						t.Fatalf("TokenCompany = %d, %v", company, err)
					}
					at := e.value(t, "SELECT last_used_at FROM integration_tokens WHERE id = ?", e.ID(t, "{token}"))
					if i == 0 {
						noted = at
					}
					if at == "" || at != noted {
						t.Errorf("use %d: last use %q, first noted %q", i, at, noted)
					}
				}
			}},
		{Name: "delete", As: "acmeAdmin", Method: "DELETE", Path: "/api/integration/tokens/{token}", Status: 204,
			Then: func(t *testing.T, e *env, _ any) {
				// Deleted on this instance: refused at once, cached or not.
				if _, err := e.nodes.TokenCompany(ctx, secret); errs.KindOf(err) != errs.Unauthorized {
					t.Errorf("a deleted token still works: %v", err)
				}
			}},
	})
}
