package ui

import (
	"net/http"
	"net/url"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// casesList is the data of the list of cases.
type casesList struct {
	Items    []casefile.View
	Total    int64
	Statuses []string
	Mine     bool
}

// casesPage: GET /processos[?q=&status=&todos=1] — the court's cases; a
// judge sees the cases distributed to them unless todos=1.
func (s *UI) casesPage(c echo.Context) error {
	u := pageUser(c)
	q := casefile.ListQuery{Q: c.QueryParam("q"), Status: c.QueryParam("status"), Number: c.QueryParam("number"), PerPage: 100}
	mine := u.Role == "judge" && c.QueryParam("todos") == ""
	if mine {
		q.JudgeID = u.ID
	}
	vals := url.Values{"q": {q.Q}, "status": {q.Status}, "number": {q.Number}}
	p := server.Page{Title: "Processos", Form: vals}
	if mine {
		p.Title = "Meus processos"
	}
	items, total, err := s.Cases.Casefile.List(c.Request().Context(), server.Actor(c), q)
	if err != nil {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		p.Errs, p.Error = fields, msg
		p.Data = casesList{Statuses: cases.Statuses, Mine: mine}
		return s.Page(c, status, "processos", p)
	}
	p.Data = casesList{Items: items, Total: total, Statuses: cases.Statuses, Mine: mine}
	return s.Page(c, http.StatusOK, "processos", p)
}
