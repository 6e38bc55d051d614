package devrepo

import (
	"io/fs"
	"path"
)

// Locate finds the vendor folder in fsys: fsys itself when it holds
// index.yaml, its vendor/ folder, or either of those under one top folder
// (an archive of a checkout, lorawan-devices-master/vendor). ok is false
// when there is none.
func Locate(fsys fs.FS) (vendorDir fs.FS, ok bool) {
	for _, dir := range candidates(fsys) {
		if _, err := fs.Stat(fsys, path.Join(dir, "index.yaml")); err == nil {
			if dir == "." {
				return fsys, true
			}
			sub, err := fs.Sub(fsys, dir)
			return sub, err == nil
		}
	}
	return nil, false
}

func candidates(fsys fs.FS) []string {
	list := []string{"vendor", "."}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return list
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) == 1 {
		list = append(list, path.Join(dirs[0], "vendor"), dirs[0])
	}
	return list
}
