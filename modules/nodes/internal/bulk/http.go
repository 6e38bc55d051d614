package bulk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// BodyLimit is the body limit of an import route: a file at its limit
// with room for a multipart envelope.
const BodyLimit = MaxBytes + 64<<10

// ReadUpload takes an imported file from a multipart form (field "file")
// or, for tools, the raw request body (CSV text or an XLSX workbook).
func ReadUpload(r *http.Request) ([]byte, error) {
	var src io.Reader = r.Body
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType == "multipart/form-data" {
		if err := r.ParseMultipartForm(BodyLimit); err != nil {
			return nil, uploadError(err)
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			return nil, errs.New(errs.Invalid, nodes.IDImportNoFile)
		}
		defer f.Close()
		src = f
	}
	if src == nil {
		return nil, errs.New(errs.Invalid, nodes.IDImportNoFile)
	}
	data, err := io.ReadAll(io.LimitReader(src, MaxBytes+1))
	if err != nil {
		return nil, uploadError(err)
	}
	if len(data) > MaxBytes {
		return nil, tooLarge()
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errs.New(errs.Invalid, nodes.IDImportNoFile)
	}
	return data, nil
}

func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || strings.Contains(err.Error(), "too large") {
		return tooLarge()
	}
	return errs.New(errs.Invalid, nodes.IDImportNoFile).Wrap(err)
}

// ServeExport answers the export of a company's nodes in format: a file
// to download, named for the day.
func ServeExport(w http.ResponseWriter, r *http.Request, s *Service, companyID int64, format string) error {
	if format == "" {
		format = FormatXLSX
	}
	var buf bytes.Buffer
	if err := s.Export(r.Context(), companyID, format, &buf); err != nil {
		return err
	}
	ct := "text/csv; charset=utf-8"
	if format == FormatXLSX {
		ct = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="nodes-%s.%s"`, time.Now().UTC().Format("2006-01-02"), format))
	_, err := w.Write(buf.Bytes())
	return err
}
