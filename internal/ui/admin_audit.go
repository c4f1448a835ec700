package ui

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// auditPage: GET /admin/auditoria[?table=&record_id=&actor_id=&from=&to=]
// — the trail of the administrator's court, newest first; a caller without
// a court is 403 and reads nothing (audit.ErrNoCourt; issue 32, item 5).
func (s *UI) auditPage(c echo.Context) error {
	var f errs.Fields
	q := c.QueryParams()
	court := server.StaffCourt(c)
	if court == "" {
		return audit.ErrNoCourt
	}
	flt := audit.Filter{Table: strings.TrimSpace(q.Get("table")), RecordID: strings.TrimSpace(q.Get("record_id")), Limit: 200}
	if v := strings.TrimSpace(q.Get("actor_id")); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			f.Add("actor_id", "integer", "Use o número do usuário.")
		}
		flt.ActorID = id
	}
	if d := form.ISODate(&f, "from", q.Get("from")); d != "" {
		dd, _ := form.ParseDateBR(d)
		flt.From = dd.Start(s.Deps.Loc)
	}
	if d := form.ISODate(&f, "to", q.Get("to")); d != "" {
		dd, _ := form.ParseDateBR(d)
		flt.To = dd.AddDays(1).Start(s.Deps.Loc)
	}
	p := server.Page{Title: "Auditoria", Form: q}
	status := http.StatusOK
	var items []audit.Entry
	if err := f.Err(); err != nil {
		fields, msg, st, _ := formErrors(err)
		p.Errs, p.Error, status = fields, msg, st
	} else {
		var err error
		if items, err = s.App.Audit.List(c.Request().Context(), court, flt); err != nil {
			return err
		}
		audit.RedactMemberData(server.Actor(c).Role, items)
	}
	p.Data = items
	return s.Page(c, status, "admin_auditoria", p)
}
