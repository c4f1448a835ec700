package ui

import (
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/juizado/juizado/cases/datajud"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// dataJudView is the DataJud export page's content: the court and the
// month; after a check, what the export would write and the cases left
// out with their reasons.
type dataJudView struct {
	Court    string
	Month    string
	Checked  bool
	Summary  datajud.Summary
	Rejected []datajud.Rejection
}

// dataJudPage: GET /admin/datajud[?mes=AAAA-MM]: the DataJud export of
// the admin's court (Res. CNJ 331/2020). With mes, the month is checked
// (the export is run and written nowhere): how many cases go, and each
// case DataJud would reject with its reasons; the page links the JSON and
// XML downloads. Without, the form for the previous month.
func (s *UI) dataJudPage(c echo.Context) error {
	court := server.Actor(c).Court
	v := dataJudView{Court: court, Month: c.QueryParam("mes")}
	p := server.Page{Title: "Exportação para o DataJud (CNJ)"}
	status := http.StatusOK
	if v.Month == "" {
		now := s.App.Clock.Now().In(s.App.Loc)
		v.Month = now.AddDate(0, 0, -now.Day()).Format("2006-01") // the last day of the previous month
	} else {
		sum, err := s.App.ExportDataJud(c.Request().Context(), court, v.Month, datajud.FormatJSON, io.Discard,
			func(r datajud.Rejection) { v.Rejected = append(v.Rejected, r) })
		if err != nil {
			fields, msg, st, ok := formErrors(err)
			if !ok {
				return err
			}
			if m, bad := fields["month"]; bad {
				fields["mes"] = m
			}
			p.Error, p.Errs, status = msg, fields, st
		} else {
			v.Checked, v.Summary = true, sum
		}
	}
	p.Data = v
	return s.Page(c, status, "admin_datajud", p)
}

// dataJudDownload: GET /admin/datajud/exportacao?mes=AAAA-MM&formato=json|xml:
// the admin's court's DataJud export of the month as a file
// (datajud-TR.OOOO-AAAA-MM.json or .xml), streamed as it is written; the
// cases DataJud would reject are left out (the page lists them). A bad
// month or format, or a court without its DataJud unit, is an error page
// (nothing is sent before the export's first bytes).
func (s *UI) dataJudDownload(c echo.Context) error {
	court := server.Actor(c).Court
	format := c.QueryParam("formato")
	if format == "" {
		format = datajud.FormatJSON
	}
	month := c.QueryParam("mes")
	w := &lazyDownload{c: c, format: format, name: fmt.Sprintf("datajud-%s-%s.%s", court, month, format)}
	if _, err := s.App.ExportDataJud(c.Request().Context(), court, month, format, w, nil); err != nil {
		if w.started {
			return err // the file is cut short; the client sees a broken download
		}
		return s.pageFail(c, err)
	}
	return nil
}

// lazyDownload sends the download's headers with its first bytes, so an
// export refused before writing anything is still an error page.
type lazyDownload struct {
	c       echo.Context
	format  string
	name    string
	started bool
}

// Write sends the headers (200, the type of the format, the attachment's
// name) before the first bytes, then the bytes.
func (d *lazyDownload) Write(b []byte) (int, error) {
	if !d.started {
		d.started = true
		h := d.c.Response().Header()
		if d.format == datajud.FormatXML {
			h.Set(echo.HeaderContentType, "application/xml; charset=utf-8")
		} else {
			h.Set(echo.HeaderContentType, echo.MIMEApplicationJSONCharsetUTF8)
		}
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.name}))
		d.c.Response().WriteHeader(http.StatusOK)
	}
	return d.c.Response().Write(b)
}
