package ui

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// TestFormStatusIsOKForHTMX: htmx gets a refused form as 200, so that the
// browser reports no failed load; a post without htmx keeps the error's status.
func TestFormStatusIsOKForHTMX(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		kind       errs.Kind
		htmx       bool
		wantStatus int
	}{
		{"invalid field, htmx", errs.Invalid, true, http.StatusOK},
		{"conflict, htmx", errs.Conflict, true, http.StatusOK},
		{"forbidden, htmx", errs.Forbidden, true, http.StatusOK},
		{"too many, htmx", errs.TooMany, true, http.StatusOK},
		{"invalid field, no script", errs.Invalid, false, http.StatusBadRequest},
		{"conflict, no script", errs.Conflict, false, http.StatusConflict},
		{"forbidden, no script", errs.Forbidden, false, http.StatusForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodPost, "/tag/create", nil)
			if tc.htmx {
				r.Header.Set("HX-Request", "true")
			}
			if got := FormStatus(r, errs.New(tc.kind, "validation.required")); got != tc.wantStatus {
				t.Errorf("FormStatus = %d, want %d", got, tc.wantStatus)
			}
		})
	}
}
