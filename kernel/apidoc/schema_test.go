package apidoc

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

type base struct {
	ID int64 `json:"id"`
}

type sample struct {
	base
	Name    string            `json:"name"`
	Note    *string           `json:"note"`
	Tags    []string          `json:"tags,omitempty"`
	At      time.Time         `json:"at"`
	Extra   map[string]int    `json:"extra,omitzero"`
	Raw     json.RawMessage   `json:"raw"`
	Count   int64             `json:"count,string"`
	Child   *sample           `json:"child"`
	Parent  *sample           `json:"parent,omitempty"`
	Hidden  string            `json:"-"`
	inner   string            //nolint:unused // unexported fields are not JSON
	Inline  struct{ A bool }  `json:"inline"`
	Entries []map[string]bool `json:"entries"`
}

// TestSchemaFollowsEncodingJSON describes a struct as encoding/json reads
// and writes it: a pointer is optional, and null unless omitempty leaves a
// nil one out.
func TestSchemaFollowsEncodingJSON(t *testing.T) {
	r := newReflector()
	ref := r.schemaOf(reflect.TypeFor[*sample]())
	if ref["$ref"] != "#/components/schemas/apidoc.sample" {
		t.Fatalf("ref %v", ref)
	}
	got, _ := json.Marshal(r.components["apidoc.sample"])
	want := `{"properties":{"at":{"format":"date-time","type":"string"},"child":{"anyOf":[{"$ref":"#/components/schemas/apidoc.sample"},{"type":"null"}]},` +
		`"count":{"type":"string"},"entries":{"items":{"additionalProperties":{"type":"boolean"},"type":"object"},"type":"array"},` +
		`"extra":{"additionalProperties":{"format":"int64","type":"integer"},"type":"object"},"id":{"format":"int64","type":"integer"},` +
		`"inline":{"properties":{"A":{"type":"boolean"}},"required":["A"],"type":"object"},"name":{"type":"string"},"note":{"type":["string","null"]},` +
		`"parent":{"$ref":"#/components/schemas/apidoc.sample"},"raw":{},"tags":{"items":{"type":"string"},"type":"array"}},"required":["id","name","at","raw","count","inline","entries"],"type":"object"}`
	if string(got) != want {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
}

func TestPaths(t *testing.T) {
	for _, c := range []struct {
		path, openAPI string
		params        []string
	}{
		{"/api/news/{newsId}", "/api/news/{newsId}", []string{"newsId"}},
		{"/api/files/{rest...}", "/api/files/{rest}", []string{"rest"}},
		{"/api/list/{$}", "/api/list/", nil},
	} {
		if got := openAPIPath(c.path); got != c.openAPI {
			t.Errorf("openAPIPath(%s) = %s", c.path, got)
		}
		if got := pathParams(c.path); !reflect.DeepEqual(got, c.params) {
			t.Errorf("pathParams(%s) = %v", c.path, got)
		}
	}
}
