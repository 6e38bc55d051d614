package kerneltest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/webapp/locales"
)

// modulePath is the Go module the walk resolves imports in.
const modulePath = "github.com/fieldhub/fieldhub"

// placeholder finds the names of a catalog text's placeholders: {name}, and
// the argument of an ICU form such as {count, plural, ...}.
var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\s*[,}]`)

// Placeholders walks the Go source under dirs (relative to the calling
// test's package, such as "."; test files and generated templ files
// aside) for the calls that turn a catalog message id into a text, and
// fails for each one that leaves a placeholder of the message unfilled, in
// English or Swedish: a field error added with Validation.Add (or the
// nodes module's AddField), which takes no arguments; Validation.AddArgs
// and Catalogs.T with a map literal; errs.New with its chained With calls;
// ui.Tf and the pages' t with name, value pairs. A call whose arguments are
// not literal here (a map built elsewhere) is not judged. Ids are message
// ids written as string literals or as string constants of any package of
// the module. It returns how many calls it judged, so that a test can tell
// that the walk found something.
func Placeholders(tb testing.TB, dirs ...string) int {
	tb.Helper()
	cats, err := i18n.Load(locales.FS)
	if err != nil {
		tb.Fatal(err)
	}
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	w := &placeholderWalk{tb: tb, fset: token.NewFileSet(), root: root, needs: map[string][]string{}, consts: map[string]string{}}
	for _, lang := range cats.Languages() {
		for _, id := range cats.Keys(lang) {
			w.addNeeds(id, cats.T(lang, id, nil))
		}
	}
	if err := w.readConstants(); err != nil {
		tb.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for _, dir := range dirs {
		if err := w.walkDir(filepath.Join(wd, dir)); err != nil {
			tb.Fatal(err)
		}
	}
	return w.judged
}

type placeholderWalk struct {
	tb   testing.TB
	fset *token.FileSet
	root string
	// needs are the placeholders of each message id, in any language.
	needs map[string][]string
	// consts are the module's string constants by "import/path.Name".
	consts map[string]string
	judged int
}

func (w *placeholderWalk) addNeeds(id, text string) {
	if _, ok := w.needs[id]; !ok {
		w.needs[id] = nil // known, whether or not it has placeholders
	}
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		if !contains(w.needs[id], m[1]) {
			w.needs[id] = append(w.needs[id], m[1])
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// moduleRoot is the folder of go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fs.ErrNotExist
		}
		dir = parent
	}
}

// sourceFile reports whether a file is Go source the walk reads.
func sourceFile(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !strings.HasSuffix(name, "_templ.go")
}

// readConstants notes the string constants of the kernel's and the
// modules' packages.
func (w *placeholderWalk) readConstants() error {
	for _, top := range []string{"kernel", "modules", "webapp"} {
		err := filepath.WalkDir(filepath.Join(w.root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "node_modules" || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !sourceFile(d.Name()) {
				return nil
			}
			f, err := parser.ParseFile(w.fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			pkg := w.importPath(filepath.Dir(path))
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if s, ok := stringLit(vs.Values[i]); ok {
								w.consts[pkg+"."+name.Name] = s
							}
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *placeholderWalk) importPath(dir string) string {
	rel, err := filepath.Rel(w.root, dir)
	if err != nil || rel == "." {
		return modulePath
	}
	return modulePath + "/" + filepath.ToSlash(rel)
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

func (w *placeholderWalk) walkDir(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !sourceFile(d.Name()) {
			return err
		}
		f, err := parser.ParseFile(w.fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		w.walkFile(f, w.importPath(filepath.Dir(path)))
		return nil
	})
}

// fileScope resolves the names of one file: its package and its imports.
type fileScope struct {
	w       *placeholderWalk
	pkg     string
	imports map[string]string // local name to import path
}

// id resolves e to a message id, if it is a string literal or a string
// constant of the module.
func (s fileScope) id(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		return stringLit(e)
	case *ast.Ident:
		v, ok := s.w.consts[s.pkg+"."+e.Name]
		return v, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if path, ok := s.imports[x.Name]; ok {
				v, ok := s.w.consts[path+"."+e.Sel.Name]
				return v, ok
			}
		}
	}
	return "", false
}

func (w *placeholderWalk) walkFile(f *ast.File, pkg string) {
	s := fileScope{w: w, pkg: pkg, imports: map[string]string{}}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		s.imports[name] = path
	}
	// parents maps each call to the call whose function it is the
	// receiver of: errs.New(...).With(...) has New's call under With's.
	parents := map[*ast.CallExpr]*ast.CallExpr{}
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if inner, ok := sel.X.(*ast.CallExpr); ok {
					parents[inner] = call
				}
			}
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		name := ""
		switch fn := call.Fun.(type) {
		case *ast.SelectorExpr:
			name = fn.Sel.Name
		case *ast.Ident:
			name = fn.Name
		}
		args := call.Args
		switch {
		case name == "Add" && len(args) == 2:
			w.judge(s, call, args[1], nil)
		case name == "AddField" && len(args) == 3:
			w.judge(s, call, args[2], nil)
		case name == "AddArgs" && len(args) == 3:
			if keys, ok := mapKeys(args[2]); ok {
				w.judge(s, call, args[1], keys)
			}
		case name == "New" && len(args) == 2 && isPkg(call.Fun, s, "kernel/errs"):
			var keys []string
			for p := parents[call]; p != nil; p = parents[p] {
				if sel := p.Fun.(*ast.SelectorExpr); sel.Sel.Name == "With" && len(p.Args) == 2 {
					if k, ok := stringLit(p.Args[0]); ok {
						keys = append(keys, k)
					}
				}
			}
			w.judge(s, call, args[1], keys)
		case name == "T" && len(args) == 3:
			if keys, ok := mapKeys(args[2]); ok {
				w.judge(s, call, args[1], keys)
			}
		case name == "T" && len(args) == 2:
			w.judge(s, call, args[1], nil)
		case (name == "Tf" || name == "t") && len(args) >= 2 && !call.Ellipsis.IsValid():
			var keys []string
			for i := 2; i < len(args); i += 2 {
				k, ok := stringLit(args[i])
				if !ok {
					return true
				}
				keys = append(keys, k)
			}
			w.judge(s, call, args[1], keys)
		}
		return true
	})
}

// isPkg reports whether fn is a selector on the import of the module's
// package rel.
func isPkg(fn ast.Expr, s fileScope, rel string) bool {
	sel, ok := fn.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && s.imports[x.Name] == modulePath+"/"+rel
}

// mapKeys returns the keys of a map literal (nil is an empty one); ok is
// false for anything else, which the walk cannot judge.
func mapKeys(e ast.Expr) ([]string, bool) {
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return nil, true
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	if _, ok := lit.Type.(*ast.MapType); !ok {
		return nil, false
	}
	var keys []string
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		k, ok := stringLit(kv.Key)
		if !ok {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

// judge fails the test when the message that idExpr names has placeholders
// that given does not fill. An expression that names no message of the
// catalogs is not judged.
func (w *placeholderWalk) judge(s fileScope, call *ast.CallExpr, idExpr ast.Expr, given []string) {
	id, ok := s.id(idExpr)
	if !ok {
		return
	}
	needs, known := w.needs[id]
	if !known {
		return
	}
	w.judged++
	var missing []string
	for _, n := range needs {
		if !contains(given, n) {
			missing = append(missing, "{"+n+"}")
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		pos := w.fset.Position(call.Pos())
		rel, _ := filepath.Rel(w.root, pos.Filename)
		w.tb.Errorf("%s:%d: the message %s is given without %s", filepath.ToSlash(rel), pos.Line, id, strings.Join(missing, ", "))
	}
}
