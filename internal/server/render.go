package server

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/templates"
	"github.com/labstack/echo/v4"
)

// ParsePages parses the declared page templates of fsys (templates.Pages,
// beside the templates) with the page functions in loc, failing on an
// undeclared template or a declared page without one; a nil fsys gives no
// pages (a server without templates answers pages as plain text).
func ParsePages(fsys fs.FS, loc *time.Location) (map[string]*template.Template, error) {
	if fsys == nil {
		return map[string]*template.Template{}, nil
	}
	return templates.ParsePages(fsys, pageFuncs(loc))
}

// Render executes a page into a buffer first, so a failing template never
// sends half a page.
func (s *Server) Render(c echo.Context, status int, name string, data any) error {
	t, ok := s.pages[name]
	if !ok {
		return fmt.Errorf("web: no page %q", name)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// HasPage reports whether the page template name was parsed (false on a
// server built without templates).
func (s *Server) HasPage(name string) bool { return s.pages[name] != nil }

// Page is what every page template receives.
type Page struct {
	Title string
	// User is the signed-in user, nil when nobody is.
	User *accounts.User
	// CSRF is the token every form posts in the hidden field "csrf":
	// <input type="hidden" name="csrf" value="{{.CSRF}}">.
	CSRF string
	// Error is a message shown at the top of the page.
	Error string
	// Notice is a message of success shown at the top of the page (the
	// flash left by the POST that redirected here).
	Notice string
	// Errs holds the message of each field at fault, by the field's name
	// (the API's field path, e.g. "defendants[0].cpf"): shown next to it.
	Errs map[string]string
	// Form holds what was typed, by field name, to fill the form again.
	Form url.Values
	// Data is the page's own content.
	Data any
	// Domain names the signed-in person's domain in words: the court's
	// name, the fan group's name or "clube NAME" (Server.domainOf).
	Domain string
	// Menu is the signed-in person's menu: the pages the policy lets them
	// open (Server.Menu), shown on every page and as the panel's cards.
	Menu []MenuLink
}

// domainOf names a user's domain in Portuguese, as people know it: the
// court's name ("Juizado Especial do Torcedor da Comarca de São Paulo"),
// the fan group's name, or "clube NAME"; never a code or a number (issue
// 30, item 4). A lookup that fails leaves it empty: the header is not
// worth an error page.
func (s *Server) domainOf(ctx context.Context, u *accounts.User) string {
	switch {
	case u == nil:
		return ""
	case u.CourtCode != nil:
		name, _ := s.Cases.Case.CourtName(ctx, *u.CourtCode)
		return name
	case u.GroupID != nil:
		name, _ := s.App.Groups.GroupName(ctx, *u.GroupID)
		return name
	case u.Club != nil:
		return "clube " + *u.Club
	}
	return ""
}

// RoleLabel names a role in Portuguese.
func RoleLabel(role string) string {
	if l, ok := map[string]string{"admin": "administração", "clerk": "cartório", "judge": "juiz(a)", "prosecutor": "Ministério Público",
		"police": "polícia", "fan_group": "gestão da torcida organizada", "club": "clube", "defence": "defesa"}[role]; ok {
		return l
	}
	return role
}

// Page renders a page template with the signed-in user and the CSRF token.
func (s *Server) Page(c echo.Context, status int, name string, p Page) error {
	if u, ok := s.CurrentUser(c); ok {
		p.User = &u
		p.Menu = s.Menu(u)
		p.Domain = s.domainOf(c.Request().Context(), &u)
	}
	p.CSRF = s.csrfToken(c)
	if p.Notice == "" && c.Get(SessionKey) != nil && status < 300 {
		p.Notice = s.Sessions.PopString(c.Request().Context(), SessFlash)
	}
	if s.pages[name] == nil { // no templates (tests without them)
		return c.String(status, p.Title+"\n"+p.Error)
	}
	return s.Render(c, status, name, p)
}

// PageError answers a page request with an error page.
func (s *Server) PageError(c echo.Context, status int, msg string) error {
	title := TitleOf[status]
	if title == "" {
		title = http.StatusText(status)
	}
	return s.Page(c, status, "erro", Page{Title: title, Error: msg})
}

// SessFlash is the session key of the message shown once by the next page.
const SessFlash = "flash"
