package validate

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
)

var (
	colorPattern = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
	iconPattern  = regexp.MustCompile(`^mdi-[a-z0-9]+(-[a-z0-9]+)*$`)
)

// CategoryInput is the body of POST and PUT /dashboards/categories.
type CategoryInput struct {
	Title      *string `json:"title"`
	Icon       *string `json:"icon"`
	Color      *string `json:"color"`
	ParentGUID *string `json:"parentGuid"`
}

// Apply validates in and sets its values on c; a missing icon or colour
// keeps c's (the defaults for a new category).
func (in *CategoryInput) Apply(c *dashboards.Category) error {
	v := errs.Validation{}
	title := ""
	if in.Title != nil {
		title = strings.TrimSpace(*in.Title)
	}
	switch {
	case title == "":
		v.Add("title", errs.IDRequired)
	case utf8.RuneCountInString(title) > 255:
		v.Add("title", errs.IDMaxChars255)
	}
	c.Title = title
	if in.Icon != nil && *in.Icon != "" {
		if !iconPattern.MatchString(*in.Icon) || len(*in.Icon) > 64 {
			v.Add("icon", dashboards.IDIcon)
		}
		c.Icon = *in.Icon
	}
	if in.Color != nil && *in.Color != "" {
		if !colorPattern.MatchString(*in.Color) {
			v.Add("color", dashboards.IDColor)
		}
		c.Color = strings.ToUpper(*in.Color)
	}
	return v.Err()
}

// Category checks that a dashboard's category (if it has one) belongs to
// the dashboard's company; any other is a field error of categoryId.
func Category(ctx context.Context, idb bun.IDB, companyID int64, id *int64) error {
	if id == nil {
		return nil
	}
	c, err := store.Category(ctx, idb, *id)
	if err != nil || c.CompanyID != companyID {
		return FieldError("categoryId", dashboards.IDCategoryUnknown, err)
	}
	return nil
}

// FieldError reports a field error for a lookup that failed with not
// found (another company's id included); other failures pass through.
func FieldError(field, id string, cause error) error {
	if cause != nil && !errs.Is(cause, errs.NotFound) {
		return cause
	}
	v := errs.Validation{}
	v.Add(field, id)
	return v.Err()
}
