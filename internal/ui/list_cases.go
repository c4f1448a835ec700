package ui

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// casesList is the data of the list of cases.
type casesList struct {
	Items    []casefile.View
	Total    int64
	Statuses []string
	Mine     bool
	// Classes are the TPU classes a case gets at filing, by name, for the
	// search by class.
	Classes []tpu.Item
}

// filingClasses are the TPU classes of cases.ClassByFiling with their names
// from the embedded table (Res. CNJ 46/2007), by name.
func filingClasses() []tpu.Item {
	t, err := tpu.Embedded(tpu.Classes)
	if err != nil {
		return nil
	}
	var out []tpu.Item
	for _, it := range t.Items {
		for _, code := range cases.ClassByFiling {
			if it.Code == code && !slices.ContainsFunc(out, func(o tpu.Item) bool { return o.Code == code }) {
				out = append(out, it)
			}
		}
	}
	slices.SortFunc(out, func(a, b tpu.Item) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// casesPage: GET /processos[?q=&cpf=&number=&class=&status=&todos=1] —
// the court's cases by name, CPF, whole or partial number, class and
// status; a judge sees the cases distributed to them unless todos=1.
func (s *UI) casesPage(c echo.Context) error {
	u := pageUser(c)
	q := casefile.ListQuery{Q: c.QueryParam("q"), CPF: c.QueryParam("cpf"), Status: c.QueryParam("status"), Number: c.QueryParam("number"), PerPage: 100}
	if v := strings.TrimSpace(c.QueryParam("class")); v != "" {
		if q.Class, _ = strconv.Atoi(v); q.Class == 0 {
			q.Class = -1
		}
	}
	mine := u.Role == "judge" && c.QueryParam("todos") == ""
	if mine {
		q.JudgeID = u.ID
	}
	vals := url.Values{"q": {q.Q}, "cpf": {q.CPF}, "status": {q.Status}, "number": {q.Number}, "class": {c.QueryParam("class")}}
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
		p.Data = casesList{Statuses: cases.Statuses, Mine: mine, Classes: filingClasses()}
		return s.Page(c, status, "processos", p)
	}
	p.Data = casesList{Items: items, Total: total, Statuses: cases.Statuses, Mine: mine, Classes: filingClasses()}
	return s.Page(c, http.StatusOK, "processos", p)
}
