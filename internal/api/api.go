// Package api is Juizado's JSON API under /api/v1 (../shared/API.md): one
// file per resource, each handler parsing a request DTO, calling a domain
// service (cases, registry, sanctions, pdf) and answering JSON or
// application/problem+json. routes.go lists every route with its
// permission; the server core (internal/server) authenticates the bearer
// token and makes the route's Casbin check before a handler runs.
package api

import (
	"path/filepath"

	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
)

// API holds the JSON API's handlers over the server core and the state
// only the API keeps: the prepared blocklist, the public list cache and
// the gates' check log.
type API struct {
	*server.Server
	bl       blocklistCache
	public   publicCache
	checkLog *blocklist.CheckLog
	// Docs serves the court documents (the pages reuse its downloads).
	Docs *Documents
	// Groups serves fan groups and their member registers (the pages
	// reuse the photo download).
	Groups *GroupHandlers
}

// New makes the API over the server core s (its routes are registered by
// Routes).
func New(s *server.Server) *API {
	a := &API{Server: s}
	a.Docs = a.newDocuments()
	a.Groups = &GroupHandlers{API: a, Svc: &registry.Groups{DB: s.Deps.DB, Clock: s.Deps.Clock, Loc: s.Deps.Loc}, docs: a.Docs.Svc}
	return a
}

// LogCheck queues a CPF check for the check log (the club page's check is
// logged as the gates' are); without a check log it does nothing.
func (s *API) LogCheck(r blocklist.CheckRecord) {
	if s.checkLog != nil {
		s.checkLog.Log(r)
	}
}

// StartCheckLog makes l the gates' check log, kept on disk under spoolDir
// while the database is unreachable ("" for memory only).
func (s *API) StartCheckLog(l *blocklist.CheckLog, spoolDir string) {
	s.checkLog = l
	if spoolDir != "" {
		l.SpoolTo(filepath.Join(spoolDir, "blocklist-checks.jsonl"))
	}
}

// Close writes the CPF checks still queued.
func (s *API) Close() {
	if s.checkLog != nil {
		s.checkLog.Close()
	}
}
