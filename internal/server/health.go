package server

import (
	"context"
	"net/http"
	"time"

	"github.com/juizado/juizado/internal/authz"
	"github.com/labstack/echo/v4"
)

func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz: GET /readyz (../shared/API.md "Operations") — 503 {"status":
// "unavailable"} when the database is unreachable or the schema is behind;
// 200 {"status": "degraded", "policy_rules_skipped": [{rule, reason}]} when
// the policy's last load skipped rows of casbin_rule that do not fit the
// model (authz.Skipped, named by their content: the server serves, with
// the other rules in force; issue 32, item 5); else 200 {"status": "ready"}.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	if err := s.App.Ready(ctx); err != nil {
		s.Deps.Logger.Warn("not ready", "err", err.Error())
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
	}
	if sk := s.PolicySkipped(); len(sk) > 0 {
		return c.JSON(http.StatusOK, map[string]any{"status": "degraded", "policy_rules_skipped": sk})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}

// PolicySkipped returns the rows of casbin_rule that the policy's last load
// skipped (authz.Skipped), none without an enforcer.
func (s *Server) PolicySkipped() []authz.SkippedRule {
	if s.Deps.Enforcer == nil {
		return nil
	}
	return authz.Skipped(s.Deps.Enforcer)
}
