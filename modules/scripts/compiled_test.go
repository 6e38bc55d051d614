package scripts_test

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/scripts"
)

// exampleScript builds examples/script with GOOS=wasip1.
func exampleScript(t *testing.T) []byte {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "script.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, "./examples/script")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build examples/script: %v", errors.New(string(msg)+err.Error()))
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCompiledScript: the example compiled script (sdk/script) reads a
// range, writes the dew point and would notify, in a test and for real on
// an uplink, through the same passes as a JavaScript script.
func TestCompiledScript(t *testing.T) {
	t.Parallel()
	module := exampleScript(t)
	e := newEnv(t, db.SQLite)
	at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
	e.post(t, "acme", at, map[string]any{"temperature": 20, "humidity": 50})
	got := e.Must(t, "acmeAdmin", "POST", "/api/script/test/{acme}", map[string]any{"module": module, "boundTag": e.ID(t, "{acmeNode}")}, http.StatusOK).Obj()
	if got["valid"] != true || got["result"] != wantDewPoint || len(got["actions"].([]any)) != 2 {
		t.Fatalf("test: %v", got)
	}
	if got := e.Must(t, "acmeAdmin", "POST", "/api/script/test/{acme}", map[string]any{"module": module}, http.StatusOK).Obj(); got["valid"] != false {
		t.Errorf("without a trigger: %v", got)
	}
	e.create(t, "acme", map[string]any{"name": "Compiled dew point", "type": scripts.TypeTriggered, "boundTag": e.ID(t, "{acmeNode}"),
		"enabled": true, "module": module})
	e.post(t, "acme", at.Add(time.Second), map[string]any{"temperature": 20, "humidity": 50})
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		p, ok := e.Latest(t, "acme", "dew_point")
		return ok && p.Value == wantDewPoint && p.Time.Equal(at.Add(time.Second))
	}, func() string {
		return fmt.Sprint(e.Must(t, "acmeAdmin", "GET", "/api/script/company/{acme}", nil, http.StatusOK).Body)
	})
}
