package ui

import (
	"net/http"
	"net/url"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

type hearingDay struct {
	Day   string
	Items []cases.HearingView
}

// hearingsPage: GET /audiencias[?from=&to=] — the calendar, by date.
func (s *UI) hearingsPage(c echo.Context) error {
	var f errs.Fields
	vals := url.Values{"from": {c.QueryParam("from")}, "to": {c.QueryParam("to")}}
	from := form.ISODate(&f, "from", c.QueryParam("from"))
	to := form.ISODate(&f, "to", c.QueryParam("to"))
	p := server.Page{Title: "Audiências", Form: vals}
	var items []cases.HearingView
	err := f.Err()
	if err == nil {
		items, err = s.Cases.Case.Calendar(c.Request().Context(), server.Actor(c), from, to)
	}
	status := http.StatusOK
	if err != nil {
		fields, msg, st, ok := formErrors(err)
		if !ok {
			return err
		}
		p.Errs, p.Error, status = fields, msg, st
	}
	var days []hearingDay
	for _, h := range items {
		day := civil.Today(h.StartsAt, s.Deps.Loc).BR()
		if len(days) == 0 || days[len(days)-1].Day != day {
			days = append(days, hearingDay{Day: day})
		}
		days[len(days)-1].Items = append(days[len(days)-1].Items, h)
	}
	p.Data = days
	return s.Page(c, status, "audiencias", p)
}
