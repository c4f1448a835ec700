package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// UserKey is the echo context key of the request's accounts.User (set by
// authorize for a token, by CurrentUser for a session).
const UserKey = "juizado.user"

// authorize authenticates the request and makes the one Casbin check of
// the route: (role, domain, route template, method), the domain being the
// user's court, group:ID or club:NAME. Public routes pass; routes the
// router does not know pass to its 404/405; everything else is denied by
// default. API routes (/api/...) take a bearer token: 401 without a valid
// one, 403 without a policy. Page routes take the session of a signed-in
// person: without one, a redirect to /entrar; without a policy, a 403 page.
func (s *Server) authorize(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		method := c.Request().Method
		if method == "HEAD" {
			method = "GET"
		}
		if ri, known := s.route(method, c.Path()); !known || ri.perm == Anyone {
			return next(c)
		}
		if !strings.HasPrefix(c.Path(), "/api/") {
			u, ok := s.CurrentUser(c)
			if !ok {
				return s.toLogin(c)
			}
			allowed, err := s.decider.Allowed(u, c.Path(), method)
			if err != nil {
				return err
			}
			if !allowed {
				return s.PageError(c, http.StatusForbidden, "O perfil "+RoleLabel(u.Role)+" não tem acesso a esta página.")
			}
			c.Response().Header().Set("Cache-Control", "no-store") // a signed-in user's page
			return next(c)
		}
		h := c.Request().Header.Get(echo.HeaderAuthorization)
		scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return errs.New(errs.Unauthorized, "Envie um token válido no cabeçalho Authorization: Bearer <token>.")
		}
		tu, err := s.authenticate(c.Request().Context(), strings.TrimSpace(token))
		if errors.Is(err, accounts.ErrUnauthenticated) {
			return errs.New(errs.Unauthorized, "Token desconhecido, expirado ou revogado.")
		}
		if err != nil {
			return err
		}
		ok, err = s.decider.AllowedIn(tu.u, tu.domain, c.Path(), method)
		if err != nil {
			return err
		}
		if !ok {
			return errs.New(errs.Forbidden, "O perfil "+RoleLabel(tu.u.Role)+" não tem permissão para esta operação.")
		}
		s.setActor(c, tu.u)
		return next(&tokenContext{Context: c, user: tu.boxed})
	}
}

// tokenContext is the echo context of an API request authenticated by its
// bearer token: the token's user (UserKey) in a field, as Get and Set see
// it, rather than in the map echo makes on every request for the context's
// first Set (two allocations the gate's check would pay for one value).
// Other keys go to the context. The middleware outside authorize, and the
// error handler, see the context without the user, as none of them reads it.
type tokenContext struct {
	echo.Context
	user any // accounts.User
}

// Get returns the user for UserKey, else the context's value.
func (c *tokenContext) Get(key string) any {
	if key == UserKey {
		return c.user
	}
	return c.Context.Get(key)
}

// Set keeps val as the user for UserKey, else in the context.
func (c *tokenContext) Set(key string, val any) {
	if key == UserKey {
		c.user = val
		return
	}
	c.Context.Set(key, val)
}

// Actor returns the authenticated user as the actor of a service call
// (accounts.User.Actor; actor.Actor and actor.Actor are the same type); the
// zero Actor when nobody is signed in.
func Actor(c echo.Context) actor.Actor {
	u, _ := c.Get(UserKey).(accounts.User)
	return u.Actor()
}

// StaffCourt returns the court (TR.OOOO) of the request's user when the
// user is staff of one (accounts.StaffRoles), else "": a club's or a fan
// group's account has no court, even with a court_code written into its
// row by hand. The reads scoped to a court (the audit trail, issue 32 item
// 5) give such a caller nothing.
func StaffCourt(c echo.Context) string {
	if a := Actor(c); accounts.IsStaff(a.Role) {
		return a.Court
	}
	return ""
}

// May reports whether the Casbin policy lets user u call route (an Echo
// route template, "/processos/:id/acordo") with method: the one decision
// authorize makes, asked by a page that shows a form only to whom may send
// it. An error of the policy store answers false (the form is not shown;
// the route itself still decides when called).
func (s *Server) May(u accounts.User, method, route string) bool {
	ok, err := s.decider.Allowed(u, route, method)
	return err == nil && ok
}
