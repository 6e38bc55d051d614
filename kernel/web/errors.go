package web

import (
	"errors"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// statusOf maps an error kind to its HTTP status. This is the one place where
// domain errors become HTTP.
var statusOf = map[errs.Kind]int{
	errs.Internal:     http.StatusInternalServerError,
	errs.Invalid:      http.StatusBadRequest,
	errs.Unauthorized: http.StatusUnauthorized,
	errs.Forbidden:    http.StatusForbidden,
	errs.NotFound:     http.StatusNotFound,
	errs.Conflict:     http.StatusConflict,
	errs.TooLarge:     http.StatusRequestEntityTooLarge,
	errs.TooMany:      http.StatusTooManyRequests,
	errs.Unavailable:  http.StatusServiceUnavailable,
	errs.Unsupported:  http.StatusUnsupportedMediaType,
}

// Problem is the JSON body of every error answer. Message is the text for
// people in the caller's language; ID is the catalog key, stable for programs.
// Errors and ErrorIDs list the messages per invalid field, in the shape
// ASP.NET's validation problems use, which existing clients read.
type Problem struct {
	Status    int                 `json:"status"`
	ID        string              `json:"id"`
	Message   string              `json:"message"`
	Errors    map[string][]string `json:"errors,omitempty"`
	ErrorIDs  map[string][]string `json:"errorIds,omitempty"`
	RequestID string              `json:"requestId,omitempty"`
}

// WriteError answers r with err. A domain error is shown with its message; any
// other error is logged and shown as the generic message, so that internals
// never leak.
func (rt *Router) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := asDomainError(err)
	status := statusOf[e.Kind]
	if e.Kind == errs.Internal || e.Kind == errs.Unavailable {
		rt.log.Error("request failed", "err", err, "route", routeOf(r.Context()), "request_id", infoOf(r.Context()).id)
	}
	rt.writeProblem(w, r, status, e)
}

func (rt *Router) writeProblem(w http.ResponseWriter, r *http.Request, status int, e *errs.Error) {
	lang := rt.Lang(r)
	p := Problem{Status: status, ID: e.ID, Message: rt.cat.T(lang, e.ID, e.Args), RequestID: infoOf(r.Context()).id}
	if len(e.Fields) > 0 {
		p.Errors = map[string][]string{}
		p.ErrorIDs = map[string][]string{}
		for _, f := range e.Fields {
			p.Errors[f.Field] = append(p.Errors[f.Field], rt.cat.T(lang, f.ID, f.Args))
			p.ErrorIDs[f.Field] = append(p.ErrorIDs[f.Field], f.ID)
		}
	}
	if status == http.StatusTooManyRequests {
		if after, ok := e.Args["retryAfter"]; ok {
			w.Header().Set("Retry-After", toString(after))
		}
	}
	JSON(w, status, p)
}

// asDomainError returns err as a domain error: an over-long body becomes
// TooLarge, and anything else that is not one becomes the generic Internal.
func asDomainError(err error) *errs.Error {
	var e *errs.Error
	if errors.As(err, &e) {
		return e
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errs.New(errs.TooLarge, errs.IDTooLarge).With("limit", tooBig.Limit)
	}
	return errs.New(errs.Internal, errs.IDGeneric).Wrap(err)
}

// StatusOf returns the HTTP status an error maps to.
func StatusOf(err error) int { return statusOf[asDomainError(err).Kind] }
