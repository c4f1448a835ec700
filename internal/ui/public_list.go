package ui

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/api"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// publicPageSize is the number of names on one page of /impedidos.
const publicPageSize = 200

// publicPage: GET /impedidos, the public list for people (pt-BR).
func (s *UI) publicPage(c echo.Context) error {
	data := map[string]any{"Today": civil.Today(s.Now(), s.Deps.Loc).BR(),
		"Court": c.QueryParam("court"), "Club": c.QueryParam("club")}
	f, err := api.PublicFilter(c)
	if err != nil { // the form again, the error next to the filter
		data["Error"] = err.(*errs.Error).Fields[0].Message
		return s.Render(c, http.StatusUnprocessableEntity, "impedidos", data)
	}
	l, err := s.PublicListFor(c.Request().Context(), f)
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
	data["Total"], data["Page"], data["Pages"] = len(l.Items), page, pages
	if page > 1 {
		data["Prev"] = page - 1
	}
	if page < pages {
		data["Next"] = page + 1
	}
	return s.Render(c, http.StatusOK, "impedidos", data)
}
