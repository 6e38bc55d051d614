package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/rules"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /companies/{companyId}/alarm":           {Summary: "A company's alarm rules.", Response: ([]*alarms.Alarm)(nil)},
	"POST /companies/{companyId}/alarm":          {Summary: "Create an alarm rule.", Request: rules.Input{}, Response: (*alarms.Alarm)(nil), Status: http.StatusCreated},
	"PUT /companies/{companyId}/alarm/{alarmId}": {Summary: "Change an alarm rule.", Request: rules.Input{}, Response: (*alarms.Alarm)(nil)},
	"GET /companies/{companyId}/alarm/active":    {Summary: "A company's open alarms.", Response: ([]*alarms.Event)(nil)},
	"GET /companies/{companyId}/alarm/history":   {Summary: "A company's closed alarms.", Response: ([]*alarms.Event)(nil), Query: []string{"limit", "alarmId"}},
	"GET /alarms/active/all":                     {Summary: "The open alarms of every company the caller may see.", Response: ([]*alarms.Event)(nil)},
	"GET /alarms/{alarmId}":                      {Summary: "One alarm rule.", Response: (*alarms.Alarm)(nil)},
	"DELETE /alarms/{alarmId}":                   {Summary: "Delete an alarm rule."},
	"POST /alarms/active/{alarmId}/status": {Summary: "Switch an alarm rule on or off.", Request: struct {
		Active *bool `json:"active"`
	}{}, Response: (*alarms.Alarm)(nil)},
	"POST /alarms/copy/{alarmId}":          {Summary: "Copy an alarm rule.", Response: (*alarms.Alarm)(nil), Status: http.StatusCreated},
	"POST /alarms/history/{eventId}/reset": {Summary: "Reset (close) an open alarm.", Response: (*alarms.Event)(nil)},
	"POST /alarms/setting/test":            {Summary: "Send a test notification through an alarm's channels.", Request: testInput{}, Response: alarms.TestResult{}},
}
