package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/juizado/juizado/cases"
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
	k, replayed, err := s.Cases.FileOnce(c.Request().Context(), server.Actor(c), in, key)
	if err != nil {
		return err
	}
	v, err := s.Cases.Get(c.Request().Context(), server.Actor(c), k.ID)
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
	id, err := PathID(c, "id")
	if err != nil {
		return err
	}
	v, err := s.Cases.Get(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return caseJSON(c, v)
}

// caseJSON answers a case with its ETag ("v{version}"); 304 when
// If-None-Match names it.
func caseJSON(c echo.Context, v *cases.View) error {
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
	v, err := s.Cases.ByNumber(c.Request().Context(), server.Actor(c), c.Param("number"))
	if err != nil {
		return err
	}
	return caseJSON(c, v)
}

// listCases: GET /api/v1/cases?q=&cpf=&status=&judge_id=&from=&to=&number=&sort=&page=&per_page=.
func (s *API) listCases(c echo.Context) error {
	var f errs.Fields
	num := func(name string) int {
		v := c.QueryParam(name)
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			f.Add(name, "integer", "deve ser um número inteiro a partir de 1.")
			return -1
		}
		return n
	}
	q := cases.ListQuery{Q: c.QueryParam("q"), CPF: c.QueryParam("cpf"), Status: c.QueryParam("status"), Page: num("page"), PerPage: num("per_page"),
		From: c.QueryParam("from"), To: c.QueryParam("to"), Number: c.QueryParam("number"), Sort: c.QueryParam("sort")}
	if v := c.QueryParam("judge_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			f.Add("judge_id", "integer", "deve ser o identificador (número inteiro positivo) de um(a) juiz(a).")
		}
		q.JudgeID = n
	}
	for _, name := range []string{"q", "cpf", "status", "from", "to", "number", "sort"} {
		if v := c.QueryParam(name); strings.ContainsRune(v, 0) || !utf8.ValidString(v) {
			f.Add(name, "text", "o parâmetro contém caracteres inválidos.")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	items, total, err := s.Cases.List(c.Request().Context(), server.Actor(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items, "total": total})
}
