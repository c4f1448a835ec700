package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"
)

// The headers every answer carries, as net/http keys them (canonical form),
// with their values made once: Header.Set would allocate the value's slice
// on every request. The slices are full (len == cap), so an Add to one of
// these headers copies instead of writing into the shared array.
var (
	keyRequestID       = textproto.CanonicalMIMEHeaderKey(echo.HeaderXRequestID)
	keyXSSProtection   = textproto.CanonicalMIMEHeaderKey(echo.HeaderXXSSProtection)
	keyContentTypeOpts = textproto.CanonicalMIMEHeaderKey(echo.HeaderXContentTypeOptions)
	keyFrameOptions    = textproto.CanonicalMIMEHeaderKey(echo.HeaderXFrameOptions)
	keyReferrerPolicy  = textproto.CanonicalMIMEHeaderKey(echo.HeaderReferrerPolicy)

	valXSSProtection   = []string{"0"}[:1:1]
	valContentTypeOpts = []string{"nosniff"}[:1:1]
	valFrameOptions    = []string{"DENY"}[:1:1]
	valReferrerPolicy  = []string{"same-origin"}[:1:1]
)

// requestID gives the answer the request's id (X-Request-Id): the one the
// client sent, else a new one (newRequestID), as echo's RequestID
// middleware does.
func (s *Server) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		rid := c.Request().Header.Get(echo.HeaderXRequestID)
		if rid == "" {
			rid = newRequestID()
		}
		c.Response().Header()[keyRequestID] = []string{rid}
		return next(c)
	}
}

// secureHeaders sets the security headers of every answer, as echo's Secure
// middleware did with XSSProtection "0", ContentTypeNosniff "nosniff",
// XFrameOptions "DENY" and ReferrerPolicy "same-origin" (and, as it did,
// neither Strict-Transport-Security nor Content-Security-Policy).
func (s *Server) secureHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h[keyXSSProtection] = valXSSProtection
		h[keyContentTypeOpts] = valContentTypeOpts
		h[keyFrameOptions] = valFrameOptions
		h[keyReferrerPolicy] = valReferrerPolicy
		return next(c)
	}
}

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
// path or query: CPFs travel in paths), status, latency, request id. The
// record goes straight to the logger's handler, as Logger.LogAttrs would
// send it but without the caller's program counter, which LogAttrs looks up
// (runtime.Callers) on every call and only a handler with AddSource reads:
// the server's handlers have none (cmd/juizado), and the line names its
// route instead.
func (s *Server) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		ctx := c.Request().Context()
		h := s.Deps.Logger.Handler()
		if !h.Enabled(ctx, slog.LevelInfo) {
			return nil
		}
		end := time.Now()
		r := slog.NewRecord(end, slog.LevelInfo, "request", 0)
		r.AddAttrs(slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
			slog.String("method", c.Request().Method), slog.String("route", c.Path()),
			slog.Int("status", c.Response().Status), slog.Duration("latency", end.Sub(start)))
		_ = h.Handle(ctx, r)
		return nil
	}
}
