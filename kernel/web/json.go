package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// JSON writes v with the given status.
func JSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// OK writes v with 200; Created with 201.
func OK(w http.ResponseWriter, v any) error      { JSON(w, http.StatusOK, v); return nil }
func Created(w http.ResponseWriter, v any) error { JSON(w, http.StatusCreated, v); return nil }

// NoContent answers 204.
func NoContent(w http.ResponseWriter) error { w.WriteHeader(http.StatusNoContent); return nil }

// IDJSONContentType is the message of a JSON body sent with a session
// cookie under another content type.
const IDJSONContentType = "error.jsonContentType"

// Decode reads r's JSON body into v. Malformed JSON, a value of the wrong type,
// trailing data and an over-long body become 4xx errors that say which.
//
// A request authenticated by a session cookie must say its body is JSON
// (Content-Type: application/json), else it is refused with 415: a form on
// another site can post text/plain that reads as JSON, but cannot set that
// content type without the portal's consent (CORS). Clients with an
// Authorization header may leave the type out.
func Decode(r *http.Request, v any) error {
	if cookieAuthenticated(r) && !isJSON(r.Header.Get("Content-Type")) {
		return errs.New(errs.Unsupported, IDJSONContentType)
	}
	if r.Body == nil {
		return errs.New(errs.Invalid, errs.IDBadJSON)
	}
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return decodeError(err)
		}
		return errs.New(errs.Invalid, errs.IDBadJSON)
	}
	return nil
}

// cookieAuthenticated reports whether r's caller was recognised by a cookie:
// r carries cookies and no Authorization header, and has a caller.
func cookieAuthenticated(r *http.Request) bool {
	return infoOf(r.Context()).cookies && auth.CallerFrom(r.Context()).Role != auth.Guest
}

// isJSON reports whether a Content-Type is JSON: application/json or a
// +json type, with any parameters.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

func decodeError(err error) error {
	var tooBig *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return errs.New(errs.TooLarge, errs.IDTooLarge).With("limit", tooBig.Limit)
	case errors.As(err, &typeErr) && typeErr.Field != "":
		v := errs.Validation{}
		v.AddArgs(typeErr.Field, "error.badJsonType", map[string]any{"field": typeErr.Field, "type": jsonType(typeErr.Type.Kind().String())})
		return v.Err()
	default:
		return errs.New(errs.Invalid, errs.IDBadJSON).Wrap(err)
	}
}

func jsonType(goKind string) string {
	switch {
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"), strings.HasPrefix(goKind, "float"):
		return "number"
	case goKind == "bool":
		return "boolean"
	case goKind == "string":
		return "string"
	case goKind == "slice", goKind == "array":
		return "array"
	}
	return "object"
}

// PathID returns the path value name as a positive integer id; anything else
// is a 400.
func PathID(r *http.Request, name string) (int64, error) {
	raw := r.PathValue(name)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
	}
	return id, nil
}

func toString(v any) string { return fmt.Sprint(v) }
