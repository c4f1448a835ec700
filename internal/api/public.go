package api

import (
	"net/http"

	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// publicBanned: GET /api/v1/public/banned (anyone): the public list (Lei
// 10.671/2003, art. 5º, parágrafo único, VI) from the application's cache
// (blocklist.PublicCache), narrowed by ?court= and ?club=
// (server.PublicFilter).
func (s *API) publicBanned(c echo.Context) error {
	f, err := server.PublicFilter(c)
	if err != nil {
		return err
	}
	l, err := s.App.Public.For(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, l.Body)
}
