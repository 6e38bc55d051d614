// Package i18n translates message IDs into the caller's language from the
// locale catalogs, and picks that language from a stored choice or the
// browser's Accept-Language header.
package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"golang.org/x/text/language"
)

// Default is the language used when nothing else matches; Fallback is tried
// for a key the chosen catalog lacks (English, falling back to Swedish).
const (
	Default  = "en"
	Fallback = "sv"
)

// Catalogs holds one message table per language.
type Catalogs struct {
	tables  map[string]map[string]string
	langs   []string
	matcher language.Matcher
}

// Load reads every <lang>.json file at the root of fsys.
func Load(fsys fs.FS) (*Catalogs, error) {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("list catalogs: %w", err)
	}
	c := &Catalogs{tables: map[string]map[string]string{}}
	for _, f := range files {
		raw, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("read catalog %s: %w", f, err)
		}
		table := map[string]string{}
		if err := json.Unmarshal(raw, &table); err != nil {
			return nil, fmt.Errorf("parse catalog %s: %w", f, err)
		}
		c.tables[strings.TrimSuffix(path.Base(f), ".json")] = table
	}
	if _, ok := c.tables[Default]; !ok {
		return nil, fmt.Errorf("catalog %s.json is missing", Default)
	}
	for lang := range c.tables {
		c.langs = append(c.langs, lang)
	}
	sort.Slice(c.langs, func(i, j int) bool {
		return c.langs[i] == Default || (c.langs[j] != Default && c.langs[i] < c.langs[j])
	})
	tags := make([]language.Tag, len(c.langs))
	for i, l := range c.langs {
		tags[i] = language.Make(l)
	}
	c.matcher = language.NewMatcher(tags)
	return c, nil
}

// Languages lists the available languages, the default first.
func (c *Catalogs) Languages() []string { return c.langs }

// Keys lists the message IDs of one language, sorted.
func (c *Catalogs) Keys(lang string) []string {
	keys := make([]string, 0, len(c.tables[lang]))
	for k := range c.tables[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Has reports whether lang is one of the catalogs.
func (c *Catalogs) Has(lang string) bool { _, ok := c.tables[lang]; return ok }

// Match picks the best catalog for an Accept-Language header value.
func (c *Catalogs) Match(acceptLanguage string) string {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return Default
	}
	_, idx, conf := c.matcher.Match(tags...)
	if conf == language.No {
		return Default
	}
	return c.langs[idx]
}

// T returns the text of id in lang with {name} placeholders filled from args.
// A missing key falls back to the fallback language, then the default, then
// the ID itself, so that a gap never hides an error from the user.
func (c *Catalogs) T(lang, id string, args map[string]any) string {
	text, ok := c.tables[lang][id]
	if !ok {
		text, ok = c.tables[Fallback][id]
	}
	if !ok {
		text, ok = c.tables[Default][id]
	}
	if !ok {
		text = id
	}
	for k, v := range args {
		text = strings.ReplaceAll(text, "{"+k+"}", fmt.Sprint(v))
	}
	return text
}
