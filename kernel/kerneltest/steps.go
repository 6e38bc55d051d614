package kerneltest

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Step is one call of a step test and what its answer must hold. The steps
// of a test run in order on one portal, each seeing what the ones before
// stored, so that a table reads as the story of what a user does. E is the
// test's own env, which Before and Then get.
type Step[E any] struct {
	// Name names the step's subtest.
	Name string
	// As is the caller, a name in the session's Tokens ("" for a visitor).
	As string
	// Method and Path are the call's; Body is its JSON body ("" for none)
	// and Lang its Accept-Language ("" for none). Placeholders in Path and
	// Body are filled.
	Method, Path, Body, Lang string
	// Status is the answer's status.
	Status int
	// ID is the id of the error answer ("" to leave it unchecked).
	ID string
	// Fields are field names to the one error id the answer's errorIds must
	// give each.
	Fields map[string]string
	// Texts are field names to the first error text the answer's errors
	// must give each; the field "" stands for the answer's message.
	Texts map[string]string
	// Want are entries the answer must hold. A key is looked up whole in
	// the answer first, and only when the answer has no such entry as a
	// dotted path ("modules.0.title"), so that keys with a dot, such as
	// "position.lat", keep working. A string value has its placeholders
	// filled; one that is a lone placeholder of a number stands for the
	// number.
	Want map[string]any
	// Absent are entries the answer must not hold.
	Absent []string
	// Exact says that the answer holds nothing but Want.
	Exact bool
	// Whole, when not nil, is the whole answer.
	Whole any
	// List says that the answer is a list of Items entries.
	List  bool
	Items int
	// Save are placeholders to the entries of the answer (looked up as
	// Want's keys are) whose values, numbers or strings, they stand for
	// from this step on.
	Save map[string]string
	// Before runs before the call; Then after the checks, with the decoded
	// answer.
	Before func(t *testing.T, e E)
	Then   func(t *testing.T, e E, got any)
}

// RunSteps runs steps in order as subtests, calling the API through s, and
// stops after a step that failed: the later ones build on it.
func RunSteps[E any](t *testing.T, s *Session, e E, steps []Step[E]) {
	t.Helper()
	for _, tc := range steps {
		ok := t.Run(tc.Name, func(t *testing.T) {
			if tc.Before != nil {
				tc.Before(t, e)
			}
			status, raw := s.Do(t, tc.As, tc.Method, tc.Path, tc.Body, tc.Lang)
			if status != tc.Status {
				t.Fatalf("status %d, want %d: %s", status, tc.Status, raw)
			}
			var got any
			if len(raw) > 0 {
				if err := json.Unmarshal(raw, &got); err != nil {
					t.Fatalf("decode %s: %v", raw, err)
				}
			}
			checkAnswer(t, s, tc, got)
			for placeholder, key := range tc.Save {
				switch v := entry(got, key).(type) {
				case float64:
					s.IDs[placeholder] = strconv.FormatInt(int64(v), 10)
				case string:
					s.IDs[placeholder] = v
				default:
					t.Fatalf("answer has no %s to save: %s", key, raw)
				}
			}
			if tc.Then != nil {
				tc.Then(t, e, got)
			}
		})
		if !ok {
			return
		}
	}
}

// checkAnswer fails the test for each thing of step the answer got lacks.
func checkAnswer[E any](t *testing.T, s *Session, step Step[E], got any) {
	t.Helper()
	obj, _ := got.(map[string]any)
	if step.ID != "" && obj["id"] != step.ID {
		t.Errorf("id %v, want %s (answer %v)", obj["id"], step.ID, obj)
	}
	for f, id := range step.Fields {
		ids, _ := obj["errorIds"].(map[string]any)
		if !reflect.DeepEqual(ids[f], []any{id}) {
			t.Errorf("errorIds[%s] = %v, want [%s] (answer %v)", f, ids[f], id, obj)
		}
	}
	for f, text := range step.Texts {
		var msg any = obj["message"]
		if f != "" {
			msgs, _ := obj["errors"].(map[string]any)
			list, _ := msgs[f].([]any)
			msg = nil
			if len(list) > 0 {
				msg = list[0]
			}
		}
		if msg != text {
			t.Errorf("message of %q = %v, want %q", f, msg, text)
		}
	}
	for k, v := range step.Want {
		if str, ok := v.(string); ok {
			v = s.Fill(str)
			if n, err := strconv.ParseFloat(v.(string), 64); err == nil && strings.HasPrefix(str, "{") && strings.HasSuffix(str, "}") {
				v = n
			}
		}
		if g := entry(got, k); !reflect.DeepEqual(g, v) {
			t.Errorf("%s = %#v, want %#v", k, g, v)
		}
	}
	for _, k := range step.Absent {
		if _, ok := obj[k]; ok {
			t.Errorf("answer holds %s: %v", k, obj)
		}
	}
	if step.Exact && len(obj) != len(step.Want) {
		t.Errorf("answer %v has other entries than %v", obj, step.Want)
	}
	if step.Whole != nil && !reflect.DeepEqual(got, step.Whole) {
		t.Errorf("answer %#v\nwant %#v", got, step.Whole)
	}
	if step.List {
		list, ok := got.([]any)
		if !ok || len(list) != step.Items {
			t.Errorf("answer %v, want a list of %d", got, step.Items)
		}
	}
}

// entry returns the entry key of a decoded answer: the object's entry of
// that name when it has one, else the one at key as a dotted path.
func entry(v any, key string) any {
	if obj, ok := v.(map[string]any); ok {
		if x, ok := obj[key]; ok {
			return x
		}
	}
	return At(v, key)
}

// At returns the value at a dotted path ("modules.0.title") of a decoded
// JSON answer, nil when there is none; "" is the whole answer.
func At(v any, path string) any {
	if path == "" {
		return v
	}
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// AppSteps are the steps that make, as the CompanyAdmins of Companies'
// acme and beta, the applications {app} ("Fields") and {app2} ("Barns") of
// Acme and {betaApp} ("Beta fields") of Beta.
func AppSteps[E any]() []Step[E] {
	return []Step[E]{
		{Name: "application", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"Fields"}`, Status: 201,
			Save: map[string]string{"{app}": "id"}},
		{Name: "second application", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}", Body: `{"name":"Barns"}`, Status: 201,
			Save: map[string]string{"{app2}": "id"}},
		{Name: "Beta's application", As: "betaAdmin", Method: "POST", Path: "/api/applications/{beta}", Body: `{"name":"Beta fields"}`, Status: 201,
			Save: map[string]string{"{betaApp}": "id"}},
	}
}

// TagSteps are AppSteps, then the steps that make a tag {tag} ("Door",
// devEUI) in {app} and a tag {betaTag} ("Gate", betaDevEUI) in {betaApp}.
func TagSteps[E any](devEUI, betaDevEUI string) []Step[E] {
	return append(AppSteps[E](),
		Step[E]{Name: "tag", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{app}/tag", Body: `{"name":"Door","deveui":"` + devEUI + `"}`,
			Status: 201, Save: map[string]string{"{tag}": "id"}},
		Step[E]{Name: "Beta's tag", As: "betaAdmin", Method: "POST", Path: "/api/applications/{betaApp}/tag", Body: `{"name":"Gate","deveui":"` + betaDevEUI + `"}`,
			Status: 201, Save: map[string]string{"{betaTag}": "id"}},
	)
}
