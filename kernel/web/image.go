package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Pictures people upload (a company logo, a node's photo) share one set of
// rules: at most MaxImageBytes, and PNG, JPEG, GIF or WebP as sniffed from the
// bytes, since the declared type is not to be trusted. SVG is refused: it can
// carry scripts.
const (
	MaxImageBytes = 2 << 20
	// ImageBodyLimit is the body limit of a route that takes one picture,
	// with room for a multipart envelope.
	ImageBodyLimit = MaxImageBytes + 64<<10
)

// Message IDs of picture uploads.
const (
	IDImageMissing  = "image.missing"
	IDImageType     = "image.type"
	IDImageTooLarge = "image.tooLarge"
)

var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// ReadImage takes an uploaded picture from a multipart form (field "file" or
// "image") or, for API clients, the raw request body, and returns it with its
// sniffed content type.
func ReadImage(r *http.Request) (data []byte, contentType string, err error) {
	var src io.Reader = r.Body
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType == "multipart/form-data" {
		if err := r.ParseMultipartForm(MaxImageBytes); err != nil {
			return nil, "", uploadError(err)
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			f, _, err = r.FormFile("image")
		}
		if err != nil {
			return nil, "", errs.New(errs.Invalid, IDImageMissing)
		}
		defer f.Close()
		src = f
	}
	data, err = io.ReadAll(io.LimitReader(src, MaxImageBytes+1))
	if err != nil {
		return nil, "", uploadError(err)
	}
	if len(data) > MaxImageBytes {
		return nil, "", tooLargeImage()
	}
	if len(data) == 0 {
		return nil, "", errs.New(errs.Invalid, IDImageMissing)
	}
	contentType, err = ImageType(data)
	return data, contentType, err
}

// ImageType returns the sniffed content type of an accepted picture.
func ImageType(data []byte) (string, error) {
	ct := http.DetectContentType(data)
	if !imageTypes[ct] {
		return "", errs.New(errs.Invalid, IDImageType)
	}
	return ct, nil
}

func tooLargeImage() error {
	return errs.New(errs.TooLarge, IDImageTooLarge).With("max", MaxImageBytes/1024)
}

func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || strings.Contains(err.Error(), "too large") {
		return tooLargeImage()
	}
	return errs.New(errs.Invalid, IDImageMissing).Wrap(err)
}

// ImageVersion names a picture's bytes: pictures are served at addresses
// that carry it, so a new picture gets a new address and the old one may be
// cached for good.
func ImageVersion(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// ServeImage sends a stored picture whose address carries its version
// (ImageVersion), so that browsers keep it for a year.
func ServeImage(w http.ResponseWriter, r *http.Request, contentType, version string, modTime time.Time, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("ETag", `"`+version+`"`)
	http.ServeContent(w, r, "", modTime, bytes.NewReader(data))
}
