package api

import (
	"net/http"
	"strings"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// minHolidayYear and maxHolidayYear are the years of the holiday calendar
// (calendar.Service.Holidays).
const (
	minHolidayYear = 2000
	maxHolidayYear = 2200
)

// addHoliday: POST /api/v1/holidays {date, name} (clerk).
func (s *API) addHoliday(c echo.Context) error {
	var in calendar.HolidayInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	h, err := s.Cases.Calendar.AddHoliday(c.Request().Context(), server.Actor(c), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, h)
}

// removeHoliday: DELETE /api/v1/holidays/:id (clerk): removes a day of
// the court's own calendar (calendar.Service.RemoveHoliday); 200 with the
// holiday removed, 404 for another court's or an unknown one.
func (s *API) removeHoliday(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	h, err := s.Cases.Calendar.RemoveHoliday(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h)
}

// holidays: GET /api/v1/holidays[?year=YYYY] (staff of the court): year
// from minHolidayYear to maxHolidayYear (server.QueryInt: 422 rule
// "integer" or "range").
func (s *API) holidays(c echo.Context) error {
	var f errs.Fields
	server.QueryInt(c, &f, "year", minHolidayYear, maxHolidayYear, 0)
	if err := f.Err(); err != nil {
		return err
	}
	items, err := s.Cases.Calendar.Holidays(c.Request().Context(), server.Actor(c), strings.TrimSpace(c.QueryParam("year")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}
