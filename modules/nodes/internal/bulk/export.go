package bulk

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Export writes the company's nodes, by name, in the import's columns as
// format (FormatCSV or FormatXLSX): a node's application by name (by id
// when another application has its name), its profile when there are
// profiles, and a label column for each key that has a label on a node.
// Imported again, the file changes nothing.
func (s *Service) Export(ctx context.Context, companyID int64, format string, w io.Writer) error {
	if format != FormatCSV && format != FormatXLSX {
		return errs.New(errs.Invalid, nodes.IDImportFileType)
	}
	cn, err := s.reg.CompanyNodes(ctx, companyID)
	if err != nil {
		return err
	}
	profiles := s.Profiles()
	var ofNodes map[int64]nodes.ProfileRef
	if profiles != nil {
		if ofNodes, err = profiles.ProfilesOfNodes(ctx, companyID); err != nil {
			return err
		}
	}
	apps := map[int64]string{}
	named := map[string]int{}
	for _, a := range cn.Applications {
		named[strings.ToLower(strings.TrimSpace(a.Name))]++
	}
	for _, a := range cn.Applications {
		apps[a.ID] = a.Name
		if named[strings.ToLower(strings.TrimSpace(a.Name))] > 1 || strings.TrimSpace(a.Name) == "" {
			apps[a.ID] = strconv.FormatInt(a.ID, 10)
		}
	}
	var labelled []string
	for _, keys := range cn.Keys {
		for name, k := range keys {
			if k.Label != "" && !slices.Contains(labelled, name) {
				labelled = append(labelled, name)
			}
		}
	}
	slices.Sort(labelled)

	header := []string{colName, colDevEUI, colJoinEUI, colAppKey, colApplication}
	if profiles != nil {
		header = append(header, colProfile)
	}
	header = append(header, colDecoder, colLatitude, colLongitude)
	for _, k := range labelled {
		header = append(header, labelPrefix+k)
	}
	rows := make([][]string, 0, len(cn.Tags))
	for _, t := range cn.Tags {
		r := []string{t.Name, t.DevEUI, t.AppEUI, t.AppKey, apps[t.ApplicationID]}
		if profiles != nil {
			r = append(r, ofNodes[t.ID].Name)
		}
		r = append(r, t.Decoder, formatNumber(t.Lat), formatNumber(t.Long))
		for _, k := range labelled {
			r = append(r, cn.Keys[t.ID][k].Label)
		}
		rows = append(rows, r)
	}
	return writeSheet(w, format, header, rows)
}

func formatNumber(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}
