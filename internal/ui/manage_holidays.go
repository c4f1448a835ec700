package ui

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

// holidaysData is the data of the holidays page.
type holidaysData struct {
	Year       int
	Prev, Next int
	Items      []calendar.Holiday
	// National are the year's national holidays and Good Friday, built in
	// (sanctions.NationalHolidays): shown, never edited.
	National []sanctions.NationalHoliday
	// CanAdd: the clerk keeps the calendar (DOMAIN.md §4) and may remove
	// its days.
	CanAdd bool
}

// holidaysPage: GET /feriados[?ano=AAAA] (clerk, judge): the court's
// holidays of a year (default: this year), which move a deadline ending on
// them to the next working day (CPP art. 798, § 3º), with the clerk's form.
func (s *UI) holidaysPage(c echo.Context) error {
	return s.renderHolidays(c, http.StatusOK, server.Page{Form: url.Values{}})
}

func (s *UI) renderHolidays(c echo.Context, status int, p server.Page) error {
	year := civil.Today(s.Now(), s.Deps.Loc).Year
	if y, err := strconv.Atoi(c.QueryParam("ano")); err == nil && y >= 2000 && y <= 2200 {
		year = y
	}
	items, err := s.Cases.Calendar.Holidays(c.Request().Context(), server.Actor(c), strconv.Itoa(year))
	if err != nil {
		return s.pageFail(c, err)
	}
	p.Title = fmt.Sprintf("Feriados do juizado (%d)", year)
	p.Data = holidaysData{Year: year, Prev: year - 1, Next: year + 1, Items: items, National: sanctions.NationalHolidays(year), CanAdd: s.May(pageUser(c), http.MethodPost, "/feriados")}
	return s.Page(c, status, "feriados", p)
}

// addHolidayPage: POST /feriados (clerk; form: date as dd/mm/aaaa, name):
// adds a day to the court's calendar through calendar.Service.AddHoliday; the
// appeal windows are computed with it from then on.
func (s *UI) addHolidayPage(c echo.Context) error {
	vals := url.Values{"date": {c.FormValue("date")}, "name": {c.FormValue("name")}}
	var f errs.Fields
	in := calendar.HolidayInput{Date: form.ISODate(&f, "date", vals.Get("date")), Name: vals.Get("name")}
	if strings.TrimSpace(vals.Get("date")) == "" {
		f.Add("date", "required", "Informe a data (dd/mm/aaaa).")
	}
	if strings.TrimSpace(in.Name) == "" {
		f.Add("name", "required", "Informe o nome do feriado.")
	}
	err := f.Err()
	var h *calendar.Holiday
	if err == nil {
		err = s.InTx(c, func(ctx context.Context) error {
			var err error
			h, err = s.Cases.Calendar.AddHoliday(ctx, server.Actor(c), in)
			return err
		})
	}
	if err != nil {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		if len(fields) == 0 {
			msg = upperFirst(msg)
		}
		return s.renderHolidays(c, status, server.Page{Form: vals, Errs: fields, Error: msg})
	}
	s.flash(c, fmt.Sprintf("Feriado incluído: %s, %s. Os prazos que terminariam nesse dia passam ao dia útil seguinte.", h.Day.BR(), h.Name))
	return redirect(c, fmt.Sprintf("/feriados?ano=%d", h.Day.Year))
}

// removeHolidayPage: POST /feriados/:id/excluir (clerk): removes a day of
// the court's own calendar through calendar.Service.RemoveHoliday (the
// windows it moved are counted again, each with a docket movement).
func (s *UI) removeHolidayPage(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return s.PageError(c, http.StatusNotFound, "Feriado não encontrado.")
	}
	var h *calendar.Holiday
	if err := s.InTx(c, func(ctx context.Context) error {
		var err error
		h, err = s.Cases.Calendar.RemoveHoliday(ctx, server.Actor(c), id)
		return err
	}); err != nil {
		return s.pageFail(c, err)
	}
	s.flash(c, fmt.Sprintf("Feriado excluído: %s, %s. Os prazos abertos foram recalculados.", h.Day.BR(), h.Name))
	return redirect(c, fmt.Sprintf("/feriados?ano=%d", h.Day.Year))
}
