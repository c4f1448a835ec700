// Package ui is Juizado's HTML pages for people signed in with a session
// (and the public pages): one file per page group, routes.go listing every
// page with its permission, and the forms' parsing and validation in
// internal/ui/form. The pages call the same services as the JSON API
// (internal/api), whose downloads some of them reuse.
package ui

import "github.com/juizado/juizado/internal/api"

// UI holds the page handlers over the server core and the application
// (server.Server, app.App). It still embeds the API for what the API alone
// keeps today: the prepared blocklist and its check answer, the public
// list's cache and filter, the gates' check log, and the downloads the
// pages reuse (documents, evidence, photos); once the blocklist has its own
// package (issue 27, item 2) these come from the application and the pages
// stop importing internal/api.
type UI struct {
	*api.API
}

// New makes the pages over a (their routes are registered by Routes).
func New(a *api.API) *UI { return &UI{API: a} }
