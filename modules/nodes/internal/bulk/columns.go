package bulk

import (
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// The columns of an import and an export. A header is matched whatever its
// case, spaces, dashes and underscores; the aliases are the names that
// network servers' and spreadsheets' exports use. A key's label is a column
// "label:<key>" (the key's name as the node reports it). Only devEUI is
// required: a column that is absent leaves that field of existing nodes as
// it is (and empty for new ones).
const (
	colName        = "name"
	colDevEUI      = "devEUI"
	colJoinEUI     = "joinEUI"
	colAppKey      = "appKey"
	colApplication = "application"
	colProfile     = "profile"
	colDecoder     = "decoder"
	colLatitude    = "latitude"
	colLongitude   = "longitude"
	labelPrefix    = "label:"
)

var columnAliases = map[string]string{
	"name": colName, "devname": colName, "nodename": colName,
	"deveui":  colDevEUI,
	"joineui": colJoinEUI, "appeui": colJoinEUI,
	"appkey":      colAppKey,
	"application": colApplication, "applicationid": colApplication, "app": colApplication,
	"profile": colProfile, "deviceprofile": colProfile,
	"decoder":  colDecoder,
	"latitude": colLatitude, "lat": colLatitude,
	"longitude": colLongitude, "long": colLongitude, "lon": colLongitude, "lng": colLongitude,
}

// layout is where a file's header puts each column.
type layout struct {
	at     map[string]int // column name → index
	labels []labelColumn  // in the header's order
}

type labelColumn struct {
	key   string
	index int
}

var headerStrip = strings.NewReplacer(" ", "", "_", "", "-", "")

// parseHeader reads a header row. An unnamed column is skipped; an unknown
// or repeated one refuses the file, so that a misspelt column is not
// silently left out.
func parseHeader(header []string) (*layout, error) {
	l := &layout{at: map[string]int{}}
	seen := map[string]bool{}
	for i, raw := range header {
		h := strings.TrimSpace(strings.TrimPrefix(raw, "\ufeff"))
		if h == "" {
			continue
		}
		var name string
		if len(h) > len(labelPrefix) && strings.EqualFold(h[:len(labelPrefix)], labelPrefix) {
			key := strings.TrimSpace(h[len(labelPrefix):])
			if !registry.ValidKey(key) {
				return nil, errs.New(errs.Invalid, nodes.IDImportUnknownColumn).With("column", h)
			}
			name = labelPrefix + key
			l.labels = append(l.labels, labelColumn{key: key, index: i})
		} else if name = columnAliases[strings.ToLower(headerStrip.Replace(h))]; name == "" {
			return nil, errs.New(errs.Invalid, nodes.IDImportUnknownColumn).With("column", h)
		} else {
			l.at[name] = i
		}
		if seen[name] {
			return nil, errs.New(errs.Invalid, nodes.IDImportRepeatedColumn).With("column", h)
		}
		seen[name] = true
	}
	if _, ok := l.at[colDevEUI]; !ok {
		return nil, errs.New(errs.Invalid, nodes.IDImportNoHeader)
	}
	return l, nil
}

// cell is the trimmed value of a column in a row, and whether the file
// has that column.
func (l *layout) cell(r row, column string) (string, bool) {
	i, ok := l.at[column]
	if !ok {
		return "", false
	}
	return cellAt(r, i), true
}

func cellAt(r row, i int) string {
	if i >= len(r.Cells) {
		return ""
	}
	return strings.TrimSpace(r.Cells[i])
}

// has tells whether the file has a column.
func (l *layout) has(column string) bool {
	_, ok := l.at[column]
	return ok
}
