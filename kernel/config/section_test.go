package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// widgetConfig is a module's part of the configuration, as a module
// declares it.
type widgetConfig struct {
	Enabled bool
	Days    int
}

func (c *widgetConfig) Section() Section {
	return Section{Name: "widgets", Options: []Option{
		{Name: "FIELDHUB_WIDGETS", Default: "false", Help: "whether widgets are on", Set: Bool(&c.Enabled)},
		{Name: "FIELDHUB_WIDGET_DAYS", Default: "7", Help: "days widgets are kept", Set: Days(&c.Days)},
	}}
}

// TestModuleSections checks that a module's options are options like the
// kernel's: known to the unknown-option check, read by Apply from flags,
// environment, file and defaults, refused with a line that names them, and
// listed by Help after the kernel's.
func TestModuleSections(t *testing.T) {
	module := (&widgetConfig{}).Section()
	if _, err := Load(func(string) string { return "" }, []string{"FIELDHUB_WIDGETS=true"}, nil); err == nil {
		t.Error("a module's option passed the unknown-option check though no section declared it")
	}
	file := filepath.Join(t.TempDir(), "fieldhub.env")
	os.WriteFile(file, []byte("FIELDHUB_WIDGET_DAYS=30\n"), 0o600)
	env := map[string]string{FileVar: file, "FIELDHUB_WIDGETS": "true"}
	c, err := Load(func(k string) string { return env[k] }, []string{"FIELDHUB_WIDGETS=true"}, nil, module)
	if err != nil {
		t.Fatal(err)
	}
	var w widgetConfig
	if err := c.Apply(w.Section()); err != nil || !w.Enabled || w.Days != 30 {
		t.Errorf("environment and file: %+v, %v", w, err)
	}
	c, _ = Load(func(k string) string { return env[k] }, nil, map[string]string{"FIELDHUB_WIDGET_DAYS": "1"}, module)
	if err := c.Apply(w.Section()); err != nil || w.Days != 1 {
		t.Errorf("flag over file: %+v, %v", w, err)
	}
	c, _ = Load(func(string) string { return "" }, nil, nil, module)
	if err := c.Apply(w.Section()); err != nil || w.Enabled || w.Days != 7 {
		t.Errorf("defaults: %+v, %v", w, err)
	}
	env["FIELDHUB_WIDGETS"] = "sometimes"
	c, _ = Load(func(k string) string { return env[k] }, nil, nil, module)
	if err := c.Apply(w.Section()); err == nil || !strings.Contains(err.Error(), "FIELDHUB_WIDGETS") || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad value: got %v, want one line naming FIELDHUB_WIDGETS", err)
	}
	help := Help(module)
	if k, m := strings.Index(help, "`FIELDHUB_ADDR`"), strings.Index(help, "| `FIELDHUB_WIDGET_DAYS` | `7` | days widgets are kept |"); k < 0 || m < k {
		t.Errorf("Help lists the kernel's options, then the module's:\n%s", help)
	}
}
