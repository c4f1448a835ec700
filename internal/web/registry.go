package web

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

func (s *Server) registryRoutes(api *echo.Group) {
	api.GET("/public/banned", s.publicBanned)
	api.GET("/blocklist", s.blocklist)
	api.GET("/blocklist/check/:cpf", s.blocklistCheck)
}

func parsePages(fsys fs.FS) (map[string]*template.Template, error) {
	pages := map[string]*template.Template{}
	if fsys == nil {
		return pages, nil
	}
	for _, name := range []string{"impedidos"} {
		t, err := template.ParseFS(fsys, "html/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// render executes a page into a buffer first, so a failing template never
// sends half a page.
func (s *Server) render(c echo.Context, status int, name string, data any) error {
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

// publicBanned: GET /api/v1/public/banned (anyone).
func (s *Server) publicBanned(c echo.Context) error {
	items, err := s.lists.Public(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// publicPage: GET /impedidos, the public list for people (pt-BR).
func (s *Server) publicPage(c echo.Context) error {
	items, err := s.lists.Public(c.Request().Context())
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, "impedidos", map[string]any{
		"Items": items, "Today": civil.Today(s.now(), s.deps.Loc).BR(),
	})
}

// blocklist: GET /api/v1/blocklist (club): JSON or CSV, strong ETag per
// version and representation, 304 on a matching If-None-Match.
func (s *Server) blocklist(c echo.Context) error {
	format := c.QueryParam("format")
	switch format {
	case "":
		format = "json"
		if acceptsCSV(c.Request().Header.Get(echo.HeaderAccept)) {
			format = "csv"
		}
	case "json", "csv":
	default:
		return errs.InvalidField("format", "oneof", "formato deve ser json ou csv.")
	}
	snap, err := s.lists.Current(c.Request().Context())
	if err != nil {
		return err
	}
	etag := fmt.Sprintf(`"blocklist-v%d-%s"`, snap.Version, format)
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("X-Blocklist-Version", fmt.Sprint(snap.Version))
	h.Add("Vary", "Accept")
	if etagMatches(c.Request().Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	if format == "csv" {
		body, err := blocklistCSV(snap)
		if err != nil {
			return err
		}
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", body)
	}
	body, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// acceptsCSV reports whether an Accept header asks for text/csv (with a
// non-zero quality) ahead of JSON.
func acceptsCSV(accept string) bool {
	best, bestQ := "", -1.0
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		media := strings.ToLower(strings.TrimSpace(fields[0]))
		q := 1.0
		for _, p := range fields[1:] {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if (media == "text/csv" || media == "application/json") && q > 0 && q > bestQ {
			best, bestQ = media, q
		}
	}
	return best == "text/csv"
}

// etagMatches implements If-None-Match's weak comparison (RFC 9110 §13.1.2).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

func blocklistCSV(snap *registry.Snapshot) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"cpf", "name", "birth_date", "first_day", "last_day", "ban_id", "group_ban_id", "case_number", "court"})
	for _, e := range snap.Items {
		bd, ld, gb := "", "", ""
		if e.BirthDate != nil {
			bd = e.BirthDate.String()
		}
		if e.LastDay != nil {
			ld = e.LastDay.String()
		}
		if e.GroupBanID != nil {
			gb = fmt.Sprint(*e.GroupBanID)
		}
		_ = w.Write([]string{e.CPF, SafeCell(e.Name), bd, e.FirstDay.String(), ld, fmt.Sprint(e.BanID), gb, e.CaseNumber, e.Court})
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// SafeCell keeps a CSV cell from running as a spreadsheet formula: a cell
// that begins with =, +, -, @, tab or carriage return is prefixed with an
// apostrophe (OWASP "CSV injection").
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// blocklistCheck: GET /api/v1/blocklist/check/:cpf (club).
func (s *Server) blocklistCheck(c echo.Context) error {
	cpf, err := registry.ParseCPF(c.Param("cpf"))
	if err != nil {
		return errs.InvalidField("cpf", "cpf", err.Error())
	}
	res, err := s.lists.Check(c.Request().Context(), cpf)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}
