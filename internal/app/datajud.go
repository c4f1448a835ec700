package app

import (
	"context"
	"io"

	"github.com/juizado/juizado/cases/datajud"
)

// ExportDataJud writes to w the DataJud export of court's month "YYYY-MM"
// (court "": the application's; format "json" or "xml"): every case of the
// court with a movement in the month, read in one snapshot and streamed
// (datajud.Export; Res. CNJ 331/2020). Each case DataJud would reject is
// passed to reject instead of written. Errors: errs.Invalid on month or
// format, or when the court's DataJud unit is not set; errs.NotFound for
// an unknown court.
func (a *App) ExportDataJud(ctx context.Context, court, month, format string, w io.Writer, reject func(datajud.Rejection)) (datajud.Summary, error) {
	if court == "" {
		court = a.Court
	}
	return datajud.Export(ctx, a.db, w, datajud.Options{Court: court, Month: month, Format: format, Loc: a.Loc}, reject)
}
