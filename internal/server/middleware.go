package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"
)

// recoverer turns a panic into a logged 500 problem. It also answers HEAD
// (headAsGet) before anything else sees the request: folded in here rather
// than a middleware of its own, which would cost every GET an allocation.
func (s *Server) recoverer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		if c.Request().Method == http.MethodHead {
			s.headAsGet(c)
			return nil
		}
		defer func() {
			if r := recover(); r != nil {
				s.Deps.Logger.Error("panic", "route", c.Path(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return next(c)
	}
}

// headAsGet serves a HEAD request as the GET of the same target (RFC 9110
// §9.3.2: the same status and headers, no body): the whole server runs again
// on a shallow copy of the request whose method is GET, so the router, the
// Casbin policy, ETag and 304 see a GET, while net/http, which keeps the
// original request, still sends no body. A target without GET answers 405
// as GET would (404 when it does not exist).
func (s *Server) headAsGet(c echo.Context) {
	r := c.Request()
	get := r.WithContext(r.Context())
	get.Method = http.MethodGet
	s.Echo.ServeHTTP(c.Response().Writer, get)
}

// requestLog writes one JSON line per request: route template (never the raw
// path or query: CPFs travel in paths), status, latency, request id.
func (s *Server) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		s.Deps.Logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
			slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
			slog.String("method", c.Request().Method), slog.String("route", c.Path()),
			slog.Int("status", c.Response().Status), slog.Duration("latency", time.Since(start)))
		return nil
	}
}
