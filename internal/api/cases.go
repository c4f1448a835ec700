package api

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// fileCase: POST /api/v1/cases (prosecutor, police). With an
// Idempotency-Key header, a filing repeated by the same filer with the
// same key and body answers 200 with the first case (Idempotent-Replayed:
// true); the same key with another body is 422.
func (s *API) fileCase(c echo.Context) error {
	var in cases.Representation
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	key := strings.TrimSpace(c.Request().Header.Get("Idempotency-Key"))
	k, replayed, err := s.Cases.Case.FileOnce(c.Request().Context(), server.Actor(c), in, key)
	if err != nil {
		return err
	}
	v, err := s.Cases.Casefile.Get(c.Request().Context(), server.Actor(c), k.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/cases/%d", k.ID))
	c.Response().Header().Set("ETag", etag(v.Version))
	if replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
		return c.JSON(http.StatusOK, v)
	}
	return c.JSON(http.StatusCreated, v)
}

// getCase: GET /api/v1/cases/:id.
func (s *API) getCase(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	v, err := s.Cases.Casefile.Get(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return caseJSON(c, v)
}

// caseJSON answers a case with its ETag ("v{version}"); 304 when
// If-None-Match names it.
func caseJSON(c echo.Context, v *casefile.View) error {
	tag := etag(v.Version)
	c.Response().Header().Set("ETag", tag)
	for _, t := range strings.Split(c.Request().Header.Get("If-None-Match"), ",") {
		if t = strings.TrimPrefix(strings.TrimSpace(t), "W/"); t == tag || t == "*" {
			return c.NoContent(http.StatusNotModified)
		}
	}
	return c.JSON(http.StatusOK, v)
}

// caseByNumber: GET /api/v1/cases/by-number/:number.
func (s *API) caseByNumber(c echo.Context) error {
	v, err := s.Cases.Casefile.ByNumber(c.Request().Context(), server.Actor(c), c.Param("number"))
	if err != nil {
		return err
	}
	return caseJSON(c, v)
}

// listCases: GET /api/v1/cases?q=&cpf=&status=&judge_id=&from=&to=&number=&sort=&page=&per_page=.
// page (from 1 to maxCasesPage), per_page (1 to maxCasesPerPage) and
// judge_id (a positive id) are read by server.QueryInt: 422 rule
// "integer" for no integer, "range" for one outside the limits.
func (s *API) listCases(c echo.Context) error {
	var f errs.Fields
	q := casefile.ListQuery{Q: c.QueryParam("q"), CPF: c.QueryParam("cpf"), Status: c.QueryParam("status"),
		Page:    int(server.QueryInt(c, &f, "page", 1, maxCasesPage, 0)),
		PerPage: int(server.QueryInt(c, &f, "per_page", 1, maxCasesPerPage, 0)),
		JudgeID: server.QueryInt(c, &f, "judge_id", 1, server.MaxID, 0),
		From:    c.QueryParam("from"), To: c.QueryParam("to"), Number: c.QueryParam("number"), Sort: c.QueryParam("sort")}
	for _, name := range []string{"q", "cpf", "status", "from", "to", "number", "sort"} {
		if v := c.QueryParam(name); strings.ContainsRune(v, 0) || !utf8.ValidString(v) {
			f.Add(name, "text", "o parâmetro contém caracteres inválidos.")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	items, total, err := s.Cases.Casefile.List(c.Request().Context(), server.Actor(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items, "total": total})
}

// maxCasesPage bounds ?page= of the case list so that the offset,
// (page-1)·per_page, stays an int; the list counts at most 1,000 matches
// (API.md: "total may be capped"), so every page past them is empty.
const maxCasesPage = 1_000_000

// maxCasesPerPage is the largest ?per_page= of the case list (cases.List).
const maxCasesPerPage = 100
