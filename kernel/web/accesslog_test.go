package web

import "testing"

// TestMaskPath is the access log's one masking function: the values of the
// wildcards named token, guid and email never reach the log.
func TestMaskPath(t *testing.T) {
	for _, c := range []struct{ name, pattern, path, want string }{
		{"public dashboard page", "GET /public/{token}", "/public/pd_abcDEF123", "/public/***"},
		{"public dashboard API", "GET /api/dashboards/public/{token}", "/api/dashboards/public/pd_abc", "/api/dashboards/public/***"},
		{"public dashboard data keeps the module id", "GET /api/dashboards/public/{token}/modules/{moduleId}/tagdata",
			"/api/dashboards/public/pd_abc/modules/17/tagdata", "/api/dashboards/public/***/modules/17/tagdata"},
		{"reset page", "GET /forgot/{guid}", "/forgot/0b7c9d4e-1f2a-4b3c-8d9e-0f1a2b3c4d5e", "/forgot/***"},
		{"reset page posted", "POST /forgot/{guid}", "/forgot/0b7c9d4e-1f2a-4b3c-8d9e-0f1a2b3c4d5e", "/forgot/***"},
		{"reset by the API", "PUT /api/users/forgot/{guid}", "/api/users/forgot/0b7c9d4e", "/api/users/forgot/***"},
		{"reset asked for an address", "POST /api/users/forgot/{email}", "/api/users/forgot/ada%40example.com", "/api/users/forgot/***"},
		{"an address with an escaped slash stays one segment", "POST /api/users/forgot/{email}", "/api/users/forgot/a%2Fb@example.com", "/api/users/forgot/***"},
		{"ids are kept", "GET /api/users/{userId}", "/api/users/42", "/api/users/42"},
		{"a public link's numeric id is no secret", "DELETE /api/dashboards/public/{publicId}", "/api/dashboards/public/7", "/api/dashboards/public/7"},
		{"no wildcard", "GET /login", "/login", "/login"},
		{"a pattern without a method", "/public/{token}", "/public/pd_x", "/public/***"},
		{"a rest wildcard masks the rest", "GET /files/{token...}", "/files/a/b/c", "/files/***"},
		{"a subtree pattern keeps what follows", "GET /assets/", "/assets/page-abc.js", "/assets/page-abc.js"},
		{"no route: as it came", "", "/public/pd_x/extra", "/public/pd_x/extra"},
		{"an empty segment is not masked", "GET /public/{token}", "/public/", "/public/"},
		{"a host in the pattern", "GET example.com/public/{token}", "/public/pd_x", "/public/***"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := maskPath(c.pattern, c.path); got != c.want {
				t.Errorf("maskPath(%q, %q) = %q, want %q", c.pattern, c.path, got, c.want)
			}
		})
	}
}
