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
