package web

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// IDBadForm is the message of a posted body that is not a form.
const IDBadForm = "error.badForm"

// ReadForm parses a posted urlencoded form. A body that cannot be read as one
// is a 400, or a 413 when it is over the route's limit, never a 500.
func ReadForm(r *http.Request) (url.Values, error) {
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		return nil, errs.New(errs.Invalid, IDBadForm).Wrap(err)
	}
	return r.PostForm, nil
}

// FormValue returns a pointer to the value of a posted field, or nil when the
// form does not carry it, so that an update leaves absent fields alone as the
// API does.
func FormValue(vals url.Values, name string) *string {
	if _, ok := vals[name]; !ok {
		return nil
	}
	v := vals.Get(name)
	return &v
}
