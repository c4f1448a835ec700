package ui

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// auditData is the trail page: its rows in words, the kinds of record and
// the court's users the filter offers.
type auditData struct {
	Rows   []auditRow
	Tables []auditTableChoice
	Users  []accounts.User
}

// auditRow is a row of the trail as people read it: when, who, and what
// (AuditWords).
type auditRow struct {
	audit.Entry
	Words string
}

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
			f.Add("actor_id", "integer", "Escolha um usuário da lista.")
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
	users, err := s.App.Accounts.ListCourtUsers(c.Request().Context(), court)
	if err != nil {
		return err
	}
	d := auditData{Tables: auditTableChoices(), Users: users}
	for _, e := range items {
		d.Rows = append(d.Rows, auditRow{Entry: e, Words: AuditWords(e)})
	}
	p.Data = d
	return s.Page(c, status, "admin_auditoria", p)
}
