// Package render makes a report's files from a spec: the .xlsx workbook and
// the CSV file, in a language, into temporary files so that neither a
// large report nor its download holds its rows in memory.
package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/collect"
	"github.com/fieldhub/fieldhub/modules/reports/internal/workbook"
)

// Renderer makes files.
type Renderer struct {
	Collector *collect.Collector
	Catalogs  *i18n.Catalogs
}

// File is a made file in a temporary file; Close removes it.
type File struct {
	*os.File
	Name        string
	ContentType string
	Stats       collect.Stats
}

// Close removes the temporary file.
func (f *File) Close() error {
	err := f.File.Close()
	os.Remove(f.File.Name())
	return err
}

// Bytes reads the whole file (a mail's attachment).
func (f *File) Bytes() ([]byte, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f.File)
}

// Make renders spec in format as the file name, titled title, in lang.
// Nodes it cannot resolve are an errs.Invalid error.
func (r *Renderer) Make(ctx context.Context, spec reports.Spec, format, title, name, lang string) (*File, error) {
	list, err := r.Collector.Resolve(ctx, spec)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp("", "fieldhub-report-*")
	if err != nil {
		return nil, fmt.Errorf("report file: %w", err)
	}
	f := &File{File: tmp, Name: name, ContentType: reports.ContentType(format)}
	if format == reports.FormatCSV {
		err = r.csv(ctx, spec, list, f)
	} else {
		err = r.xlsx(ctx, spec, list, title, lang, f)
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (r *Renderer) csv(ctx context.Context, spec reports.Spec, list []collect.Node, f *File) error {
	w, err := workbook.NewCSV(f.File, spec)
	if err != nil {
		return err
	}
	if f.Stats, err = r.Collector.Collect(ctx, spec, list, w); err != nil {
		return err
	}
	return w.Finish()
}

func (r *Renderer) xlsx(ctx context.Context, spec reports.Spec, list []collect.Node, title, lang string, f *File) error {
	x, err := workbook.NewXLSX(spec, title, r.Labels(lang, spec.Type))
	if err != nil {
		return err
	}
	defer x.Close()
	if f.Stats, err = r.Collector.Collect(ctx, spec, list, x); err != nil {
		return err
	}
	return x.Finish(f.File, f.Stats)
}

// Preview returns the first rows of spec's first node.
func (r *Renderer) Preview(ctx context.Context, spec reports.Spec, lang string) (*workbook.Preview, error) {
	list, err := r.Collector.Resolve(ctx, spec)
	if err != nil {
		return nil, err
	}
	p := &workbook.Preview{Limit: reports.PreviewRows, Trend: spec.Type == reports.TypeTrend, Labels: r.Labels(lang, spec.Type).Aggregates, Columns: []string{}, Rows: []workbook.PreviewRow{}}
	if _, err := r.Collector.Collect(ctx, spec, list, p); err != nil && !errors.Is(err, collect.ErrEnough) {
		return nil, err
	}
	return p, nil
}

// Labels are a workbook's texts in lang.
func (r *Renderer) Labels(lang, typ string) workbook.Labels {
	t := func(id string) string { return r.Catalogs.T(lang, "reports.sheet."+id, nil) }
	return workbook.Labels{
		Summary: t("summary"), Chart: t("chart"), Report: t("report"), Type: t("type"),
		TypeName: r.Catalogs.T(lang, "reports.type."+typ, nil), Period: t("period"), TimeZone: t("timeZone"),
		Hours: t("hours"), Node: t("node"), DevEUI: t("deveui"), Rows: t("rows"), Values: t("values"),
		Gaps: t("gaps"), Total: t("total"), Time: t("time"), Offset: t("offset"),
		Aggregates: []string{t("min"), t("max"), t("mean"), t("last")}, ChartTitle: t("chartTitle"),
	}
}
