package nodes_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TestCachedTagsFollowEveryChange: the tags the ingest keeps in memory show
// a change of a tag's identity, keys or existence as soon as it is
// committed, whoever makes it: this module, or another instance writing the
// same database (here, SQL alone). An uplink's state changes nothing kept,
// and is not shown.
func TestCachedTagsFollowEveryChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cached := func(t *testing.T, e *env, eui string) *nodes.Tag {
		t.Helper()
		got, err := e.nodes.CachedTagsByDevEUI(ctx, []string{strings.ToLower(eui), "not a DevEUI", "FFFFFFFFFFFFFFFF"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 1 {
			t.Errorf("found %d tags: %v", len(got), got)
		}
		return got[eui]
	}
	named := func(want string) func(t *testing.T, e *env, _ any) {
		return func(t *testing.T, e *env, _ any) {
			t.Helper()
			if tag := cached(t, e, devEUI); tag == nil || tag.Name != want {
				t.Errorf("cached tag %+v, want the name %q", tag, want)
			}
		}
	}
	f := func(v float64) *float64 { return &v }
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{name: "kept without state or secrets", as: "acmeAdmin", method: "PUT", path: "/api/tag/" + devEUI, status: 200,
			body: `{"appKey":"00112233445566778899aabbccddeeff"}`,
			then: func(t *testing.T, e *env, _ any) {
				tag := cached(t, e, devEUI)
				if tag == nil || tag.ID != e.id(t, "{tag}") || tag.CompanyID != e.id(t, "{acme}") || tag.Name != "Door" || tag.Decoder != "raw" {
					t.Fatalf("cached tag %+v", tag)
				}
				if tag.AppKey != "" || tag.SealedAppKey != "" || tag.Data != nil || tag.LatestTime != nil || tag.Battery != nil {
					t.Errorf("the cached tag keeps state or secrets: %+v", tag)
				}
			}},
		{name: "an uplink's state leaves the generation alone", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			before: func(t *testing.T, e *env) {
				before := e.value(t, "SELECT n FROM tag_generation")
				err := e.nodes.UpdateStates(ctx, []nodes.TagState{{TagID: e.id(t, "{tag}"),
					State: nodes.State{Time: &at, Data: map[string]any{"temperature": 21.5}, Battery: f(3.6)}}})
				if err != nil {
					t.Fatal(err)
				}
				if after := e.value(t, "SELECT n FROM tag_generation"); after != before {
					t.Errorf("a state raised the generation from %s to %s", before, after)
				}
			},
			want: map[string]any{"battery": 3.6}, then: named("Door")},
		{name: "renamed through the API", as: "acmeAdmin", method: "PUT", path: "/api/tag/" + devEUI, body: `{"name":"Front door"}`, status: 200,
			then: named("Front door")},
		{name: "renamed by another instance", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			before: func(t *testing.T, e *env) {
				cached(t, e, devEUI)
				e.exec(t, "UPDATE tags SET name = 'Back door' WHERE id = ?", e.id(t, "{tag}"))
			},
			then: named("Back door")},
		{name: "keys", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			before: func(t *testing.T, e *env) {
				cached(t, e, devEUI)
				if err := e.nodes.EnsureKeysOfTags(ctx, map[int64][]string{e.id(t, "{tag}"): {"temperature"}}); err != nil {
					t.Fatal(err)
				}
			},
			then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, devEUI); tag == nil || len(tag.Keys) != 1 || tag.Keys[0] != "temperature" {
					t.Errorf("cached tag %+v, want the key temperature", tag)
				}
				e.exec(t, "DELETE FROM tag_keys WHERE tag_id = ?", e.id(t, "{tag}"))
				if tag := cached(t, e, devEUI); tag == nil || len(tag.Keys) != 0 {
					t.Errorf("cached tag %+v, want no keys after another instance removed them", tag)
				}
			}},
		{name: "moved to another company by another instance", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 404,
			before: func(t *testing.T, e *env) {
				cached(t, e, devEUI)
				e.exec(t, "UPDATE tags SET company_id = ?, application_id = ? WHERE id = ?", e.id(t, "{beta}"), e.id(t, "{betaApp}"), e.id(t, "{tag}"))
			},
			then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, devEUI); tag == nil || tag.CompanyID != e.id(t, "{beta}") {
					t.Errorf("cached tag %+v, want Beta's", tag)
				}
				e.exec(t, "UPDATE tags SET company_id = ?, application_id = ? WHERE id = ?", e.id(t, "{acme}"), e.id(t, "{app}"), e.id(t, "{tag}"))
			}},
		{name: "deleted", as: "acmeAdmin", method: "DELETE", path: "/api/tag/{tag}", status: 204,
			before: func(t *testing.T, e *env) { cached(t, e, devEUI) },
			then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, devEUI); tag != nil {
					t.Errorf("a deleted tag is still found: %+v", tag)
				}
			}},
		{name: "gone with its company", as: "super", method: "DELETE", path: "/api/companies/{beta}", status: 204,
			before: func(t *testing.T, e *env) {
				if cached(t, e, betaDevEUI) == nil {
					t.Fatal("Beta's tag is not found")
				}
			},
			then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, betaDevEUI); tag != nil {
					t.Errorf("the tag of a deleted company is still found: %+v", tag)
				}
			}},
	}...)
	run(t, steps)
}
