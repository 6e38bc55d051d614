// Package catalog reads the built-in decoders: the JavaScript codecs of
// decoders.CatalogFS, each with its header (@key, @name, @devices), and
// raw, which is Go. It is the list GET /api/decoder and the node forms
// show, and the sources the sandbox loads.
package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/fieldhub/fieldhub/modules/decoders"
)

// RawName is the name of raw in the list.
const RawName = "Raw payload (hex)"

// Builtin is one codec of the built-in catalog.
type Builtin struct {
	decoders.Entry
	Devices string
	Source  string // the codec's JavaScript, libraries included; "" for raw, which is Go
}

// header matches one "// @name value" line at the top of a codec.
var header = regexp.MustCompile(`^//\s*@(key|name|devices|source)\s+(.+?)\s*$`)

// validKey is the spelling of a built-in key: it names the file.
var validKey = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*$`)

// Load reads the built-in codecs of fsys (<key>.js files, possibly under
// one directory) and adds raw; it returns them by key and their entries by
// name. A codec whose @key does not match its file name, or that has no
// @name, is a programming error: the module panics on it, and the
// catalog's own test names the file.
func Load(fsys fs.FS) (map[string]*Builtin, []decoders.Entry, error) {
	files, err := fs.Glob(fsys, "*/*.js")
	if err != nil {
		return nil, nil, err
	}
	top, err := fs.Glob(fsys, "*.js")
	if err != nil {
		return nil, nil, err
	}
	files = append(files, top...)
	byKey := map[string]*Builtin{decoders.Raw: {Entry: decoders.Entry{Key: decoders.Raw, Name: RawName}}}
	for _, f := range files {
		if path.Base(path.Dir(f)) == decoders.LibDir {
			continue // a family library, not a codec
		}
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", f, err)
		}
		b, err := parseHeader(string(src))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		if b.Source, err = decoders.ResolveSource(fsys, f); err != nil {
			return nil, nil, err
		}
		if want := strings.TrimSuffix(path.Base(f), ".js"); b.Key != want {
			return nil, nil, fmt.Errorf("%s: @key %q is not the file's name %q", f, b.Key, want)
		}
		if _, dup := byKey[b.Key]; dup {
			return nil, nil, fmt.Errorf("%s: key %q twice", f, b.Key)
		}
		byKey[b.Key] = b
	}
	list := make([]decoders.Entry, 0, len(byKey))
	for _, b := range byKey {
		list = append(list, b.Entry)
	}
	Sort(list)
	return byKey, list, nil
}

// parseHeader reads the @ lines of the comment block a codec starts with.
func parseHeader(src string) (*Builtin, error) {
	b := &Builtin{Source: src}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, "\r")
		if !strings.HasPrefix(line, "//") {
			break
		}
		m := header.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch m[1] {
		case "key":
			b.Key = m[2]
		case "name":
			b.Name = m[2]
		case "devices":
			b.Devices = m[2]
		case "source":
			// The document is for docs/decoders.md, not for the list.
		}
	}
	switch {
	case !validKey.MatchString(b.Key):
		return nil, fmt.Errorf("no valid @key line (lower case letters, digits and _)")
	case b.Name == "":
		return nil, fmt.Errorf("no @name line")
	}
	return b, nil
}

// Sort orders a list by name, as people look for a decoder, then by key
// for equal names.
func Sort(list []decoders.Entry) {
	slices.SortStableFunc(list, func(a, b decoders.Entry) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
}
