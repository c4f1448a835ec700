// Package ui is Juizado's HTML pages for people signed in with a session
// (and the public pages): one file per page group, routes.go listing every
// page with its permission, and the forms' parsing and validation in
// internal/ui/form. The pages call the same services of the application
// (internal/app) as the JSON API (internal/api), a sibling over the same
// server core (internal/server): neither imports the other, and the
// downloads both serve are the core's (internal/server/downloads.go).
package ui

import "github.com/juizado/juizado/internal/server"

// UI holds the page handlers over the server core and the application
// (server.Server, app.App).
type UI struct {
	*server.Server
}

// New makes the pages over the server core s (their routes are registered
// by Routes).
func New(s *server.Server) *UI { return &UI{Server: s} }
