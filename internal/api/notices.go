package api

import (
	"net/http"

	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// defenceNotices: GET /api/v1/defence/notices (defence): {items} the
// electronic notices of the caller's clients (calendar.NoticeView: the
// days made available, opened and counted on, the window that follows and
// the days left; Lei 11.419/2006, art. 5º).
func (s *API) defenceNotices(c echo.Context) error {
	items, err := s.Cases.Calendar.DefenceNotices(c.Request().Context(), server.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// openNotice: POST /api/v1/defence/notices/:id/open (defence, no body):
// records the opening (idempotent: the first one fixes the day the notice
// counts on, Lei 11.419/2006, art. 5º, §§ 1º and 2º; every one is kept);
// 200 with the notice. Another lawyer's notice is 404.
func (s *API) openNotice(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	v, err := s.Cases.Calendar.OpenNotice(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}
