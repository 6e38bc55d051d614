package registry

import (
	"encoding/json"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Optional is a JSON field that tells "absent" (Set false) from null (Set,
// Value nil), so that an update can clear a value.
type Optional[T any] struct {
	Set   bool
	Value *T
}

// UnmarshalJSON notes that the field was given, and its value.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Value = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	o.Value = &v
	return nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// AddField adds a field error to err, a validation error or nil.
func AddField(err error, field, id string) error {
	v := errs.Validation{}
	if e, ok := err.(*errs.Error); ok {
		for _, f := range e.Fields {
			v.AddArgs(f.Field, f.ID, f.Args)
		}
	}
	v.Add(field, id)
	return v.Err()
}

// HasField tells whether a validation error names field.
func HasField(err error, field string) bool {
	if e, ok := err.(*errs.Error); ok {
		for _, f := range e.Fields {
			if f.Field == field {
				return true
			}
		}
	}
	return false
}

// MergeFields adds the field errors of b to those of a, once per field.
func MergeFields(a, b error) error {
	v := errs.Validation{}
	seen := map[string]bool{}
	for _, err := range []error{a, b} {
		if e, ok := err.(*errs.Error); ok {
			for _, f := range e.Fields {
				if !seen[f.Field] {
					seen[f.Field] = true
					v.AddArgs(f.Field, f.ID, f.Args)
				}
			}
		}
	}
	return v.Err()
}
