package server

import (
	"fmt"

	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// maxBody is the server's body limit (BodyLimit in New) for the routes
// that do not bound their bodies themselves (largeBodyRoutes).
const maxBody = 2 << 20

// bodyLimit is the body limit of c's route in bytes.
func bodyLimit(c echo.Context) int64 {
	if n, ok := LargeBodyRoutes[c.Request().Method+" "+c.Path()]; ok {
		return n
	}
	return maxBody
}

// sizePT writes n bytes in Portuguese, in MB (2^20 bytes) when whole, else
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

// largeBodyRoutes take bodies above the server's 2 MB limit and bound them
// themselves: a photo (5 MB, 413 above) and an import (a ZIP with photos).
var LargeBodyRoutes = map[string]int64{
	"PUT /api/v1/members/:id/photo":          registry.MaxPhotoBytes,
	"POST /api/v1/groups/:id/members/import": registry.MaxImportBytes,
}

// largeBody is the BodyLimit skipper for largeBodyRoutes.
func largeBody(c echo.Context) bool {
	_, ok := LargeBodyRoutes[c.Request().Method+" "+c.Path()]
	return ok
}
