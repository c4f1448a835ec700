package server

// Route registration with the permission on the route line. Every route of
// the server is added through a Router (api/routes.go, ui/routes.go and
// the probes below), naming who may call it:
//
//   - Anyone: no token, no session (the Public set, ../shared/API.md);
//   - Policy: the Casbin policy (internal/authz/policy.csv and casbin_rule)
//     decides by (role, domain, route template, method) in authorize, for
//     the JSON API and the pages alike. A page asks the same decision
//     (Server.May) to show a link or a form only to whom may use it; the
//     services check the rest (the judge of the case, the court, the group).
//
// A route may also declare a body limit above the server's 2 MB (photos,
// evidence, imports): the limit lives with the route, not in a map
// changed elsewhere.

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Perm is who may call a route: Anyone or Policy.
type Perm string

const (
	// Anyone may call the route without a token or session.
	Anyone Perm = "anyone"
	// Policy leaves the decision to the Casbin policy: (role, domain, the
	// route's Echo template, method).
	Policy Perm = "policy"
)

// RouteOpt is an option of one route.
type RouteOpt func(*routeOpts)

type routeOpts struct{ maxBody int64 }

// MaxBody lets the route take a body of up to n bytes (instead of the
// server's 2 MB): the route bounds its body itself (the API's handlers) or
// the session middleware does (the pages' multipart forms).
func MaxBody(n int64) RouteOpt { return func(o *routeOpts) { o.maxBody = n } }

// Router adds routes under a path prefix ("" or "/api/v1").
type Router struct {
	s      *Server
	prefix string
}

// Router returns a Router for routes under prefix.
func (s *Server) Router(prefix string) *Router { return &Router{s: s, prefix: prefix} }

// Add registers h for method and path (under the prefix) with permission
// perm and the route's options.
func (r *Router) Add(method, path string, perm Perm, h echo.HandlerFunc, opts ...RouteOpt) {
	var o routeOpts
	for _, f := range opts {
		f(&o)
	}
	full := r.prefix + path
	if r.s.routes == nil {
		r.s.routes = map[routeKey]routeInfo{}
	}
	if _, dup := r.s.routes[routeKey{method, full}]; dup {
		panic("server: route registered twice: " + method + " " + full)
	}
	r.s.routes[routeKey{method, full}] = routeInfo{perm: perm, maxBody: o.maxBody}
	r.s.Echo.Add(method, full, h)
}

// routeKey is a route by method and Echo template, the key of the
// middleware's lookups: no "METHOD /template" string is built per request.
type routeKey struct{ method, path string }

// routeInfo is what the middleware needs of a route: its permission and
// its body limit (0: the server's).
type routeInfo struct {
	perm    Perm
	maxBody int64
}

// route returns the route method and template (an Echo template, as
// c.Path() gives it) were registered with; ok is false for a route the
// Router did not add.
func (s *Server) route(method, path string) (routeInfo, bool) {
	ri, ok := s.routes[routeKey{method, path}]
	return ri, ok
}

// GET adds a GET route (Add).
func (r *Router) GET(path string, perm Perm, h echo.HandlerFunc, opts ...RouteOpt) {
	r.Add(http.MethodGet, path, perm, h, opts...)
}

// POST adds a POST route (Add).
func (r *Router) POST(path string, perm Perm, h echo.HandlerFunc, opts ...RouteOpt) {
	r.Add(http.MethodPost, path, perm, h, opts...)
}

// PUT adds a PUT route (Add).
func (r *Router) PUT(path string, perm Perm, h echo.HandlerFunc, opts ...RouteOpt) {
	r.Add(http.MethodPut, path, perm, h, opts...)
}

// PATCH adds a PATCH route (Add).
func (r *Router) PATCH(path string, perm Perm, h echo.HandlerFunc, opts ...RouteOpt) {
	r.Add(http.MethodPatch, path, perm, h, opts...)
}

// Permission returns the permission route ("METHOD /template") was
// registered with; ok is false for a route the Router did not add.
func (s *Server) Permission(route string) (perm Perm, ok bool) {
	method, path, _ := strings.Cut(route, " ")
	ri, ok := s.route(method, path)
	return ri.perm, ok
}

// IsPublic reports whether anyone may call route ("METHOD /template")
// without a token or session: the Public set.
func (s *Server) IsPublic(route string) bool {
	perm, ok := s.Permission(route)
	return ok && perm == Anyone
}

// coreRoutes registers the probes: health, readiness (and /metrics,
// metrics.go).
func (s *Server) coreRoutes() {
	r := s.Router("")
	r.GET("/healthz", Anyone, s.healthz)
	r.GET("/readyz", Anyone, s.readyz)
}
