package web

import (
	"context"
	"path/filepath"

	"github.com/juizado/juizado/registry"
)

// New builds the server and its routes.
func New(d Deps) (*Server, error) {
	s, err := newCore(d)
	if err != nil {
		return nil, err
	}
	s.blocklistMetrics(s.Metrics)
	s.routes()
	s.seal()
	s.lists.OnVersion = s.noteVersion
	s.checkLog = registry.NewCheckLog(d.DB, d.Logger, 0, 0)
	if d.SpoolDir != "" {
		s.checkLog.SpoolTo(filepath.Join(d.SpoolDir, "blocklist-checks.jsonl"))
	}
	return s, nil
}

func (s *Server) routes() {
	e := s.Echo
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/impedidos", s.publicPage)
	e.GET("/api/v1/openapi.json", s.openapi)
	api := e.Group("/api/v1")
	s.caseRoutes(api)
	s.registryRoutes(api)
	s.sanctionsRoutes(api)
	s.groupRoutes(api)
	s.auditRoutes(api)
	s.documentRoutes(e, api)
	s.pageRoutes(e)
}

// Lists returns the server's public list and blocklist service.
func (s *Server) Lists() *registry.Lists { return s.lists }

// RefreshBlocklist makes a new blocklist version now if the bans in force
// changed (the ticker does it every minute).
func (s *Server) RefreshBlocklist(ctx context.Context) error { return s.lists.Refresh(ctx) }
