package api

import (
	"net/http"

	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// auditList: GET /api/v1/audit (admin, judge) — the trail of the caller's
// court and of the member registers of the fan groups registered in it
// (domain "group:ID"), filtered by record (table, record_id), person
// (actor_id) and period (from, to: dates in the court's zone, to
// inclusive), newest first, in pages: page from 1, per_page 1–1000
// (default 100; limit is its older name). 200 {items, total, page,
// per_page}; 422 naming the parameter for a bad value (server.IntParam:
// rule "integer" for no integer, "range" for an integer outside the
// parameter's limits, a record_id written as an integer included). An admin sees the
// register's rows without their before/after (DOMAIN.md §7: no member
// data); a judge sees them whole. A caller without a court (a club, a fan
// group's manager, whatever rule of the policy let it in) is 403 and reads
// nothing (audit.ErrNoCourt; issue 32, item 5).
func (s *API) auditList(c echo.Context) error {
	var f errs.Fields
	court := server.StaffCourt(c)
	if court == "" {
		return audit.ErrNoCourt
	}
	flt := audit.Filter{Table: c.QueryParam("table"), RecordID: c.QueryParam("record_id")}
	if server.LooksInteger(flt.RecordID) { // a record's id; a court's code ("21.0001") is looked for as written
		if _, fe := server.IntParam("record_id", flt.RecordID, 1, server.MaxID); fe != nil {
			f = append(f, *fe)
		}
	}
	flt.ActorID = server.QueryInt(c, &f, "actor_id", 1, server.MaxID, 0)
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
			t := d.AddDays(p.days).Start(s.Deps.Loc)
			if p.name == "from" {
				flt.From = t
			} else {
				flt.To = t
			}
		}
	}
	page := server.QueryInt(c, &f, "page", 1, maxAuditPage, 1)
	perPage := server.QueryInt(c, &f, "per_page", 1, 1000, 100)
	perPage = server.QueryInt(c, &f, "limit", 1, 1000, perPage) // the older name, which wins
	if err := f.Err(); err != nil {
		return err
	}
	flt.Limit, flt.Offset = int(perPage), int((page-1)*perPage)
	ctx := c.Request().Context()
	items, err := s.App.Audit.List(ctx, court, flt)
	if err != nil {
		return err
	}
	total, err := s.App.Audit.Count(ctx, court, flt)
	if err != nil {
		return err
	}
	if items == nil {
		items = []audit.Entry{}
	}
	audit.RedactMemberData(server.Actor(c).Role, items)
	return c.JSON(http.StatusOK, map[string]any{"items": items, "total": total, "page": page, "per_page": perPage})
}

// maxAuditPage bounds ?page= so that the offset stays an int.
const maxAuditPage = 1_000_000
