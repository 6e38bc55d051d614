package apidoc

import (
	"encoding"
	"encoding/json"
	"maps"
	"reflect"
	"regexp"
	"strings"
	"time"
)

// Schema is a JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it).
type Schema = map[string]any

// reflector turns Go types into JSON Schemas the way encoding/json writes
// and reads them: named structs become components referenced by $ref, so
// that a type shared by many routes is described once.
type reflector struct {
	components map[string]Schema
	names      map[reflect.Type]string
}

func newReflector() *reflector {
	return &reflector{components: map[string]Schema{}, names: map[reflect.Type]string{}}
}

var (
	timeType         = reflect.TypeFor[time.Time]()
	rawType          = reflect.TypeFor[json.RawMessage]()
	jsonMarshaler    = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler  = reflect.TypeFor[json.Unmarshaler]()
	textMarshaler    = reflect.TypeFor[encoding.TextMarshaler]()
	unsafeNameChars  = regexp.MustCompile(`[^A-Za-z0-9._-]+`)
	modulePathPrefix = "github.com/fieldhub/fieldhub/"
	droppedPathParts = map[string]bool{"modules": true, "internal": true, "kernel": true}
)

// schemaOf returns the schema of values of t.
func (r *reflector) schemaOf(t reflect.Type) Schema {
	switch {
	case t == timeType:
		return Schema{"type": "string", "format": "date-time"}
	case t == rawType:
		return Schema{}
	case t.Kind() == reflect.Pointer:
		return r.schemaOf(t.Elem())
	case t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler),
		reflect.PointerTo(t).Implements(jsonUnmarshaler):
		// A type that writes or reads itself: its shape is its own business.
		return Schema{}
	case t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler):
		return Schema{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Bool:
		return Schema{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return Schema{"type": "integer", "format": "int64"}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return Schema{"type": "integer", "format": "int32"}
	case reflect.Float32:
		return Schema{"type": "number", "format": "float"}
	case reflect.Float64:
		return Schema{"type": "number", "format": "double"}
	case reflect.String:
		return Schema{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return Schema{"type": "string", "contentEncoding": "base64"}
		}
		return Schema{"type": "array", "items": r.schemaOf(t.Elem())}
	case reflect.Map:
		return Schema{"type": "object", "additionalProperties": r.schemaOf(t.Elem())}
	case reflect.Struct:
		if t.Name() == "" {
			return r.structSchema(t)
		}
		return r.ref(t)
	}
	// Interfaces (any) and anything else hold whatever JSON value.
	return Schema{}
}

// ref returns a reference to t's component, describing t on first sight.
func (r *reflector) ref(t reflect.Type) Schema {
	name, ok := r.names[t]
	if !ok {
		name = componentName(t)
		r.names[t] = name
		r.components[name] = Schema{} // taken before recursing: types may refer to themselves
		r.components[name] = r.structSchema(t)
	}
	return Schema{"$ref": "#/components/schemas/" + name}
}

// componentName names t by its package and type, without the parts every
// package shares, so that httpapi.listAnswer of two modules stay apart:
// news.httpapi.listAnswer, news.Entry, web.Problem.
func componentName(t reflect.Type) string {
	var parts []string
	for _, p := range strings.Split(strings.TrimPrefix(t.PkgPath(), modulePathPrefix), "/") {
		if !droppedPathParts[p] && p != "" {
			parts = append(parts, p)
		}
	}
	parts = append(parts, t.Name())
	return unsafeNameChars.ReplaceAllString(strings.Join(parts, "."), "_")
}

// structSchema lists t's fields as encoding/json sees them: the json tag's
// name, "-" left out, embedded structs' fields raised, and a field required
// unless it is a pointer or omitempty/omitzero.
func (r *reflector) structSchema(t reflect.Type) Schema {
	props := Schema{}
	var required []string
	r.fields(t, props, &required)
	s := Schema{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func (r *reflector) fields(t reflect.Type, props Schema, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				r.fields(ft, props, required)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := r.schemaOf(ft)
		if hasOpt(opts, "string") {
			s = Schema{"type": "string"}
		}
		omitted := hasOpt(opts, "omitempty") || hasOpt(opts, "omitzero")
		if ft.Kind() == reflect.Pointer && !omitted {
			// encoding/json writes a nil pointer as null unless told to
			// leave it out; clients must expect the null.
			s = nullable(s)
		}
		props[name] = s
		if ft.Kind() != reflect.Pointer && !omitted {
			*required = append(*required, name)
		}
	}
}

// nullable returns s admitting null as well: a type list for a plain
// type, anyOf for a reference. A schema of anything admits null already.
func nullable(s Schema) Schema {
	switch t := s["type"].(type) {
	case string:
		n := maps.Clone(s)
		n["type"] = []string{t, "null"}
		return n
	case nil:
		if len(s) == 0 {
			return s
		}
	}
	return Schema{"anyOf": []Schema{s, {"type": "null"}}}
}

func hasOpt(opts, want string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}
