package dashboards_test

import (
	"net/http"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

func TestModules(t *testing.T) {
	t.Parallel()
	png := pngBytes()
	mk := func(t *testing.T, e *env) {
		var d struct {
			ID float64 `json:"dashboardId"`
		}
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Board"}`, http.StatusCreated, &d)
		e.IDs["{board}"] = itoa(d.ID)
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Other board"}`, http.StatusCreated, &d)
		e.IDs["{other}"] = itoa(d.ID)
		e.MustDo(t, "betaAdmin", "POST", "/api/dashboards", `{"name":"Beta board"}`, http.StatusCreated, &d)
		e.IDs["{betaBoard}"] = itoa(d.ID)
	}
	full := `{"title":"Temperature","type":0,"tag":"70B3D57ED005A1B2","sizeSmall":"sm","sizeMid":"lg","content":"","url":"",
		"min":-10,"max":40,"sync_chart":true,"cardColor":"#fff","titleColor":"#112233","valueColor":"#11223344",
		"attributes":{"tagkey":"temperature,humidity","so_chart_type":"area","decimal_rounding":1,"sync_y":true,"zoom_slider":"false",
			"font_style_large":"{\"type\":\"serif\",\"size\":24,\"weight\":\"bold\"}","value_match":"0:#4caf50;1:#f44336","icon":null,"prefix":""},
		"settings":{"timeOffset":604800,"mapZoom":12,"mapCenter":{"lat":59.3,"lng":18.1},"mapType":"satellite","imageMapZoom":2}}`
	run(t, nil, []step{
		{Name: "type is required", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: `{}`, Status: 400, Before: mk,
			Fields: map[string]string{"type": "validation.required"}},
		{Name: "type out of range", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: `{"type":18}`, Status: 400,
			Fields: map[string]string{"type": "dashboards.module.type"}},
		{Name: "a function button needs its kind", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: `{"type":12}`, Status: 400,
			Fields: map[string]string{"attributes.function_type": "dashboards.function.kind"}},
		{Name: "a node of another company", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: `{"type":0,"tag":"0004A30B001C0530"}`, Status: 400,
			Fields: map[string]string{"tag": "dashboards.module.tag"}},
		{Name: "a node that does not exist reads the same", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: `{"type":0,"tag":"0000000000000001"}`, Status: 400,
			Fields: map[string]string{"tag": "dashboards.module.tag"}},
		{Name: "many problems at once", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Status: 400,
			Body: `{"type":6,"sizeSmall":"xl","url":"javascript:alert(1)","min":5,"max":1,"cardColor":"red",
				"attributes":{"nonsense":"1","decimal_rounding":"11","so_chart_type":"pie","series":"[{\"deveui\":\"0004A30B001C0530\",\"key\":\"t\"}]","dashboard_id":"{betaBoard}","sync_y":"yes","weather_lat":"91"},
				"settings":{"mapType":"hybrid","timeOffset":-1,"mapZoom":99,"mapCenter":{"lat":0,"lng":200}}}`,
			Fields: map[string]string{"sizeSmall": "dashboards.module.size", "url": "dashboards.module.url", "max": "dashboards.module.minMax",
				"cardColor": "dashboards.color.invalid", "attributes.nonsense": "dashboards.module.attribute.unknown",
				"attributes.decimal_rounding": "dashboards.module.attribute.invalid", "attributes.so_chart_type": "dashboards.module.attribute.invalid",
				"attributes.series": "dashboards.module.attribute.invalid", "attributes.dashboard_id": "dashboards.module.attribute.invalid",
				"attributes.sync_y": "dashboards.module.attribute.invalid", "attributes.weather_lat": "dashboards.module.attribute.invalid",
				"settings.mapType": "dashboards.module.mapType", "settings.timeOffset": "dashboards.module.timeOffset",
				"settings.mapZoom": "dashboards.module.zoom", "settings.mapCenter": "dashboards.module.mapCenter"},
			Texts: map[string]string{"attributes.nonsense": "Unknown module attribute nonsense"}},
		{Name: "a User may not add", As: "acmeUser", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: `{"type":2}`, Status: 403},
		{Name: "not to another company's dashboard", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{betaBoard}/modules", Body: `{"type":2}`, Status: 404},
		{Name: "defaults", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: `{"type":2,"content":"<b>Hello</b>"}`, Status: 201,
			Want: map[string]any{"index": float64(0), "sizeSmall": "md", "sizeMid": "md", "tag": "", "image": nil, "attributes": map[string]any{},
				"settings.timeOffset": float64(0), "settings.mapZoom": float64(7), "settings.mapType": "roadmap", "settings.imageMapZoom": float64(-1),
				"settings.mapCenter": nil, "content": "<b>Hello</b>", "min": nil, "sync_chart": false},
			Save: map[string]string{"{text}": "dashboardModuleId"}},
		{Name: "every field kept", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Body: full, Status: 201,
			Want: map[string]any{"index": float64(1), "title": "Temperature", "sizeSmall": "sm", "sizeMid": "lg", "min": float64(-10), "max": float64(40),
				"sync_chart": true, "cardColor": "#fff", "valueColor": "#11223344",
				"attributes": map[string]any{"tagkey": "temperature,humidity", "so_chart_type": "area", "decimal_rounding": "1", "sync_y": "true",
					"zoom_slider": "false", "font_style_large": `{"type":"serif","size":24,"weight":"bold"}`, "value_match": "0:#4caf50;1:#f44336"},
				"settings": map[string]any{"timeOffset": float64(604800), "mapZoom": float64(12), "mapCenter": map[string]any{"lat": 59.3, "lng": 18.1},
					"mapType": "satellite", "imageMapZoom": float64(2)}},
			Save: map[string]string{"{chart}": "dashboardModuleId"}},
		{Name: "series nodes are normalised", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{board}/modules", Status: 201,
			Body: `{"type":10,"attributes":{"series":"[{\"deveui\":\"70-b3-d5-7e-d0-05-a1-b2\",\"key\":\"temperature\"},{\"deveui\":\"70B3D57ED005A1B3\",\"key\":\"temperature\"}]","dashboard_id":"{other}"}}`,
			Want: map[string]any{"attributes.series": `[{"deveui":"70B3D57ED005A1B2","key":"temperature"},{"deveui":"70B3D57ED005A1B3","key":"temperature"}]`},
			Save: map[string]string{"{multi}": "dashboardModuleId"}},
		{Name: "list by index", As: "acmeUser", Method: "GET", Path: "/api/dashboards/{board}/modules", Status: 200, List: true, Items: 3,
			Want: map[string]any{"0.type": float64(2), "1.type": float64(0), "2.type": float64(10)}},
		{Name: "another company's list", As: "betaAdmin", Method: "GET", Path: "/api/dashboards/{board}/modules", Status: 404},
		{Name: "get", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{chart}", Status: 200, Want: map[string]any{"title": "Temperature"}},
		{Name: "update the whole module", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/{chart}", Status: 200,
			Body: `{"title":"Gauge","type":1,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature"},"settings":{"timeOffset":3600}}`,
			Want: map[string]any{"title": "Gauge", "type": float64(1), "index": float64(1), "sync_chart": false, "attributes": map[string]any{"tagkey": "temperature"},
				"settings.timeOffset": float64(3600), "settings.mapZoom": float64(7), "min": nil}},
		{Name: "an update is validated", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/{chart}", Body: `{"type":1,"sizeMid":"huge"}`, Status: 400,
			Fields: map[string]string{"sizeMid": "dashboards.module.size"}},
		{Name: "another company may not update", As: "betaAdmin", Method: "PUT", Path: "/api/dashboards/modules/{chart}", Body: `{"type":2}`, Status: 404},
		{Name: "layout change of several", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/multiple", Status: 200,
			Body: `[{"dashboardModuleId":{text},"type":2,"index":2,"sizeSmall":"xs","content":"<b>Hello</b>"},
				{"dashboardModuleId":{chart},"title":"Gauge","type":1,"index":0,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature"}},
				{"dashboardModuleId":{multi},"type":10,"index":1,"settings":{"timeOffset":86400}}]`,
			List: true, Items: 3, Want: map[string]any{"0.index": float64(2), "0.sizeSmall": "xs", "2.settings.timeOffset": float64(86400)}},
		{Name: "the new order", As: "acmeUser", Method: "GET", Path: "/api/dashboards/{board}/modules", Status: 200,
			Want: map[string]any{"0.dashboardModuleId": "{chart}", "1.dashboardModuleId": "{multi}", "2.dashboardModuleId": "{text}"},
			Then: func(t *testing.T, e *env, got any) {
				for i, ph := range []string{"{chart}", "{multi}", "{text}"} {
					if kerneltest.At(got, itoa(float64(i))+".dashboardModuleId") != float64(e.ID(t, ph)) {
						t.Errorf("position %d: %v", i, kerneltest.At(got, itoa(float64(i))))
					}
				}
			}},
		{Name: "modules of two dashboards are refused, nothing changes", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/multiple", Status: 404,
			Before: func(t *testing.T, e *env) {
				var m struct {
					ID float64 `json:"dashboardModuleId"`
				}
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{other}/modules", `{"type":2}`, http.StatusCreated, &m)
				e.IDs["{otherMod}"] = itoa(m.ID)
			},
			Body: `[{"dashboardModuleId":{text},"type":2,"index":0},{"dashboardModuleId":{otherMod},"type":2,"index":5}]`,
			Then: func(t *testing.T, e *env, got any) {
				var m map[string]any
				e.MustDo(t, "acmeAdmin", "GET", "/api/dashboards/modules/{text}", "", http.StatusOK, &m)
				if m["index"] != float64(2) {
					t.Errorf("index changed: %v", m["index"])
				}
			}},
		{Name: "another company's module in the list", As: "betaAdmin", Method: "PUT", Path: "/api/dashboards/modules/multiple", Status: 404,
			Body: `[{"dashboardModuleId":{text},"type":2,"index":0}]`},
		{Name: "one invalid module refuses all", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/multiple", Status: 400,
			Body:   `[{"dashboardModuleId":{text},"type":2,"index":0},{"dashboardModuleId":{chart},"type":12}]`,
			Fields: map[string]string{"[1].attributes.function_type": "dashboards.function.kind"}},
		{Name: "an empty list", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/modules/multiple", Body: `[]`, Status: 400, ID: "dashboards.modules.empty"},
		{Name: "copy goes right after the original", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/modules/copy/{chart}", Status: 201,
			Want: map[string]any{"index": float64(1), "title": "Gauge"}, Save: map[string]string{"{chartCopy}": "dashboardModuleId"},
			Then: func(t *testing.T, e *env, got any) {
				var mods []map[string]any
				e.MustDo(t, "acmeUser", "GET", "/api/dashboards/{board}/modules", "", http.StatusOK, &mods)
				var order []string
				for _, m := range mods {
					order = append(order, m["title"].(string)+"@"+itoa(m["index"].(float64)))
				}
				if len(mods) != 4 || mods[0]["title"] != "Gauge" || mods[1]["dashboardModuleId"] != float64(e.ID(t, "{chartCopy}")) || mods[2]["index"] != float64(2) {
					t.Errorf("order after copy: %v", order)
				}
			}},
		{Name: "another company may not copy", As: "betaAdmin", Method: "POST", Path: "/api/dashboards/modules/copy/{chart}", Status: 404},
		{Name: "a picture", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/modules/{text}", Status: 200,
			Before: func(t *testing.T, e *env) {
				status, _, raw := e.Send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{text}/image", []byte("<svg onload='alert(1)'/>"), "image/svg+xml", "")
				if status != 400 {
					t.Fatalf("svg: %d %s", status, raw)
				}
				status, _, raw = e.Send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{text}/image", png, "image/png", "")
				if status != 200 {
					t.Fatalf("png: %d %s", status, raw)
				}
			},
			Then: func(t *testing.T, e *env, got any) {
				img, _ := kerneltest.At(got, "image").(string)
				if img == "" {
					t.Fatalf("no image in %v", got)
				}
				status, h, raw := e.Send(t, "acmeUser", "GET", img, nil, "", "")
				if status != 200 || h.Get("Content-Type") != "image/png" || string(raw) != string(png) {
					t.Errorf("image: %d %s", status, h.Get("Content-Type"))
				}
				if status, _, _ := e.Send(t, "betaAdmin", "GET", img, nil, "", ""); status != 404 {
					t.Errorf("another company reads the picture: %d", status)
				}
			}},
		{Name: "remove the picture", As: "acmeAdmin", Method: "DELETE", Path: "/api/dashboards/modules/{text}/image", Status: 204,
			Then: func(t *testing.T, e *env, got any) {
				if status, _ := e.Do(t, "acmeUser", "GET", "/api/dashboards/modules/{text}/image", "", ""); status != 404 {
					t.Errorf("picture after removal: %d", status)
				}
			}},
		{Name: "another company may not delete", As: "betaAdmin", Method: "DELETE", Path: "/api/dashboards/modules/{text}", Status: 404},
		{Name: "a User may not delete", As: "acmeUser", Method: "DELETE", Path: "/api/dashboards/modules/{text}", Status: 403},
		{Name: "delete", As: "acmeAdmin", Method: "DELETE", Path: "/api/dashboards/modules/{text}", Status: 204},
		{Name: "gone", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{text}", Status: 404},
		{Name: "a bad id", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/abc", Status: 400},
	})
}
