package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// publicPageSize is the number of names on one page of /impedidos.
const publicPageSize = 200

// publicPage: GET /impedidos, the public list for people (pt-BR).
func (s *Server) publicPage(c echo.Context) error {
	data := map[string]any{"Today": civil.Today(s.now(), s.deps.Loc).BR(),
		"Court": c.QueryParam("court"), "Club": c.QueryParam("club")}
	f, err := publicFilter(c)
	if err != nil { // the form again, the error next to the filter
		data["Error"] = err.(*errs.Error).Fields[0].Message
		return s.render(c, http.StatusUnprocessableEntity, "impedidos", data)
	}
	l, err := s.publicListFor(c.Request().Context(), f)
	if err != nil {
		return err
	}
	pages := max((len(l.items)+publicPageSize-1)/publicPageSize, 1)
	page := 1
	if v := strings.TrimSpace(c.QueryParam("pagina")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > pages {
			data["PageError"] = fmt.Sprintf("A página deve ser um número de 1 a %d.", pages)
			return s.render(c, http.StatusUnprocessableEntity, "impedidos", data)
		}
		page = n
	}
	from := (page - 1) * publicPageSize
	data["Items"] = l.items[from:min(from+publicPageSize, len(l.items))]
	data["Total"], data["Page"], data["Pages"] = len(l.items), page, pages
	if page > 1 {
		data["Prev"] = page - 1
	}
	if page < pages {
		data["Next"] = page + 1
	}
	return s.render(c, http.StatusOK, "impedidos", data)
}
