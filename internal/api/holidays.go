package api

import (
	"net/http"
	"strings"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
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
