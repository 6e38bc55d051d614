package dashboards_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestFunctionButtons covers the function button module (type 12): what
// each kind needs, the press of a SCRIPT button through the script engine
// (roles, company, a result, a failure) and that a public link shows and
// runs none.
func TestFunctionButtons(t *testing.T) {
	t.Parallel()
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	mk := func(t *testing.T, e *env) {
		var d struct {
			ID float64 `json:"dashboardId"`
		}
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Controls"}`, http.StatusCreated, &d)
		e.IDs["{board}"] = itoa(d.ID)
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Cellar"}`, http.StatusCreated, &d)
		e.IDs["{cellar}"] = itoa(d.ID)
		e.MustDo(t, "betaAdmin", "POST", "/api/dashboards", `{"name":"Beta board"}`, http.StatusCreated, &d)
		e.IDs["{betaBoard}"] = itoa(d.ID)
		// The scripts a SCRIPT button may run: Acme's invoked ones only.
		for _, s := range []struct{ key, who, company, body string }{
			{"{answer}", "acmeAdmin", "{acme}", `{"name":"Answer","type":1,"interval":0,"content":"return {valve: 'open', level: 41 + 1};"}`},
			{"{broken}", "acmeAdmin", "{acme}", `{"name":"Broken","type":1,"interval":0,"content":"throw new Error('valve stuck');"}`},
			{"{looping}", "acmeAdmin", "{acme}", `{"name":"Looping","type":0,"interval":3600,"enabled":false,"content":"return 1;"}`},
			{"{betaScript}", "betaAdmin", "{beta}", `{"name":"Beta secret","type":1,"interval":0,"content":"return 1;"}`},
		} {
			var sc struct {
				ID float64 `json:"id"`
			}
			e.MustDo(t, s.who, "POST", "/api/script/"+s.company, s.body, http.StatusCreated, &sc)
			e.IDs[s.key] = itoa(sc.ID)
		}
	}
	add := "/api/dashboards/{board}/modules"
	run(t, nil, []step{
		{Name: "SCRIPT needs its script", As: "acmeAdmin", Method: "POST", Path: add, Status: 400, Before: mk,
			Body:   `{"type":12,"title":"Flush","attributes":{"function_type":"0"}}`,
			Fields: map[string]string{"attributes.scriptid": "dashboards.function.script"},
			Texts:  map[string]string{"attributes.scriptid": "Choose the script the button runs"}},
		{Name: "an unknown kind", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"attributes":{"function_type":"4"}}`,
			Fields: map[string]string{"attributes.function_type": "dashboards.function.kind"}},
		{Name: "VALUEINPUT needs a node, one key and a value type", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body: `{"type":12,"attributes":{"function_type":1,"tagkey":"setpoint,limit","input_type":"date"}}`,
			Fields: map[string]string{"tag": "dashboards.function.node", "attributes.tagkey": "dashboards.function.key",
				"attributes.input_type": "dashboards.module.attribute.invalid"}},
		{Name: "VALUEINPUT may not write a $ key", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"tag":"70B3D57ED005A1B2","attributes":{"function_type":1,"tagkey":"$battery"}}`,
			Fields: map[string]string{"attributes.tagkey": "dashboards.function.key", "attributes.input_type": "dashboards.function.inputType"}},
		{Name: "VALUEINPUT on another company's node", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"tag":"0004A30B001C0530","attributes":{"function_type":1,"tagkey":"setpoint","input_type":"number"}}`,
			Fields: map[string]string{"tag": "dashboards.module.tag"}},
		{Name: "DASHBOARD needs its dashboard", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"attributes":{"function_type":2}}`,
			Fields: map[string]string{"attributes.dashboard_id": "dashboards.function.dashboard"}},
		{Name: "DASHBOARD of another company", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"attributes":{"function_type":2,"dashboard_id":"{betaBoard}"}}`,
			Fields: map[string]string{"attributes.dashboard_id": "dashboards.module.attribute.invalid"}},
		{Name: "DOWNLINK needs a node, a port, a payload type", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body: `{"type":12,"attributes":{"function_type":3,"downlink_payload":"01"}}`,
			Fields: map[string]string{"tag": "dashboards.function.node", "attributes.downlink_port": "nodes.downlink.port.min",
				"attributes.downlink_payload_type": "dashboards.function.payloadType"},
			Texts: map[string]string{"attributes.downlink_port": "Port must be greater than 0"}},
		{Name: "DOWNLINK's port and hex payload as the queue takes them", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"tag":"70B3D57ED005A1B2","attributes":{"function_type":3,"downlink_port":300,"downlink_payload_type":"hex","downlink_payload":"0G"}}`,
			Fields: map[string]string{"attributes.downlink_port": "nodes.downlink.port.max", "attributes.downlink_payload": "nodes.downlink.payload.hex"}},
		{Name: "DOWNLINK's JSON payload is an object", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"tag":"70B3D57ED005A1B2","attributes":{"function_type":3,"downlink_port":2,"downlink_payload_type":"json","downlink_payload":"[1]"}}`,
			Fields: map[string]string{"attributes.downlink_payload": "nodes.downlink.payload.json"}},
		{Name: "DOWNLINK needs a payload", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"tag":"70B3D57ED005A1B2","attributes":{"function_type":3,"downlink_port":2,"downlink_payload_type":"json"}}`,
			Fields: map[string]string{"attributes.downlink_payload": "dashboards.function.payload"}},
		{Name: "SCRIPT runs an invoked script of the company", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"attributes":{"function_type":"0","scriptid":"{betaScript}"}}`,
			Fields: map[string]string{"attributes.scriptid": "dashboards.function.scriptUnknown"}},
		{Name: "not a looping one", As: "acmeAdmin", Method: "POST", Path: add, Status: 400,
			Body:   `{"type":12,"attributes":{"function_type":"0","scriptid":"{looping}"}}`,
			Fields: map[string]string{"attributes.scriptid": "dashboards.function.scriptUnknown"}},
		{Name: "a SCRIPT button", As: "acmeAdmin", Method: "POST", Path: add, Status: 201,
			Body: `{"type":12,"title":"Flush","cardColor":"#1565c0","attributes":{"function_type":"0","scriptid":"{answer}","icon":"mdi-play"}}`,
			Want: map[string]any{"type": float64(12), "attributes.function_type": "0", "attributes.icon": "mdi-play"},
			Save: map[string]string{"{script}": "dashboardModuleId"}},
		{Name: "a SCRIPT button whose script fails", As: "acmeAdmin", Method: "POST", Path: add, Status: 201,
			Body: `{"type":12,"title":"Jam","attributes":{"function_type":"0","scriptid":"{broken}"}}`,
			Save: map[string]string{"{jam}": "dashboardModuleId"}},
		{Name: "a VALUEINPUT button", As: "acmeAdmin", Method: "POST", Path: add, Status: 201,
			Body: `{"type":12,"title":"Setpoint","tag":"70b3d57ed005a1b2","attributes":{"function_type":1,"tagkey":"setpoint","input_type":"number","min_value":"5","max_value":"30"}}`,
			Want: map[string]any{"tag": "70B3D57ED005A1B2", "attributes.tagkey": "setpoint", "attributes.input_type": "number"},
			Save: map[string]string{"{value}": "dashboardModuleId"}},
		{Name: "a DASHBOARD button", As: "acmeAdmin", Method: "POST", Path: add, Status: 201,
			Body: `{"type":12,"title":"To the cellar","attributes":{"function_type":2,"dashboard_id":"{cellar}"}}`,
			Save: map[string]string{"{goto}": "dashboardModuleId"},
			Then: func(t *testing.T, e *env, got any) {
				if kerneltest.At(got, "attributes.dashboard_id") != e.IDs["{cellar}"] {
					t.Errorf("dashboard_id %v", kerneltest.At(got, "attributes.dashboard_id"))
				}
			}},
		{Name: "a DOWNLINK button, its payload normalised", As: "acmeAdmin", Method: "POST", Path: add, Status: 201,
			Body: `{"type":12,"title":"Open valve","tag":"70B3D57ED005A1B2","attributes":{"function_type":3,"downlink_port":10,"downlink_payload_type":"hex","downlink_payload":"01 0a ff","downlink_confirmed":true}}`,
			Want: map[string]any{"attributes": map[string]any{"function_type": "3", "downlink_port": "10", "downlink_payload_type": "hex",
				"downlink_payload": "010AFF", "downlink_confirmed": "true"}},
			Save: map[string]string{"{downlink}": "dashboardModuleId"}},
		{Name: "a DOWNLINK button with a JSON payload", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/{downlink}", Status: 200,
			Body: `{"type":12,"title":"Open valve","tag":"70B3D57ED005A1B2","attributes":{"function_type":3,"downlink_port":10,"downlink_payload_type":"json","downlink_payload":"{ \"valve\": \"open\" }"}}`,
			Want: map[string]any{"attributes.downlink_payload": `{"valve":"open"}`}},
		{Name: "a User sees the buttons", As: "acmeUser", Method: "GET", Path: "/api/dashboards/{board}/modules", Status: 200, List: true, Items: 5},

		{Name: "a User may not press", As: "acmeUser", Method: "POST", Path: "/api/dashboards/modules/{script}/press", Status: 403},
		{Name: "another company may not press", As: "betaAdmin", Method: "POST", Path: "/api/dashboards/modules/{script}/press", Status: 404},
		{Name: "a visitor may not press", As: "", Method: "POST", Path: "/api/dashboards/modules/{script}/press", Status: 401},
		{Name: "press: the script runs and answers what it returned", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/modules/{script}/press", Status: 200,
			Want: map[string]any{"result": `{"level":42,"valve":"open"}`}, Absent: []string{"error"}},
		{Name: "a script that fails answers its error", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/modules/{jam}/press", Status: 200,
			Then: func(t *testing.T, e *env, got any) {
				if msg, _ := kerneltest.At(got, "error").(string); !strings.Contains(msg, "valve stuck") {
					t.Errorf("error %q", msg)
				}
			}},
		{Name: "a SuperAdmin presses for the company", As: "super", Method: "POST", Path: "/api/dashboards/modules/{script}/press", Status: 200},
		{Name: "only a SCRIPT button is pressed on the server", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/modules/{downlink}/press", Status: 400,
			ID: "dashboards.press.notScript"},
		{Name: "nor another module", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/modules/{goto}/press", Status: 400, ID: "dashboards.press.notScript"},
		{Name: "the editor's scripts: the company's invoked ones", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/scripts/{acme}", Status: 200,
			List: true, Items: 2, Then: func(t *testing.T, e *env, got any) {
				if names := fmt.Sprint(kerneltest.At(got, "0.name"), kerneltest.At(got, "1.name")); !strings.Contains(names, "Answer") || !strings.Contains(names, "Broken") {
					t.Errorf("scripts %v", got)
				}
			}},
		{Name: "a User does not list scripts", As: "acmeUser", Method: "GET", Path: "/api/dashboards/scripts/{acme}", Status: 403},
		{Name: "nor another company", As: "betaAdmin", Method: "GET", Path: "/api/dashboards/scripts/{acme}", Status: 404},

		{Name: "a button whose script was removed still saves with its dashboard", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/{jam}", Status: 200,
			Before: func(t *testing.T, e *env) {
				e.MustDo(t, "acmeAdmin", "DELETE", "/api/script/{broken}", "", http.StatusNoContent, nil)
			},
			Body: `{"type":12,"title":"Jam","attributes":{"function_type":"0","scriptid":"{broken}"}}`},
		{Name: "but its press finds no script", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/modules/{jam}/press", Status: 404},
		{Name: "share the dashboard", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/public/{acme}/{board}/" + future, Status: 201,
			Before: func(t *testing.T, e *env) {
				e.MustDo(t, "acmeAdmin", "POST", add, `{"type":2,"content":"Read me"}`, http.StatusCreated, nil)
			},
			Save: map[string]string{"{token}": "token"}},
		{Name: "a public link shows no button", As: "", Method: "GET", Path: "/api/dashboards/public/{token}", Status: 200,
			Want: map[string]any{"modules.0.type": float64(2)},
			Then: func(t *testing.T, e *env, got any) {
				if mods, _ := kerneltest.At(got, "modules").([]any); len(mods) != 1 {
					t.Errorf("public modules: %v", mods)
				}
			}},
		{Name: "nor reads one", As: "", Method: "GET", Path: "/api/dashboards/public/{token}/modules/{value}/tagdata/latest", Status: 404},
		{Name: "and has no press route", As: "", Method: "POST", Path: "/api/dashboards/public/{token}/modules/{script}/press", Status: 404},
		{Name: "the token does not press", As: "", Method: "GET", Path: "/api/dashboards/public/{token}", Status: 200,
			Then: func(t *testing.T, e *env, got any) {
				e.Tokens["public"] = e.IDs["{token}"]
				if status, _ := e.Do(t, "public", "POST", "/api/dashboards/modules/{script}/press", "", ""); status != 401 {
					t.Errorf("press with the public token: %d", status)
				}
			}},
	})
}
