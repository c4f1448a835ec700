package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// tpuTable: GET /api/v1/tpu?table=classes|subjects|movements (staff): the
// table of the CNJ's unified tables the court uses, with its version (Res.
// CNJ 46/2007): {version, items: [{code, name, parent, complements,
// verified, note}]}; another table is 422 on table.
func (s *API) tpuTable(c echo.Context) error {
	t, err := s.App.TPU(c.Request().Context(), c.QueryParam("table"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, t)
}
