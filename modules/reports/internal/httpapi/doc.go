package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/workbook"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /report/company/{companyId}": {Summary: "A company's reports.", Response: ([]*reports.Report)(nil)},
	"GET /report/{reportId}":          {Summary: "One report.", Response: (*reports.Report)(nil)},
	"POST /report":                    {Summary: "Create a report.", Request: ReportInput{}, Response: (*reports.Report)(nil), Status: http.StatusCreated},
	"PUT /report/{reportId}":          {Summary: "Change a report.", Request: ReportInput{}, Response: (*reports.Report)(nil)},
	"DELETE /report/{reportId}":       {Summary: "Delete a report."},
	"POST /report/{reportId}/send":    {Summary: "Send a report now to its recipients.", Response: SendAnswer{}},
	"POST /report/preview":            {Summary: "Build a report's file without saving it (a file blob).", Request: ExportInput{}, Response: (*workbook.Preview)(nil)},
	"POST /report/multiexport":        {Summary: "Export several nodes' data as one file (a file blob).", Request: ExportInput{}},
}
