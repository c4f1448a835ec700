package api

import (
	"net/http"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// scheduleHearing: POST /api/v1/cases/:id/hearings {kind, starts_at, ends_at?, room} (clerk).
func (s *API) scheduleHearing(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in cases.HearingInput) (any, error) {
		return s.Cases.Case.ScheduleHearing(c.Request().Context(), server.Actor(c), id, in)
	})
}

// calendar: GET /api/v1/hearings?from=YYYY-MM-DD&to=YYYY-MM-DD (staff of the court).
func (s *API) calendar(c echo.Context) error {
	items, err := s.Cases.Case.Calendar(c.Request().Context(), server.Actor(c), c.QueryParam("from"), c.QueryParam("to"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// redesignateHearing: POST /api/v1/hearings/:id/redesignate {starts_at,
// ends_at?, reason} (clerk): the new hearing.
func (s *API) redesignateHearing(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in cases.RedesignateInput) (any, error) {
		return s.Cases.Case.RedesignateHearing(c.Request().Context(), server.Actor(c), id, in)
	})
}

// cancelHearing: POST /api/v1/hearings/:id/cancel {reason} (clerk).
func (s *API) cancelHearing(c echo.Context) error {
	return caseWrite(s, c, http.StatusOK, func(id int64, in cases.CancelInput) (any, error) {
		return s.Cases.Case.CancelHearing(c.Request().Context(), server.Actor(c), id, in)
	})
}

// hearingResult: POST /api/v1/hearings/:id/result {held, absent, text} (clerk).
func (s *API) hearingResult(c echo.Context) error {
	return caseWrite(s, c, http.StatusOK, func(id int64, in cases.ResultInput) (any, error) {
		return s.Cases.Case.RecordHearingResult(c.Request().Context(), server.Actor(c), id, in)
	})
}

// desk: GET /api/v1/desk (clerk, judge, prosecutor): the caller's work
// queues (app.Cases.Desk).
func (s *API) desk(c echo.Context) error {
	v, err := s.Cases.Desk(c.Request().Context(), server.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}
