package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/scripts"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /script/company/{companyId}": {Summary: "A company's scripts.", Response: []scripts.Script(nil)},
	"POST /script/{companyId}":        {Summary: "Create a script for a company.", Request: scripts.Input{}, Response: (*scripts.Script)(nil), Status: http.StatusCreated},
	"POST /script/test/{companyId}": {Summary: "Run a script once against the company's data; its writes and sends are answered, not done.",
		Description: "Give the source as content or a compiled module (base64) as module; boundTag makes the node's latest uplink the trigger.",
		Request:     scripts.TestInput{}, Response: scripts.Outcome{},
		Example: web.Example{
			Request:  `{"content": "var t = trigger.values.temperature;\nwrite(trigger.tagId, {double_temperature: t * 2}, trigger.time);\nconsole.log('temperature', t);\nreturn t * 2;", "boundTag": 42}`,
			Response: `{"valid": true, "result": 40, "actions": [{"kind": "write", "tagId": 42, "values": {"double_temperature": 40}, "time": "2026-11-27T15:00:00Z"}], "log": ["temperature 20"]}`}},
	"GET /script/run/{scriptId}":     {Summary: "Run a script now, for real; a triggered script sees its node's latest uplink.", Response: scripts.Outcome{}},
	"GET /script/history/{scriptId}": {Summary: "A script's latest runs.", Response: []scripts.Run(nil)},
	"GET /script/{scriptId}":         {Summary: "A script.", Response: (*scripts.Script)(nil)},
	"PUT /script/{scriptId}":         {Summary: "Change a script.", Request: scripts.Input{}, Response: (*scripts.Script)(nil)},
	"DELETE /script/{scriptId}":      {Summary: "Delete a script."},
}
