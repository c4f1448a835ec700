package web

import (
	"net/http"
	"strconv"

	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

func (s *Server) auditRoutes(api *echo.Group) {
	api.GET("/audit", s.auditList)
}

// auditList: GET /api/v1/audit (admin, judge) — the trail of the caller's
// court, filtered by record (table, record_id), person (actor_id) and period
// (from, to: dates in the court's zone, to inclusive), newest first.
func (s *Server) auditList(c echo.Context) error {
	var f errs.Fields
	flt := audit.Filter{Domain: actor(c).Court, Table: c.QueryParam("table"), RecordID: c.QueryParam("record_id")}
	if v := c.QueryParam("actor_id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			f.Add("actor_id", "integer", "deve ser um número inteiro positivo.")
		}
		flt.ActorID = id
	}
	for _, p := range []struct {
		name string
		days int
	}{{"from", 0}, {"to", 1}} {
		if v := c.QueryParam(p.name); v != "" {
			d, err := civil.Parse(v)
			if err != nil {
				f.Add(p.name, "date", "use AAAA-MM-DD.")
				continue
			}
			t := d.AddDays(p.days).Start(s.deps.Loc)
			if p.name == "from" {
				flt.From = t
			} else {
				flt.To = t
			}
		}
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			f.Add("limit", "range", "limit deve estar entre 1 e 1000.")
		}
		flt.Limit = n
	}
	if err := f.Err(); err != nil {
		return err
	}
	items, err := audit.List(c.Request().Context(), s.deps.DB, flt)
	if err != nil {
		return err
	}
	if items == nil {
		items = []audit.Entry{}
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}
