package core

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// maxImageBytes bounds a tag's picture, as it does a company logo.
const maxImageBytes = 2 << 20

// imageTypes are the accepted picture formats, as sniffed from the bytes (the
// declared type is not trusted). SVG is refused: it can carry scripts.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

type tagImage struct {
	bun.BaseModel `bun:"table:tag_images"`
	TagID         int64  `bun:"tag_id,pk"`
	ContentType   string `bun:"content_type"`
	Data          []byte `bun:"data"`
	Version       string `bun:"version"`
}

// readImage takes the upload from a multipart form (field "file" or "image")
// or, for API clients, the raw request body.
func readImage(r *http.Request) ([]byte, error) {
	var src io.Reader = r.Body
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType == "multipart/form-data" {
		if err := r.ParseMultipartForm(maxImageBytes); err != nil {
			return nil, uploadError(err)
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			f, _, err = r.FormFile("image")
		}
		if err != nil {
			return nil, errs.New(errs.Invalid, msgImageMissing)
		}
		defer f.Close()
		src = f
	}
	data, err := io.ReadAll(io.LimitReader(src, maxImageBytes+1))
	if err != nil {
		return nil, uploadError(err)
	}
	if len(data) > maxImageBytes {
		return nil, errs.New(errs.TooLarge, msgImageTooLarge).With("max", maxImageBytes/1024)
	}
	if len(data) == 0 {
		return nil, errs.New(errs.Invalid, msgImageMissing)
	}
	return data, nil
}

func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || strings.Contains(err.Error(), "too large") {
		return errs.New(errs.TooLarge, msgImageTooLarge).With("max", maxImageBytes/1024)
	}
	return errs.New(errs.Invalid, msgImageMissing).Wrap(err)
}

// putTagImage answers POST /tag/{tagId}/image with the tag and its new
// image address.
func (m *Module) putTagImage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := m.pathTag(ctx, r, true)
	if err != nil {
		return err
	}
	data, err := readImage(r)
	if err != nil {
		return err
	}
	if t, err = m.storeTagImage(ctx, t, data); err != nil {
		return err
	}
	present(ctx, t)
	return web.OK(w, t)
}

// storeTagImage makes data the picture of t, a tag the caller manages, and
// returns the tag with its new image address. The API and the /tagdetails
// page both use it.
func (m *Module) storeTagImage(ctx context.Context, t *Tag, data []byte) (*Tag, error) {
	ct := http.DetectContentType(data)
	if !imageTypes[ct] {
		return nil, errs.New(errs.Invalid, msgImageType)
	}
	sum := sha256.Sum256(data)
	img := &tagImage{TagID: t.ID, ContentType: ct, Data: data, Version: hex.EncodeToString(sum[:8])}
	_, err := m.db.NewInsert().Model(img).
		On("CONFLICT (tag_id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version").
		Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("store tag image: %w", err)
	}
	return m.scopedTag(ctx, t.ID, true)
}

// deleteTagImage answers DELETE /tag/{tagId}/image.
func (m *Module) deleteTagImage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, true)
	if err != nil {
		return err
	}
	if err := m.removeTagImage(r.Context(), t); err != nil {
		return err
	}
	return web.NoContent(w)
}

// removeTagImage removes the picture of t, a tag the caller manages.
func (m *Module) removeTagImage(ctx context.Context, t *Tag) error {
	if _, err := m.db.NewDelete().Model((*tagImage)(nil)).Where("tag_id = ?", t.ID).Exec(ctx); err != nil {
		return fmt.Errorf("delete tag image: %w", err)
	}
	return nil
}

// getTagImage serves the picture. Its URL carries the version, so it may be
// cached.
func (m *Module) getTagImage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	img := new(tagImage)
	if err := m.db.NewSelect().Model(img).Where("tag_id = ?", t.ID).Scan(r.Context()); err != nil {
		if db.IsNoRows(err) {
			return errNotFound
		}
		return fmt.Errorf("load tag image: %w", err)
	}
	w.Header().Set("Content-Type", img.ContentType)
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("ETag", `"`+img.Version+`"`)
	http.ServeContent(w, r, "", t.UpdatedAt, bytes.NewReader(img.Data))
	return nil
}
