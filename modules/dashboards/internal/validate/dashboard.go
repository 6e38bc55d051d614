package validate

import (
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// DashboardInput is the body of POST and PUT /dashboards (a name and a
// category) and of POST /dashboards/{id}/duplicate (a name).
type DashboardInput struct {
	Name       *string `json:"name"`
	CategoryID *int64  `json:"categoryId"`
}

// TrimmedName returns the input's name without surrounding spaces; it must
// not be empty or longer than 255 characters.
func (in *DashboardInput) TrimmedName() (string, error) {
	name := ""
	if in.Name != nil {
		name = strings.TrimSpace(*in.Name)
	}
	v := errs.Validation{}
	switch {
	case name == "":
		v.Add("name", errs.IDRequired)
	case utf8.RuneCountInString(name) > 255:
		v.Add("name", errs.IDMaxChars255)
	}
	return name, v.Err()
}
