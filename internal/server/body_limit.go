package server

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"
)

// maxBody is the server's body limit (BodyLimit in New) for the routes
// that do not bound their bodies themselves (MaxBody, routes.go).
const maxBody = 2 << 20

// bodyLimit is the body limit of c's route in bytes.
func (s *Server) bodyLimit(c echo.Context) int64 {
	if ri, _ := s.route(c.Request().Method, c.Path()); ri.maxBody > 0 {
		return ri.maxBody
	}
	return maxBody
}

// SizePT writes n bytes in Portuguese, in MB (2^20 bytes) when whole, else
// in bytes with dot-grouped thousands.
func SizePT(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// skipBodyLimit is the BodyLimit skipper for the routes registered with
// MaxBody, and for requests without a body (http.NoBody, as net/http gives
// a GET), which BodyLimit would wrap in a limited reader from its pool for
// nothing to read.
func (s *Server) skipBodyLimit(c echo.Context) bool {
	r := c.Request()
	if r.Body == http.NoBody {
		return true
	}
	ri, _ := s.route(r.Method, c.Path())
	return ri.maxBody > 0
}

// MultipartSlack is room for the multipart framing and the other fields
// of an upload, added to the file's own limit (MaxBody).
const MultipartSlack = 1 << 20

// NoStore marks a response with personal data as not cacheable.
func NoStore(c echo.Context) {
	c.Response().Header().Set("Cache-Control", "no-store")
}
