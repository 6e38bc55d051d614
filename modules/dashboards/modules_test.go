package dashboards_test

import (
	"net/http"
	"testing"
)

func TestModules(t *testing.T) {
	t.Parallel()
	png := pngBytes()
	mk := func(t *testing.T, e *env) {
		var d struct {
			ID float64 `json:"dashboardId"`
		}
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Board"}`, http.StatusCreated, &d)
		e.ids["{board}"] = itoa(d.ID)
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Other board"}`, http.StatusCreated, &d)
		e.ids["{other}"] = itoa(d.ID)
		e.mustDo(t, "betaAdmin", "POST", "/api/dashboards", `{"name":"Beta board"}`, http.StatusCreated, &d)
		e.ids["{betaBoard}"] = itoa(d.ID)
	}
	full := `{"title":"Temperature","type":0,"tag":"70B3D57ED005A1B2","sizeSmall":"sm","sizeMid":"lg","content":"","url":"",
		"min":-10,"max":40,"sync_chart":true,"cardColor":"#fff","titleColor":"#112233","valueColor":"#11223344",
		"attributes":{"tagkey":"temperature,humidity","so_chart_type":"area","decimal_rounding":1,"sync_y":true,"zoom_slider":"false",
			"font_style_large":"{\"type\":\"serif\",\"size\":24,\"weight\":\"bold\"}","value_match":"0:#4caf50;1:#f44336","icon":null,"prefix":""},
		"settings":{"timeOffset":604800,"mapZoom":12,"mapCenter":{"lat":59.3,"lng":18.1},"mapType":"satellite","imageMapZoom":2}}`
	run(t, nil, []step{
		{name: "type is required", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", body: `{}`, status: 400, before: mk,
			fields: map[string]string{"type": "validation.required"}},
		{name: "type out of range", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", body: `{"type":18}`, status: 400,
			fields: map[string]string{"type": "dashboards.module.type"}},
		{name: "function buttons wait for the script engine", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", body: `{"type":12}`, status: 400,
			fields: map[string]string{"type": "dashboards.module.typeFunction"}},
		{name: "a node of another company", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", body: `{"type":0,"tag":"0004A30B001C0530"}`, status: 400,
			fields: map[string]string{"tag": "dashboards.module.tag"}},
		{name: "a node that does not exist reads the same", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", body: `{"type":0,"tag":"0000000000000001"}`, status: 400,
			fields: map[string]string{"tag": "dashboards.module.tag"}},
		{name: "many problems at once", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", status: 400,
			body: `{"type":6,"sizeSmall":"xl","url":"javascript:alert(1)","min":5,"max":1,"cardColor":"red",
				"attributes":{"nonsense":"1","decimal_rounding":"11","so_chart_type":"pie","series":"[{\"deveui\":\"0004A30B001C0530\",\"key\":\"t\"}]","dashboard_id":"{betaBoard}","sync_y":"yes","weather_lat":"91"},
				"settings":{"mapType":"hybrid","timeOffset":-1,"mapZoom":99,"mapCenter":{"lat":0,"lng":200}}}`,
			fields: map[string]string{"sizeSmall": "dashboards.module.size", "url": "dashboards.module.url", "max": "dashboards.module.minMax",
				"cardColor": "dashboards.color.invalid", "attributes.nonsense": "dashboards.module.attribute.unknown",
				"attributes.decimal_rounding": "dashboards.module.attribute.invalid", "attributes.so_chart_type": "dashboards.module.attribute.invalid",
				"attributes.series": "dashboards.module.attribute.invalid", "attributes.dashboard_id": "dashboards.module.attribute.invalid",
				"attributes.sync_y": "dashboards.module.attribute.invalid", "attributes.weather_lat": "dashboards.module.attribute.invalid",
				"settings.mapType": "dashboards.module.mapType", "settings.timeOffset": "dashboards.module.timeOffset",
				"settings.mapZoom": "dashboards.module.zoom", "settings.mapCenter": "dashboards.module.mapCenter"},
			texts: map[string]string{"attributes.nonsense": "Unknown module attribute nonsense"}},
		{name: "a User may not add", as: "acmeUser", method: "POST", path: "/api/dashboards/{board}/modules", body: `{"type":2}`, status: 403},
		{name: "not to another company's dashboard", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{betaBoard}/modules", body: `{"type":2}`, status: 404},
		{name: "defaults", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", body: `{"type":2,"content":"<b>Hello</b>"}`, status: 201,
			want: map[string]any{"index": float64(0), "sizeSmall": "md", "sizeMid": "md", "tag": "", "image": nil, "attributes": map[string]any{},
				"settings.timeOffset": float64(0), "settings.mapZoom": float64(7), "settings.mapType": "roadmap", "settings.imageMapZoom": float64(-1),
				"settings.mapCenter": nil, "content": "<b>Hello</b>", "min": nil, "sync_chart": false},
			save: map[string]string{"{text}": "dashboardModuleId"}},
		{name: "every field kept", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", body: full, status: 201,
			want: map[string]any{"index": float64(1), "title": "Temperature", "sizeSmall": "sm", "sizeMid": "lg", "min": float64(-10), "max": float64(40),
				"sync_chart": true, "cardColor": "#fff", "valueColor": "#11223344",
				"attributes": map[string]any{"tagkey": "temperature,humidity", "so_chart_type": "area", "decimal_rounding": "1", "sync_y": "true",
					"zoom_slider": "false", "font_style_large": `{"type":"serif","size":24,"weight":"bold"}`, "value_match": "0:#4caf50;1:#f44336"},
				"settings": map[string]any{"timeOffset": float64(604800), "mapZoom": float64(12), "mapCenter": map[string]any{"lat": 59.3, "lng": 18.1},
					"mapType": "satellite", "imageMapZoom": float64(2)}},
			save: map[string]string{"{chart}": "dashboardModuleId"}},
		{name: "series nodes are normalised", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{board}/modules", status: 201,
			body: `{"type":10,"attributes":{"series":"[{\"deveui\":\"70-b3-d5-7e-d0-05-a1-b2\",\"key\":\"temperature\"},{\"deveui\":\"70B3D57ED005A1B3\",\"key\":\"temperature\"}]","dashboard_id":"{other}"}}`,
			want: map[string]any{"attributes.series": `[{"deveui":"70B3D57ED005A1B2","key":"temperature"},{"deveui":"70B3D57ED005A1B3","key":"temperature"}]`},
			save: map[string]string{"{multi}": "dashboardModuleId"}},
		{name: "list by index", as: "acmeUser", method: "GET", path: "/api/dashboards/{board}/modules", status: 200, list: true, items: 3,
			want: map[string]any{"0.type": float64(2), "1.type": float64(0), "2.type": float64(10)}},
		{name: "another company's list", as: "betaAdmin", method: "GET", path: "/api/dashboards/{board}/modules", status: 404},
		{name: "get", as: "acmeUser", method: "GET", path: "/api/dashboards/modules/{chart}", status: 200, want: map[string]any{"title": "Temperature"}},
		{name: "update the whole module", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/modules/{chart}", status: 200,
			body: `{"title":"Gauge","type":1,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature"},"settings":{"timeOffset":3600}}`,
			want: map[string]any{"title": "Gauge", "type": float64(1), "index": float64(1), "sync_chart": false, "attributes": map[string]any{"tagkey": "temperature"},
				"settings.timeOffset": float64(3600), "settings.mapZoom": float64(7), "min": nil}},
		{name: "an update is validated", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/modules/{chart}", body: `{"type":1,"sizeMid":"huge"}`, status: 400,
			fields: map[string]string{"sizeMid": "dashboards.module.size"}},
		{name: "another company may not update", as: "betaAdmin", method: "PUT", path: "/api/dashboards/modules/{chart}", body: `{"type":2}`, status: 404},
		{name: "layout change of several", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/modules/multiple", status: 200,
			body: `[{"dashboardModuleId":{text},"type":2,"index":2,"sizeSmall":"xs","content":"<b>Hello</b>"},
				{"dashboardModuleId":{chart},"title":"Gauge","type":1,"index":0,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature"}},
				{"dashboardModuleId":{multi},"type":10,"index":1,"settings":{"timeOffset":86400}}]`,
			list: true, items: 3, want: map[string]any{"0.index": float64(2), "0.sizeSmall": "xs", "2.settings.timeOffset": float64(86400)}},
		{name: "the new order", as: "acmeUser", method: "GET", path: "/api/dashboards/{board}/modules", status: 200,
			want: map[string]any{"0.dashboardModuleId": "{chart}", "1.dashboardModuleId": "{multi}", "2.dashboardModuleId": "{text}"},
			then: func(t *testing.T, e *env, got any) {
				for i, ph := range []string{"{chart}", "{multi}", "{text}"} {
					if at(got, itoa(float64(i))+".dashboardModuleId") != float64(e.id(t, ph)) {
						t.Errorf("position %d: %v", i, at(got, itoa(float64(i))))
					}
				}
			}},
		{name: "modules of two dashboards are refused, nothing changes", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/modules/multiple", status: 404,
			before: func(t *testing.T, e *env) {
				var m struct {
					ID float64 `json:"dashboardModuleId"`
				}
				e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/{other}/modules", `{"type":2}`, http.StatusCreated, &m)
				e.ids["{otherMod}"] = itoa(m.ID)
			},
			body: `[{"dashboardModuleId":{text},"type":2,"index":0},{"dashboardModuleId":{otherMod},"type":2,"index":5}]`,
			then: func(t *testing.T, e *env, got any) {
				var m map[string]any
				e.mustDo(t, "acmeAdmin", "GET", "/api/dashboards/modules/{text}", "", http.StatusOK, &m)
				if m["index"] != float64(2) {
					t.Errorf("index changed: %v", m["index"])
				}
			}},
		{name: "another company's module in the list", as: "betaAdmin", method: "PUT", path: "/api/dashboards/modules/multiple", status: 404,
			body: `[{"dashboardModuleId":{text},"type":2,"index":0}]`},
		{name: "one invalid module refuses all", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/modules/multiple", status: 400,
			body:   `[{"dashboardModuleId":{text},"type":2,"index":0},{"dashboardModuleId":{chart},"type":12}]`,
			fields: map[string]string{"[1].type": "dashboards.module.typeFunction"}},
		{name: "an empty list", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/modules/multiple", body: `[]`, status: 400, id: "dashboards.modules.empty"},
		{name: "copy goes right after the original", as: "acmeAdmin", method: "POST", path: "/api/dashboards/modules/copy/{chart}", status: 201,
			want: map[string]any{"index": float64(1), "title": "Gauge"}, save: map[string]string{"{chartCopy}": "dashboardModuleId"},
			then: func(t *testing.T, e *env, got any) {
				var mods []map[string]any
				e.mustDo(t, "acmeUser", "GET", "/api/dashboards/{board}/modules", "", http.StatusOK, &mods)
				var order []string
				for _, m := range mods {
					order = append(order, m["title"].(string)+"@"+itoa(m["index"].(float64)))
				}
				if len(mods) != 4 || mods[0]["title"] != "Gauge" || mods[1]["dashboardModuleId"] != float64(e.id(t, "{chartCopy}")) || mods[2]["index"] != float64(2) {
					t.Errorf("order after copy: %v", order)
				}
			}},
		{name: "another company may not copy", as: "betaAdmin", method: "POST", path: "/api/dashboards/modules/copy/{chart}", status: 404},
		{name: "a picture", as: "acmeAdmin", method: "GET", path: "/api/dashboards/modules/{text}", status: 200,
			before: func(t *testing.T, e *env) {
				status, _, raw := e.send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{text}/image", []byte("<svg onload='alert(1)'/>"), "image/svg+xml", "")
				if status != 400 {
					t.Fatalf("svg: %d %s", status, raw)
				}
				status, _, raw = e.send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{text}/image", png, "image/png", "")
				if status != 200 {
					t.Fatalf("png: %d %s", status, raw)
				}
			},
			then: func(t *testing.T, e *env, got any) {
				img, _ := at(got, "image").(string)
				if img == "" {
					t.Fatalf("no image in %v", got)
				}
				status, h, raw := e.send(t, "acmeUser", "GET", img, nil, "", "")
				if status != 200 || h.Get("Content-Type") != "image/png" || string(raw) != string(png) {
					t.Errorf("image: %d %s", status, h.Get("Content-Type"))
				}
				if status, _, _ := e.send(t, "betaAdmin", "GET", img, nil, "", ""); status != 404 {
					t.Errorf("another company reads the picture: %d", status)
				}
			}},
		{name: "remove the picture", as: "acmeAdmin", method: "DELETE", path: "/api/dashboards/modules/{text}/image", status: 204,
			then: func(t *testing.T, e *env, got any) {
				if status, _ := e.do(t, "acmeUser", "GET", "/api/dashboards/modules/{text}/image", "", ""); status != 404 {
					t.Errorf("picture after removal: %d", status)
				}
			}},
		{name: "another company may not delete", as: "betaAdmin", method: "DELETE", path: "/api/dashboards/modules/{text}", status: 404},
		{name: "a User may not delete", as: "acmeUser", method: "DELETE", path: "/api/dashboards/modules/{text}", status: 403},
		{name: "delete", as: "acmeAdmin", method: "DELETE", path: "/api/dashboards/modules/{text}", status: 204},
		{name: "gone", as: "acmeUser", method: "GET", path: "/api/dashboards/modules/{text}", status: 404},
		{name: "a bad id", as: "acmeUser", method: "GET", path: "/api/dashboards/modules/abc", status: 400},
	})
}
