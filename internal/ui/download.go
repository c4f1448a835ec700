package ui

import "github.com/labstack/echo/v4"

// pageDownload serves a file with a download of the server core
// (internal/server/downloads.go); its errors become pages.
func (s *UI) pageDownload(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := h(c); err != nil {
			return s.pageFail(c, err)
		}
		return nil
	}
}
