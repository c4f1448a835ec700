// Package api is Juizado's JSON API under /api/v1 (../shared/API.md): one
// file per resource, each handler parsing a request DTO, calling a service
// of the application (internal/app: cases, registry, registry/blocklist,
// documents) and answering JSON or application/problem+json. routes.go
// lists every route with its permission; the server core (internal/server)
// authenticates the bearer token and makes the route's Casbin check before
// a handler runs. The pages (internal/ui) are a sibling over the same
// server core: neither package imports the other.
package api

import (
	"context"

	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry/blocklist"
)

// API holds the JSON API's handlers over the server core.
type API struct {
	*server.Server
	// Blocklist publishes the signed blocklist: the application's, built
	// once by app.New (app.App.Blocklist).
	Blocklist *blocklist.Publisher
	// Docs serves the court documents' certificates, poster and
	// verification (the case documents are the server core's downloads).
	Docs *Documents
	// Groups serves fan groups and their member registers.
	Groups *GroupHandlers
}

// New makes the API over the server core s (its routes are registered by
// Routes), serving the application's blocklist publisher
// (s.App.Blocklist).
func New(s *server.Server) *API {
	a := &API{Server: s, Blocklist: s.App.Blocklist}
	a.Docs = a.newDocuments()
	a.Groups = &GroupHandlers{API: a, Svc: s.App.Groups, docs: a.Docs.Svc}
	return a
}

// PreparedBlocklist returns the prepared bodies of the latest version
// (blocklist.Publisher.Prepared).
func (s *API) PreparedBlocklist(ctx context.Context) (*blocklist.Prepared, error) {
	return s.Blocklist.Prepared(ctx)
}
