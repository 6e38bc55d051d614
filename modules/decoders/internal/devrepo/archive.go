package devrepo

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"
)

// MaxText bounds what an archive may unpack into: the YAML and JavaScript
// files of the repository (a few tens of MiB), never its photos, which are
// skipped. It keeps a crafted archive from filling the memory.
const MaxText = 128 << 20

// ErrArchive is the answer for data that is no .tar.gz or .zip archive, or
// one that does not unpack.
var ErrArchive = errors.New("not a .tar.gz or .zip archive")

// OpenArchive unpacks the YAML and JavaScript files of a .tar.gz or .zip
// archive (told apart by their first bytes) into memory.
func OpenArchive(data []byte) (fs.FS, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return openTarGz(data)
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return openZip(data)
	}
	return nil, ErrArchive
}

// wanted tells whether an archive's file is one the import reads.
func wanted(name string) (string, bool) {
	name = strings.TrimPrefix(path.Clean("/"+name), "/")
	if name == "" || strings.HasPrefix(name, "..") {
		return "", false
	}
	switch path.Ext(name) {
	case ".yaml", ".yml", ".js":
		return name, true
	}
	return "", false
}

func openTarGz(data []byte) (fs.FS, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrArchive, err)
	}
	out := fstest.MapFS{}
	total := 0
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArchive, err)
		}
		name, ok := wanted(h.Name)
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, int64(MaxText-total)+1))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArchive, err)
		}
		if total += len(b); total > MaxText {
			return nil, fmt.Errorf("%w: more than %d MiB of text", ErrArchive, MaxText>>20)
		}
		out[name] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
}

func openZip(data []byte) (fs.FS, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrArchive, err)
	}
	out := fstest.MapFS{}
	total := 0
	for _, f := range zr.File {
		name, ok := wanted(f.Name)
		if !ok || f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArchive, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, int64(MaxText-total)+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArchive, err)
		}
		if total += len(b); total > MaxText {
			return nil, fmt.Errorf("%w: more than %d MiB of text", ErrArchive, MaxText>>20)
		}
		out[name] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	return out, nil
}
