package api

import (
	"encoding/json"
	"net/http"
	"strings"

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
// data); a judge sees them whole.
func (s *API) auditList(c echo.Context) error {
	var f errs.Fields
	flt := audit.Filter{Domain: server.Actor(c).Court, CourtGroups: true, Table: c.QueryParam("table"), RecordID: c.QueryParam("record_id")}
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
	items, err := s.App.Audit.List(ctx, flt)
	if err != nil {
		return err
	}
	total, err := s.App.Audit.Count(ctx, flt)
	if err != nil {
		return err
	}
	if items == nil {
		items = []audit.Entry{}
	}
	RedactMemberData(server.Actor(c).Role, items)
	return c.JSON(http.StatusOK, map[string]any{"items": items, "total": total, "page": page, "per_page": perPage})
}

// maxAuditPage bounds ?page= so that the offset stays an int.
const maxAuditPage = 1_000_000

// RedactMemberData empties before and after of the rows of the member
// registers (domain "group:ID": a member's personal data, or what a read
// returned) for an admin, who has no member data (DOMAIN.md §7); the row
// (who, when, action, table, record) stays.
//
// Defendants' personal data is kept from an admin too:
// in every other row, the keys of personalKeys are removed from before and
// after (a defendant's CPF, birth date, parents' names, address, and the
// same in a read's detail), the rest of the row stays.
func RedactMemberData(role string, items []audit.Entry) {
	if role != "admin" {
		return
	}
	for i := range items {
		if strings.HasPrefix(items[i].Domain, "group:") {
			items[i].Before, items[i].After = nil, nil
			continue
		}
		items[i].Before = stripPersonal(items[i].Before)
		items[i].After = stripPersonal(items[i].After)
	}
}

// personalKeys are the fields of a person's data that an admin never reads
// (DOMAIN.md §7: the admin manages accounts, not cases).
var personalKeys = []string{"cpf", "birth_date", "mother_name", "father_name", "address", "photo", "phone", "email", "rg", "full_name_folded"}

// stripPersonal removes personalKeys from a JSON object, at any depth.
func stripPersonal(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return raw
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil
	}
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range personalKeys {
				delete(t, k)
			}
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		}
		return x
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		return nil
	}
	return out
}
