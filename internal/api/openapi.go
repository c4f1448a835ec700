package api

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// OpenAPI is the OpenAPI 3 document of the API, kept in step with the router
// by a test.
//
//go:embed openapi.json
var OpenAPI []byte

func (s *API) openapi(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, OpenAPI)
}
