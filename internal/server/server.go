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
	"html/template"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/casbin/casbin/v2"
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/authz/policy"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"
)

// Deps are what the server needs.
type Deps struct {
	DB        *gorm.DB
	Enforcer  *casbin.SyncedEnforcer
	Clock     clock.Clock
	Loc       *time.Location
	Templates fs.FS // templates.FS
	Logger    *slog.Logger
	// Keys signs the blocklist (blocklist.KeyRing on JUIZADO_KEY_DIR); nil:
	// a key kept in memory for this process only.
	Keys *blocklist.KeyRing
	// PublicURL is the court's public address, printed on documents and in
	// their QR codes (JUIZADO_PUBLIC_URL).
	PublicURL string
	// TemplatesDir holds the court's own document wording, file by file
	// over the embedded one (JUIZADO_TEMPLATES_DIR; "" for none).
	TemplatesDir string
	// Court is the court the public poster is issued by (JUIZADO_COURT).
	Court string
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
	// Cases is the case service the API and the pages call.
	Cases *app.Cases
	// Lists is the public list and blocklist service.
	Lists   *blocklist.Lists
	pages   map[string]*template.Template
	routes  map[routeKey]routeInfo // by method and template: who may call it, its body limit (routes.go)
	decider *policy.Decider        // Casbin decisions cached 1 s
	tokens  tokenCache
	// Sessions are the people's sessions (session.go).
	Sessions *scs.SessionManager
	// Lockout slows and locks repeated failed logins.
	Lockout authz.Lockout
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
	if d.Keys == nil {
		d.Keys = blocklist.EphemeralKeyRing()
	}
	lists := &blocklist.Lists{DB: d.DB, Clock: d.Clock, Loc: d.Loc, FormatNumber: cases.FormatNumber, CursorKey: d.Keys.CursorKey}
	cs, err := app.NewCases(d.DB, d.Clock, d.Loc, lists)
	if err != nil {
		return nil, err
	}
	s := &Server{
		Echo:    echo.New(),
		Deps:    d,
		Lists:   lists,
		Cases:   cs,
		decider: &policy.Decider{E: d.Enforcer},
	}
	pages, err := ParsePages(d.Templates, d.Loc)
	if err != nil {
		return nil, err
	}
	s.pages = pages
	if s.Sessions, err = newSessions(d); err != nil {
		return nil, err
	}
	s.Lockout = authz.DefaultLockout
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
