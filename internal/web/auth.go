package web

import (
	"errors"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

const userKey = "juizado.user"

// authorize authenticates the bearer token and makes the one Casbin check
// of the route: (role, route template, method). Public routes pass; routes
// the router does not know pass to its 404/405; everything else is denied
// by default: 401 without a valid token, 403 without a policy.
func (s *Server) authorize(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := c.Request().Method + " " + c.Path()
		if c.Request().Method == "HEAD" {
			key = "GET " + c.Path()
		}
		if Public[key] || !s.routeSet[key] {
			return next(c)
		}
		h := c.Request().Header.Get(echo.HeaderAuthorization)
		scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return errs.New(errs.Unauthorized, "Envie um token válido no cabeçalho Authorization: Bearer <token>.")
		}
		u, err := s.authenticate(c.Request().Context(), strings.TrimSpace(token))
		if errors.Is(err, authz.ErrUnauthenticated) {
			return errs.New(errs.Unauthorized, "Token desconhecido, expirado ou revogado.")
		}
		if err != nil {
			return err
		}
		method := c.Request().Method
		if method == "HEAD" {
			method = "GET"
		}
		ok, err = s.deps.Enforcer.Enforce(u.Role, c.Path(), method)
		if err != nil {
			return err
		}
		if !ok {
			return errs.New(errs.Forbidden, "O perfil "+u.Role+" não tem permissão para esta operação.")
		}
		c.Set(userKey, u)
		c.SetRequest(c.Request().WithContext(db.WithActor(c.Request().Context(), db.Actor{ID: u.ID, Name: u.Name, Role: u.Role, Domain: domainOf(u)})))
		return next(c)
	}
}

// domainOf names the user's domain for the audit trail: the court code,
// "group:ID" or "club:NAME".
func domainOf(u authz.User) string {
	switch {
	case u.CourtCode != nil:
		return *u.CourtCode
	case u.GroupID != nil:
		return fmt.Sprintf("group:%d", *u.GroupID)
	case u.Club != nil:
		return "club:" + *u.Club
	}
	return ""
}

// actor returns the authenticated user as a cases.Actor.
func actor(c echo.Context) cases.Actor {
	u, _ := c.Get(userKey).(authz.User)
	return cases.Actor{UserID: u.ID, Name: u.Name, Role: u.Role, Court: u.Court()}
}
