// Package web assembles Juizado's HTTP server: the core (internal/server:
// Echo, middleware, errors, rendering, authentication and authorization),
// the JSON API (internal/api) and the HTML pages (internal/ui) over the
// same services. cmd/juizado calls New; the HTTP-level tests of the whole
// server live here.
package web

import (
	"context"
	"io/fs"
	"log/slog"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/juizado/juizado/internal/api"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui"
	"github.com/juizado/juizado/registry/blocklist"
	"gorm.io/gorm"
)

// Deps are what the server needs: the application (App, app.New) and the
// server's own settings (server.Deps). Without App, New builds it with
// app.New from DB, Clock, Loc, Keys, Court, PublicURL and TemplatesDir
// (the tests' servers).
type Deps struct {
	App       *app.App
	Enforcer  *casbin.SyncedEnforcer
	Templates fs.FS // templates.FS
	Logger    *slog.Logger
	// SecureCookies, TrustProxy and SpoolDir: server.Deps.
	SecureCookies, TrustProxy bool
	SpoolDir                  string

	// The application's settings when App is nil (app.New).
	DB                             *gorm.DB
	Clock                          clock.Clock
	Loc                            *time.Location
	Keys                           *blocklist.KeyRing
	Court, PublicURL, TemplatesDir string
}

// SessionCookie is the name of the session cookie (server.SessionCookie).
const SessionCookie = server.SessionCookie

// OpenAPI is the API's OpenAPI 3 document (api.OpenAPI).
var OpenAPI = api.OpenAPI

// Server is the assembled HTTP server: the core with the API's and the
// pages' routes registered on its Echo.
type Server struct {
	*server.Server
}

// New builds the server and its routes.
func New(d Deps) (*Server, error) {
	if d.App == nil {
		a, err := app.New(config.Config{Court: d.Court, PublicURL: d.PublicURL, TemplatesDir: d.TemplatesDir}, d.DB, d.Clock, d.Loc, d.Keys)
		if err != nil {
			return nil, err
		}
		d.App = a
	}
	core, err := server.New(server.Deps{App: d.App, Enforcer: d.Enforcer, Templates: d.Templates, Logger: d.Logger,
		SecureCookies: d.SecureCookies, TrustProxy: d.TrustProxy, SpoolDir: d.SpoolDir})
	if err != nil {
		return nil, err
	}
	bl := d.App.Blocklist
	bl.Logger = core.Deps.Logger // the ticker's errors go to the server's log (set before Run starts)
	bl.Metrics(core.Metrics)
	api.New(core).Routes() // internal/api/routes.go
	ui.New(core).Routes()  // internal/ui/routes.go
	bl.StartCheckLog(d.App.NewCheckLog(core.Deps.Logger), d.SpoolDir)
	return &Server{Server: core}, nil
}

// Lists returns the server's public list and blocklist service.
func (s *Server) Lists() *blocklist.Lists { return s.Server.Lists }

// RefreshBlocklist makes a new blocklist version now if the bans in force
// changed (the ticker does it every minute).
func (s *Server) RefreshBlocklist(ctx context.Context) error { return s.Server.Lists.Refresh(ctx) }

// RunBlocklistTicker refreshes and prepares the blocklist every interval
// until ctx ends (blocklist.Publisher.Run).
func (s *Server) RunBlocklistTicker(ctx context.Context, interval time.Duration) {
	s.App.Blocklist.Run(ctx, interval)
}

// StopLongPolls answers every waiting long-poll of the change feed at once
// and every later one without waiting (blocklist.Publisher.StopWaiting):
// called when the server begins to shut down (issue 32, item 3).
func (s *Server) StopLongPolls() { s.App.Blocklist.StopWaiting() }

// Close writes the CPF checks still queued.
func (s *Server) Close() { s.App.Blocklist.Close() }
