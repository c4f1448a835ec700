// Package server is the core of Juizado's HTTP server, shared by the JSON
// API (internal/api) and the HTML pages (internal/ui): Echo and its
// middleware (request id, panic recovery, HEAD, request log, secure
// headers, body limits: server.go, middleware.go, body_limit.go), route
// registration with each route's permission (routes.go), authentication
// by bearer token (tokens.go) or session with CSRF and login lockout
// (session.go), the one Casbin check of every route (authorize.go), RFC
// 9457 problem+json errors (problem.go), strict JSON binding (bind_json.go,
// strict_json.go), HTML rendering of the pages templates.Pages declares
// and each person's menu from the policy (render.go, menu.go,
// template_funcs.go), and health, readiness and metrics (health.go,
// metrics.go).
package server

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/casbin/casbin/v2"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"
)

// Deps are what the server needs.
type Deps struct {
	// App is the application whose services the handlers call (app.New);
	// the server holds no database handle of its own.
	App      *app.App
	Enforcer *casbin.SyncedEnforcer
	// Clock, Loc, Keys and Court are the application's (App.Clock,
	// App.Loc, App.Keys, App.Court), set by New.
	Clock     clock.Clock
	Loc       *time.Location
	Keys      *blocklist.KeyRing
	Court     string
	Templates fs.FS // templates.FS
	Logger    *slog.Logger
	// SecureCookies marks the session cookie Secure on every request
	// (JUIZADO_SECURE_COOKIES); without it, only requests over TLS or
	// with X-Forwarded-Proto: https get a Secure cookie.
	SecureCookies bool
	// TrustProxy takes the client's address from X-Forwarded-For for the
	// login lockout (JUIZADO_TRUST_PROXY: behind a reverse proxy only).
	TrustProxy bool
	// SpoolDir keeps the gates' check records on disk while the database
	// is unreachable, until it returns (JUIZADO_SPOOL_DIR; "" for memory
	// only).
	SpoolDir string
}

// Server is the HTTP server with its services.
type Server struct {
	// Echo is the router; the API and the pages add their routes with
	// Router.
	Echo *echo.Echo
	// Deps are the dependencies the server was built with.
	Deps Deps
	// App is the application (Deps.App): its services, built once.
	App *app.App
	// Cases are the case services the API and the pages call (App.Cases).
	Cases *app.Cases
	// Lists is the public list and blocklist service (App.Lists).
	Lists   *blocklist.Lists
	pages   map[string]*template.Template
	routes  map[routeKey]routeInfo // by method and template: who may call it, its body limit (routes.go)
	decider *authz.Decider         // Casbin decisions cached 1 s
	tokens  tokenCache
	// Sessions are the people's sessions (session.go).
	Sessions *scs.SessionManager
	// Metrics is the server's Prometheus registry (GET /metrics); other
	// components may register their collectors on it.
	Metrics *prometheus.Registry
}

// New builds the server core: Echo with its middleware, the templates,
// sessions, metrics and the probes; the API and the pages then add their
// routes with Router, each with its permission.
func New(d Deps) (*Server, error) {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.App == nil {
		return nil, errors.New("server: the application (Deps.App) is required")
	}
	d.Clock, d.Loc, d.Keys, d.Court = d.App.Clock, d.App.Loc, d.App.Keys, d.App.Court
	s := &Server{
		Echo:    echo.New(),
		Deps:    d,
		App:     d.App,
		Lists:   d.App.Lists,
		Cases:   d.App.Cases,
		decider: &authz.Decider{E: d.Enforcer},
	}
	pages, err := ParsePages(d.Templates, d.Loc)
	if err != nil {
		return nil, err
	}
	s.pages = pages
	if s.Sessions, err = newSessions(d); err != nil {
		return nil, err
	}
	e := s.Echo
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.errorHandler
	metrics, err := s.metrics()
	if err != nil {
		return nil, err
	}
	e.Use(chain(
		s.requestID,
		s.recoverer,
		s.requestLog,
		s.secureHeaders,
		metrics,
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "2M", Skipper: s.skipBodyLimit}), // routes with MaxBody bound themselves
		s.session, // page routes: the session cookie and CSRF (session.go)
		s.authorize,
	))
	s.coreRoutes()
	return s, nil
}

// chain is the server's one Echo middleware: mws, outermost first, composed
// once around the handler the router matched for the request (c.Handler():
// a route's handler, or the 404, 405 or OPTIONS answer). Echo composes the
// middleware given to Use again on every request, a closure per middleware
// per request; composed here once, a request allocates none. The chain
// ignores the next handler Echo passes it, which is c.Handler() as long as
// chain is the only middleware given to Echo (Use or Pre) and routes have
// none of their own: add middleware to the list in New, never with Use.
func chain(mws ...echo.MiddlewareFunc) echo.MiddlewareFunc {
	h := echo.HandlerFunc(func(c echo.Context) error { return c.Handler()(c) })
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return func(echo.HandlerFunc) echo.HandlerFunc { return h }
}

// Now is the server's clock's instant ("now" is injectable, Deps.Clock).
func (s *Server) Now() time.Time { return s.Deps.Clock.Now() }

// newRequestID makes a request id: 32 hex digits from the runtime's
// per-thread generator (ids must be distinct in the logs, not secret; echo's
// default reads crypto/rand for every request).
func newRequestID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	return hex.EncodeToString(b[:])
}
