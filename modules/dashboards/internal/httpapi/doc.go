package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/validate"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/widgetdata"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /dashboards/categories/{companyId}":                           {Summary: "A company's dashboard categories.", Response: ([]*dashboards.TreeNode)(nil)},
	"POST /dashboards/categories/{companyId}":                          {Summary: "Create a dashboard category.", Request: validate.CategoryInput{}, Response: (*dashboards.Category)(nil), Status: http.StatusCreated},
	"PUT /dashboards/categories/indexes":                               {Summary: "Reorder dashboard categories.", Request: indexesInput{}},
	"PUT /dashboards/categories/{categoryId}":                          {Summary: "Rename or move a dashboard category.", Request: validate.CategoryInput{}, Response: (*dashboards.Category)(nil)},
	"DELETE /dashboards/categories/{categoryId}":                       {Summary: "Delete a dashboard category."},
	"GET /companies/{companyId}/dashboards":                            {Summary: "A company's dashboards.", Response: ([]*dashboards.Dashboard)(nil)},
	"GET /dashboards/scripts/{companyId}":                              {Summary: "The invoked scripts of a company, which a function button may run.", Response: []dashboards.ScriptRef(nil)},
	"POST /dashboards":                                                 {Summary: "Create a dashboard in the caller's company.", Request: validate.DashboardInput{}, Response: (*dashboards.Dashboard)(nil), Status: http.StatusCreated},
	"POST /dashboards/create/{companyId}":                              {Summary: "Create a dashboard in a company.", Request: validate.DashboardInput{}, Response: (*dashboards.Dashboard)(nil), Status: http.StatusCreated},
	"GET /dashboards/default":                                          {Summary: "The caller's default dashboard.", Response: (*dashboards.Dashboard)(nil)},
	"GET /dashboards/{dashboardId}":                                    {Summary: "One dashboard.", Response: (*dashboards.Dashboard)(nil)},
	"PUT /dashboards/{dashboardId}":                                    {Summary: "Change a dashboard.", Request: validate.DashboardInput{}, Response: (*dashboards.Dashboard)(nil)},
	"DELETE /dashboards/{dashboardId}":                                 {Summary: "Delete a dashboard."},
	"GET /dashboards/{dashboardId}/{part}":                             {Summary: "A dashboard's modules ({part} is \"modules\").", Response: []*dashboards.Widget(nil)},
	"POST /dashboards/{dashboardId}/{part}":                            {Summary: "Add a module to a dashboard ({part} is \"modules\"), or duplicate the dashboard ({part} is \"duplicate\").", Description: "With \"duplicate\" the body is a validate.DashboardInput and the answer the new dashboard.", Request: validate.WidgetInput{}, Response: (*dashboards.Widget)(nil), Status: http.StatusCreated},
	"PUT /dashboards/{dashboardId}/{part}":                             {Summary: "Make a dashboard the caller's default ({part} is \"default\").", Query: []string{"scope"}},
	"DELETE /dashboards/{dashboardId}/{part}":                          {Summary: "Stop a dashboard being the caller's default ({part} is \"default\").", Query: []string{"scope"}},
	"PUT /dashboards/modules/multiple":                                 {Summary: "Change several dashboard modules at once (positions and sizes).", Request: ([]validate.WidgetInput)(nil), Response: ([]*dashboards.Widget)(nil)},
	"GET /dashboards/modules/{moduleId}":                               {Summary: "One dashboard module.", Response: (*dashboards.Widget)(nil)},
	"PUT /dashboards/modules/{moduleId}":                               {Summary: "Change a dashboard module.", Request: validate.WidgetInput{}, Response: (*dashboards.Widget)(nil)},
	"DELETE /dashboards/modules/{moduleId}":                            {Summary: "Delete a dashboard module."},
	"POST /dashboards/modules/copy/{moduleId}":                         {Summary: "Copy a dashboard module to a dashboard.", Response: (*dashboards.Widget)(nil)},
	"POST /dashboards/modules/{moduleId}/{part}":                       {Summary: "Upload a dashboard module's image ({part} is \"image\"; the image file as the body).", RequestType: "image/*", Response: (*dashboards.Widget)(nil)},
	"GET /dashboards/modules/{moduleId}/image":                         {Summary: "A dashboard module's image (the file).", ContentType: "image/*"},
	"DELETE /dashboards/modules/{moduleId}/image":                      {Summary: "Remove a dashboard module's image."},
	"GET /dashboards/modules/{moduleId}/tagdata":                       {Summary: "A dashboard module's series over a time range.", Response: (*widgetdata.TagData)(nil)},
	"GET /dashboards/modules/{moduleId}/tagdata/latest":                {Summary: "A dashboard module's latest values.", Response: (*widgetdata.Latest)(nil)},
	"GET /dashboards/modules/{moduleId}/info":                          {Summary: "What a dashboard module shows: its nodes and keys.", Response: (*widgetdata.Info)(nil)},
	"GET /dashboards/modules/{moduleId}/weather":                       {Summary: "The weather forecast at a dashboard module's place.", Response: web.Problem{}},
	"GET /dashboards/modules/{moduleId}/alarm":                         {Summary: "The alarm state of a dashboard module's alarms.", Response: alarmAnswer{}},
	"POST /dashboards/public/{companyId}/{dashboardId}/{expiresAt}":    {Summary: "Create a public link to a dashboard that expires at the time given (RFC 3339).", Response: (*dashboards.PublicLink)(nil), Status: http.StatusCreated},
	"GET /dashboards/public/company/{companyId}":                       {Summary: "A company's public dashboard links.", Response: ([]*dashboards.PublicLink)(nil)},
	"DELETE /dashboards/public/{publicId}":                             {Summary: "Revoke a public dashboard link."},
	"GET /dashboards/public/{token}":                                   {Summary: "A dashboard through its public link.", Response: (*access.PublicView)(nil)},
	"GET /dashboards/public/{token}/modules/{moduleId}/tagdata":        {Summary: "A public dashboard module's series over a time range.", Response: (*widgetdata.TagData)(nil)},
	"GET /dashboards/public/{token}/modules/{moduleId}/tagdata/latest": {Summary: "A public dashboard module's latest values.", Response: (*widgetdata.Latest)(nil)},
	"GET /dashboards/public/{token}/modules/{moduleId}/info":           {Summary: "What a public dashboard module shows.", Response: (*widgetdata.Info)(nil)},
	"GET /dashboards/public/{token}/modules/{moduleId}/weather":        {Summary: "The weather forecast at a public dashboard module's place.", Response: web.Problem{}},
	"GET /dashboards/public/{token}/modules/{moduleId}/alarm":          {Summary: "The alarm state of a public dashboard module's alarms.", Response: alarmAnswer{}},
	"GET /dashboards/public/{token}/modules/{moduleId}/image":          {Summary: "A public dashboard module's image (the file).", ContentType: "image/*"},
}
