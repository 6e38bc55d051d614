// Package errs defines the domain errors that every module returns and that
// the web layer maps to HTTP in one place.
//
// An error carries a Kind (what went wrong, which decides the HTTP status) and
// a message ID, which is also the key of the user-facing text in the locale
// catalogs. Validation errors carry one message ID per offending field.
package errs

import (
	"errors"
	"fmt"
)

// Kind classifies an error for the caller; it decides the HTTP status.
type Kind int

// The kinds of domain error.
const (
	Internal     Kind = iota // a bug or an unavailable dependency: 500
	Invalid                  // bad input: 400
	Unauthorized             // no or bad credentials: 401
	Forbidden                // authenticated but not allowed: 403
	NotFound                 // no such thing, or not visible to the caller: 404
	Conflict                 // clashes with existing state: 409
	TooLarge                 // body over the limit: 413
	TooMany                  // rate limited: 429
	Unavailable              // a required service is down: 503
	Unsupported              // a body of a type the route does not take: 415
)

// Error is a domain error. Its ID is a locale catalog key; Args fill the
// placeholders of that message. Text, when set, is shown as is (the spec passes
// some server texts straight to the caller).
type Error struct {
	Kind   Kind
	ID     string
	Args   map[string]any
	Fields []FieldError
	Err    error
}

// FieldError names one invalid field and the catalog key of its message.
type FieldError struct {
	Field string
	ID    string
	Args  map[string]any
}

func (e *Error) Error() string {
	msg := e.ID
	if len(e.Fields) > 0 {
		msg = fmt.Sprintf("%s %v", e.ID, e.Fields)
	}
	if e.Err != nil {
		return msg + ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error of the given kind with a catalog message ID.
func New(kind Kind, id string) *Error { return &Error{Kind: kind, ID: id} }

// With returns a copy of e with message arguments added.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Args = map[string]any{}
	for k, v := range e.Args {
		c.Args[k] = v
	}
	c.Args[key] = value
	return &c
}

// Wrap returns a copy of e that wraps cause, for logs; the caller still sees
// only the message of e.
func (e *Error) Wrap(cause error) *Error {
	c := *e
	c.Err = cause
	return &c
}

// KindOf reports the kind of err; errors that are not domain errors are Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// Is reports whether err is a domain error of the given kind.
func Is(err error, kind Kind) bool { return err != nil && KindOf(err) == kind }

// Generic message IDs used across modules.
const (
	IDGeneric       = "error.generic"
	IDNotFound      = "error.notFound"
	IDForbidden     = "error.forbidden"
	IDUnauthorized  = "error.unauthorized"
	IDBadJSON       = "error.badJson"
	IDTooLarge      = "error.tooLarge"
	IDBadID         = "error.badId"
	IDRequired      = "validation.required"
	IDTooLong       = "validation.tooLong"
	IDMaxChars255   = "validation.max255"
	IDValidation    = "validation.failed"
	IDMethod        = "error.methodNotAllowed"
	IDUnavailable   = "error.unavailable"
	IDTooManyLogins = "accounts.login.tooMany"
)

// Validation collects field errors; its Err returns nil while it is empty, so
// a handler can check every field and report all problems at once.
type Validation struct{ fields []FieldError }

// Add records that field is invalid with the given message ID.
func (v *Validation) Add(field, id string) {
	v.fields = append(v.fields, FieldError{Field: field, ID: id})
}

// AddArgs records an invalid field whose message has placeholders.
func (v *Validation) AddArgs(field, id string, args map[string]any) {
	v.fields = append(v.fields, FieldError{Field: field, ID: id, Args: args})
}

// Has reports whether field already has an error, so that later checks on the
// same field can be skipped.
func (v *Validation) Has(field string) bool {
	for _, f := range v.fields {
		if f.Field == field {
			return true
		}
	}
	return false
}

// Err returns the collected errors as one Invalid error, or nil.
func (v *Validation) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return &Error{Kind: Invalid, ID: v.fields[0].ID, Args: v.fields[0].Args, Fields: v.fields}
}
