// Package api is Juizado's JSON API under /api/v1 (../shared/API.md): one
// file per resource, each handler parsing a request DTO, calling a domain
// service (cases, registry, sanctions, pdf) and answering JSON or
// application/problem+json. routes.go lists every route with its
// permission; the server core (internal/server) authenticates the bearer
// token and makes the route's Casbin check before a handler runs.
package api

import (
	"context"

	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry/blocklist"
)

// API holds the JSON API's handlers over the server core and the state
// only the API keeps: the public list cache. The blocklist it serves, its
// prepared snapshot and the gates' check log are Blocklist's.
type API struct {
	*server.Server
	// Blocklist publishes the signed blocklist (registry/blocklist).
	Blocklist *blocklist.Publisher
	public    publicCache
	// Docs serves the court documents (the pages reuse its downloads).
	Docs *Documents
	// Groups serves fan groups and their member registers (the pages
	// reuse the photo download).
	Groups *GroupHandlers
}

// New makes the API over the server core s (its routes are registered by
// Routes), publishing the blocklist of s.Lists signed with s.Deps.Keys.
func New(s *server.Server) *API {
	a := &API{Server: s, Blocklist: blocklist.NewPublisher(s.Lists, s.Deps.Keys, s.Deps.Court, s.Deps.Logger)}
	a.Docs = a.newDocuments()
	a.Groups = &GroupHandlers{API: a, Svc: s.App.Groups, docs: a.Docs.Svc}
	return a
}

// PreparedBlocklist returns the prepared bodies of the latest version
// (blocklist.Publisher.Prepared).
func (s *API) PreparedBlocklist(ctx context.Context) (*blocklist.Prepared, error) {
	return s.Blocklist.Prepared(ctx)
}

// LogCheck queues a CPF check for the check log (the club page's check is
// logged as the gates' are; blocklist.Publisher.LogCheck).
func (s *API) LogCheck(r blocklist.CheckRecord) { s.Blocklist.LogCheck(r) }

// Close writes the CPF checks still queued.
func (s *API) Close() { s.Blocklist.Close() }
