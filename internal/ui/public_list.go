package ui

import (
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/templates"
	"github.com/labstack/echo/v4"
)

// publicPageSize is the number of names on one page of /impedidos.
const publicPageSize = 200

// home: GET /, the address people open first. Anyone not signed in gets
// the public list of banned fans, as /impedidos shows it: it is what the
// court publishes for everyone (Lei 10.671/2003, art. 5º, parágrafo único,
// VI), and its footer leads the court's staff to /entrar. A signed-in
// person goes on (303) to where their menu starts (server.Server.Home:
// the panel; a club's blocklist page, as a club has no panel).
func (s *UI) home(c echo.Context) error {
	if u, ok := s.CurrentUser(c); ok {
		return c.Redirect(http.StatusSeeOther, s.Home(u))
	}
	return s.publicPage(c)
}

// publicPage: GET /impedidos, the public list for people (pt-BR).
func (s *UI) publicPage(c echo.Context) error {
	data := map[string]any{"Today": civil.Today(s.Now(), s.Deps.Loc).BR(),
		"Court": c.QueryParam("court"), "Club": c.QueryParam("club")}
	f, err := server.PublicFilter(c)
	if err != nil { // the form again, the error next to the filter
		data["Error"] = err.(*errs.Error).Fields[0].Message
		return s.Render(c, http.StatusUnprocessableEntity, "impedidos", data)
	}
	l, err := s.App.Public.For(c.Request().Context(), f)
	if err != nil {
		return err
	}
	pages := max((len(l.Items)+publicPageSize-1)/publicPageSize, 1)
	page := 1
	if v := strings.TrimSpace(c.QueryParam("pagina")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > pages {
			data["PageError"] = fmt.Sprintf("A página deve ser um número de 1 a %d.", pages)
			return s.Render(c, http.StatusUnprocessableEntity, "impedidos", data)
		}
		page = n
	}
	from := (page - 1) * publicPageSize
	data["Items"] = l.Items[from:min(from+publicPageSize, len(l.Items))]
	courts := map[string]string{} // code → name, for the page's rows
	for _, it := range l.Items[from:min(from+publicPageSize, len(l.Items))] {
		if _, ok := courts[it.Court]; !ok {
			if courts[it.Court], err = s.Cases.Case.CourtName(c.Request().Context(), it.Court); err != nil {
				courts[it.Court] = it.Court
			}
		}
	}
	data["Courts"] = courts
	data["Total"], data["Page"], data["Pages"] = len(l.Items), page, pages
	if page > 1 {
		data["Prev"] = page - 1
	}
	if page < pages {
		data["Next"] = page + 1
	}
	return s.Render(c, http.StatusOK, "impedidos", data)
}

// favicon: GET /favicon.svg and /favicon.ico — the site's icon (an SVG,
// templates/html/favicon.svg; browsers that ask /favicon.ico get the same
// image), cached for a day.
func (s *UI) favicon(c echo.Context) error {
	b, err := fs.ReadFile(templates.FS, "html/favicon.svg")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, "image/svg+xml", b)
}
