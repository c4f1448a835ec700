package api

import (
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// banID reads the ban id in the path (server.ParseID): errs.NotFound
// ("Impedimento ... não encontrado: ...") when it is not a positive integer.
func banID(c echo.Context) (int64, error) {
	return server.ParseID(c, "id", "Impedimento %q não encontrado"+server.MustBePositive)
}

// defendantID reads the defendant id in the path parameter defendant_id
// (server.ParseID): errs.NotFound ("Réu ... não encontrado: ...").
func defendantID(c echo.Context) (int64, error) {
	return server.ParseID(c, "defendant_id", "Réu %q não encontrado"+server.MustBePositive)
}
