package core

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
)

// builtin is one codec of the built-in catalog.
type builtin struct {
	Entry
	Devices string
	Source  string // the codec's JavaScript; "" for raw, which is Go
}

// header matches one "// @name value" line at the top of a codec.
var header = regexp.MustCompile(`^//\s*@(key|name|devices|source)\s+(.+?)\s*$`)

// validBuiltinKey is the spelling of a built-in key: it names the file.
var validBuiltinKey = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*$`)

// loadCatalog reads the built-in codecs of fsys (<key>.js files, possibly
// under one directory) and adds raw. A codec whose @key does not match its
// file name, or that has no @name, is a programming error: New panics on it,
// and the catalog's own test names the file.
func loadCatalog(fsys fs.FS) (map[string]*builtin, []Entry, error) {
	files, err := fs.Glob(fsys, "*/*.js")
	if err != nil {
		return nil, nil, err
	}
	top, err := fs.Glob(fsys, "*.js")
	if err != nil {
		return nil, nil, err
	}
	files = append(files, top...)
	byKey := map[string]*builtin{Raw: {Entry: Entry{Key: Raw, Name: rawName}}}
	for _, f := range files {
		if path.Base(path.Dir(f)) == LibDir {
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
		if b.Source, err = ResolveSource(fsys, f); err != nil {
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
	list := make([]Entry, 0, len(byKey))
	for _, b := range byKey {
		list = append(list, b.Entry)
	}
	sortEntries(list)
	return byKey, list, nil
}

// LibDir is the folder, beside the codecs, of the family libraries that a
// codec names in "// @include <family>" header lines: lib/<family>.js, a
// classic script of helper functions shared by the codecs of one family.
const LibDir = "lib"

// include matches one "// @include family" line of a codec's header.
var include = regexp.MustCompile(`^//\s*@include\s+(.+?)\s*$`)

// ResolveSource gives the effective source of the codec file of fsys: the
// text of each library its header names with "// @include <family>" (in
// header order, each from LibDir beside the file, each followed by "\n"),
// then the codec's own text. A codec without @include lines is its own
// text. Everything that runs a built-in codec resolves it here.
func ResolveSource(fsys fs.FS, file string) (string, error) {
	src, err := fs.ReadFile(fsys, file)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", file, err)
	}
	var b strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimRight(line, "\r")
		if !strings.HasPrefix(line, "//") {
			break
		}
		m := include.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if !validBuiltinKey.MatchString(m[1]) {
			return "", fmt.Errorf("%s: @include %q is not a library name (lower case letters, digits and _)", file, m[1])
		}
		lib, err := fs.ReadFile(fsys, path.Join(path.Dir(file), LibDir, m[1]+".js"))
		if err != nil {
			return "", fmt.Errorf("%s: @include %s: %w", file, m[1], err)
		}
		b.Write(lib)
		b.WriteString("\n")
	}
	b.Write(src)
	return b.String(), nil
}

// parseHeader reads the @ lines of the comment block a codec starts with.
func parseHeader(src string) (*builtin, error) {
	b := &builtin{Source: src}
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
	case !validBuiltinKey.MatchString(b.Key):
		return nil, fmt.Errorf("no valid @key line (lower case letters, digits and _)")
	case b.Name == "":
		return nil, fmt.Errorf("no @name line")
	}
	return b, nil
}

// sortEntries orders a list by name, as people look for a decoder, then by
// key for equal names.
func sortEntries(list []Entry) {
	slices.SortStableFunc(list, func(a, b Entry) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
}
