package decoders

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// catalogFS holds the built-in codecs, <key>.js with its header, and the
// family libraries they include, lib/<family>.js.
//
//go:embed catalog/*.js catalog/lib/*.js
var catalogFS embed.FS

// CatalogFS holds the built-in codecs as the module loads them: catalog/
// with <key>.js files and the family libraries under catalog/lib.
func CatalogFS() fs.FS { return catalogFS }

// CatalogSource gives the effective source of the built-in codec key, as
// the module runs it: the text of the family libraries its header names
// with "// @include <family>" lines (catalog/lib/<family>.js, in header
// order, each followed by "\n"), then the text of catalog/<key>.js. Tests,
// tools and the module itself run built-in codecs through it only;
// catalog/check-vectors.mjs resolves includes the same way.
func CatalogSource(key string) (string, error) {
	if key == Raw || strings.ContainsAny(key, "/\\.") || key == "" {
		return "", fmt.Errorf("%q is not a built-in JavaScript codec", key)
	}
	return ResolveSource(catalogFS, path.Join("catalog", key+".js"))
}

// LibDir is the folder, beside the codecs, of the family libraries that a
// codec names in "// @include <family>" header lines: lib/<family>.js, a
// classic script of helper functions shared by the codecs of one family.
const LibDir = "lib"

// include matches one "// @include family" line of a codec's header.
var include = regexp.MustCompile(`^//\s*@include\s+(.+?)\s*$`)

// libraryName is the spelling of a family library's name, as of a
// built-in key: lower-case letters, digits and _.
var libraryName = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*$`)

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
		if !libraryName.MatchString(m[1]) {
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
