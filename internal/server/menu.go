package server

import (
	"net/http"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/templates"
)

// MenuLink is one link of a person's menu and one card of their panel: a
// menu item (templates.Menu) in the person's role's wording.
type MenuLink struct {
	// Path is the page's address.
	Path string
	// Label is the menu's link; Card and Hint the panel's card (no card
	// when Hint is empty).
	Label, Card, Hint string
}

// Menu returns the items of templates.Menu that u may open, in its order:
// those whose GET route anyone may call, and those the access policy lets
// u GET (May, the decision the route itself makes). An item whose path is
// no GET route of the server is left out.
func (s *Server) Menu(u accounts.User) []MenuLink {
	var out []MenuLink
	for _, it := range templates.Menu {
		ri, known := s.route(http.MethodGet, it.Path)
		if !known || ri.perm != Anyone && !s.May(u, http.MethodGet, it.Path) {
			continue
		}
		t := it.TextFor(u.Role)
		out = append(out, MenuLink{Path: it.Path, Label: t.Label, Card: t.Card, Hint: t.Hint})
	}
	return out
}

// Home is where u starts: the first page of their menu (the panel; a
// club's blocklist page), else the public list.
func (s *Server) Home(u accounts.User) string {
	if m := s.Menu(u); len(m) > 0 {
		return m[0].Path
	}
	return "/impedidos"
}
