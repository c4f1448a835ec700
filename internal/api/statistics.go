package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// statistics: GET /api/v1/statistics[?court=TR.OOOO] (anyone): the court's
// aggregates (app.App.Statistics; issue 30 item 6, ../shared/API.md
// "Court's desk"): bans in force at the end of each of the last 12 months,
// new bans per month by law and by source, cases and bans in force by home
// club, cases by stage, the median days from filing to sentence and to
// final judgment; no personal data, counts from 1 to 4 as "<5". Without
// court, the server's court. A court not shaped TR.OOOO is 422 on
// "court"; an unknown one 404.
func (s *API) statistics(c echo.Context) error {
	st, err := s.App.Statistics(c.Request().Context(), strings.TrimSpace(c.QueryParam("court")))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.JSON(http.StatusOK, st)
}
