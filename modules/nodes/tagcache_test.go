package nodes_test

import (
	"context"
	"slices"
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
	// cached looks the tag up by DevEUI and by id, which must agree.
	cached := func(t *testing.T, e *env, eui string) *nodes.Tag {
		t.Helper()
		id := e.ID(t, map[string]string{devEUI: "{tag}", betaDevEUI: "{betaTag}"}[eui])
		got, byID, err := e.nodes.CachedTags(ctx, []string{strings.ToLower(eui), "not a DevEUI", "FFFFFFFFFFFFFFFF"}, []int64{id, 999999})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 1 || len(byID) > 1 {
			t.Errorf("found %d tags by DevEUI and %d by id: %v %v", len(got), len(byID), got, byID)
		}
		a, b := got[eui], byID[id]
		if (a == nil) != (b == nil) || a != nil && (a.Name != b.Name || a.CompanyID != b.CompanyID || !slices.Equal(a.Keys, b.Keys)) {
			t.Errorf("by DevEUI %+v, by id %+v", a, b)
		}
		return a
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
		{Name: "kept without state or secrets", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/" + devEUI, Status: 200,
			Body: `{"appKey":"00112233445566778899aabbccddeeff"}`,
			Then: func(t *testing.T, e *env, _ any) {
				tag := cached(t, e, devEUI)
				if tag == nil || tag.ID != e.ID(t, "{tag}") || tag.CompanyID != e.ID(t, "{acme}") || tag.Name != "Door" || tag.Decoder != "raw" {
					t.Fatalf("cached tag %+v", tag)
				}
				if tag.AppKey != "" || tag.SealedAppKey != "" || tag.Data != nil || tag.LatestTime != nil || tag.Battery != nil {
					t.Errorf("the cached tag keeps state or secrets: %+v", tag)
				}
			}},
		{Name: "an uplink's state leaves the generation alone", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				before := e.value(t, "SELECT n FROM tag_generation")
				err := e.nodes.UpdateStates(ctx, []nodes.TagState{{TagID: e.ID(t, "{tag}"),
					State: nodes.State{Time: &at, Data: map[string]any{"temperature": 21.5}, Battery: f(3.6)}}})
				if err != nil {
					t.Fatal(err)
				}
				if after := e.value(t, "SELECT n FROM tag_generation"); after != before {
					t.Errorf("a state raised the generation from %s to %s", before, after)
				}
			},
			Want: map[string]any{"battery": 3.6}, Then: named("Door")},
		{Name: "renamed through the API", As: "acmeAdmin", Method: "PUT", Path: "/api/tag/" + devEUI, Body: `{"name":"Front door"}`, Status: 200,
			Then: named("Front door")},
		{Name: "renamed by another instance", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				cached(t, e, devEUI)
				e.exec(t, "UPDATE tags SET name = 'Back door' WHERE id = ?", e.ID(t, "{tag}"))
			},
			Then: named("Back door")},
		{Name: "keys", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 200,
			Before: func(t *testing.T, e *env) {
				cached(t, e, devEUI)
				if err := e.nodes.EnsureKeysOfTags(ctx, map[int64][]string{e.ID(t, "{tag}"): {"temperature"}}); err != nil {
					t.Fatal(err)
				}
			},
			Then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, devEUI); tag == nil || len(tag.Keys) != 1 || tag.Keys[0] != "temperature" {
					t.Errorf("cached tag %+v, want the key temperature", tag)
				}
				e.exec(t, "DELETE FROM tag_keys WHERE tag_id = ?", e.ID(t, "{tag}"))
				if tag := cached(t, e, devEUI); tag == nil || len(tag.Keys) != 0 {
					t.Errorf("cached tag %+v, want no keys after another instance removed them", tag)
				}
			}},
		{Name: "moved to another company by another instance", As: "acmeUser", Method: "GET", Path: "/api/tag/{tag}", Status: 404,
			Before: func(t *testing.T, e *env) {
				cached(t, e, devEUI)
				e.exec(t, "UPDATE tags SET company_id = ?, application_id = ? WHERE id = ?", e.ID(t, "{beta}"), e.ID(t, "{betaApp}"), e.ID(t, "{tag}"))
			},
			Then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, devEUI); tag == nil || tag.CompanyID != e.ID(t, "{beta}") {
					t.Errorf("cached tag %+v, want Beta's", tag)
				}
				e.exec(t, "UPDATE tags SET company_id = ?, application_id = ? WHERE id = ?", e.ID(t, "{acme}"), e.ID(t, "{app}"), e.ID(t, "{tag}"))
			}},
		{Name: "deleted", As: "acmeAdmin", Method: "DELETE", Path: "/api/tag/{tag}", Status: 204,
			Before: func(t *testing.T, e *env) { cached(t, e, devEUI) },
			Then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, devEUI); tag != nil {
					t.Errorf("a deleted tag is still found: %+v", tag)
				}
			}},
		{Name: "gone with its company", As: "super", Method: "DELETE", Path: "/api/companies/{beta}", Status: 204,
			Before: func(t *testing.T, e *env) {
				if cached(t, e, betaDevEUI) == nil {
					t.Fatal("Beta's tag is not found")
				}
			},
			Then: func(t *testing.T, e *env, _ any) {
				if tag := cached(t, e, betaDevEUI); tag != nil {
					t.Errorf("the tag of a deleted company is still found: %+v", tag)
				}
			}},
	}...)
	run(t, steps)
}
