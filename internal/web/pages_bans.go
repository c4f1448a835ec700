package web

// The judge's decisions on the bans of a case, as forms of the case page
// (POST /processos/:id/revogacao and /processos/:id/prorrogacao): lifting a
// precautionary ban and extending a ban's term. They call the same
// cases.Service methods as POST /api/v1/bans/:id/lift and /extend, inside a
// transaction carrying the judge (the audit trail names who decided).
//
// Each ban has its own form on the page; the ban is the hidden field ban_id
// and the fields of its form carry its id ("rev[12].reason"), so that an
// error shows next to the field of that ban's form and nowhere else.

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// banPages registers the forms of the judge's decisions on bans.
func (s *Server) banPages(e *echo.Echo) {
	judge := s.requirePage("judge")
	e.POST("/processos/:id/revogacao", s.liftPage, judge)
	e.POST("/processos/:id/prorrogacao", s.extendPage, judge)
}

// caseBan returns the case of the path and the ban of the form field ban_id,
// which must be one of that case's bans (errs.NotFound otherwise: a ban of
// another case is not decided from this page).
func (s *Server) caseBan(c echo.Context) (int64, *cases.BanView, error) {
	id, err := caseID(c)
	if err != nil {
		return 0, nil, err
	}
	v, err := s.cases.Get(c.Request().Context(), actor(c), id)
	if err != nil {
		return 0, nil, err
	}
	want := formID(c.FormValue("ban_id"))
	for i := range v.Bans {
		if v.Bans[i].ID == want {
			return id, &v.Bans[i], nil
		}
	}
	return 0, nil, errs.New(errs.NotFound, "Impedimento não encontrado neste processo.")
}

// banPrefix is the prefix of the fields of ban id's form named form.
func banPrefix(form string, id int64) string { return fmt.Sprintf("%s[%d].", form, id) }

// liftPage: POST /processos/:id/revogacao (the judge of the case; form:
// ban_id, rev[ID].lifted_on as dd/mm/aaaa, rev[ID].reason): lifts a
// precautionary ban (CPP art. 319, II; art. 282, § 5º) through
// cases.Service.Lift, which refreshes the blocklist in the same
// transaction.
func (s *Server) liftPage(c echo.Context) error {
	id, ban, err := s.caseBan(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	prefix := banPrefix("rev", ban.ID)
	var f errs.Fields
	typed := c.FormValue(prefix + "lifted_on")
	in := cases.LiftInput{LiftedOn: isoDate(&f, "lifted_on", typed), Reason: c.FormValue(prefix + "reason")}
	if strings.TrimSpace(typed) == "" {
		f.Add("lifted_on", "required", "Informe a data da decisão que revoga a medida (dd/mm/aaaa).")
	}
	if strings.TrimSpace(in.Reason) == "" {
		f.Add("reason", "required", "Informe o motivo da revogação.")
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, prefix, err)
	}
	out, ok, resp := pageWrite(s, c, prefix, func(ctx context.Context) (*cases.BanView, error) {
		return s.cases.Lift(ctx, actor(c), ban.ID, in)
	})
	if !ok {
		return resp
	}
	s.flash(c, fmt.Sprintf("Impedimento cautelar de %s revogado em %s (CPP, art. 282, § 5º): a lista de bloqueio dos clubes foi atualizada.", out.Name, dateBR(out.LiftedOn)))
	return redirect(c, fmt.Sprintf("/processos/%d#documentos", id))
}

// extendPage: POST /processos/:id/prorrogacao (the judge of the case; form:
// ban_id, pro[ID].review_on, pro[ID].reason): renews a precautionary ban
// (new review date, CPP art. 319, II) through cases.Service.Renew. A final
// ban is never extended (CF art. 5º, XXXVI): the service refuses it.
func (s *Server) extendPage(c echo.Context) error {
	id, ban, err := s.caseBan(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	prefix := banPrefix("pro", ban.ID)
	var f errs.Fields
	typed := c.FormValue(prefix + "review_on")
	in := cases.ExtendInput{ReviewOn: isoDate(&f, "review_on", typed), Reason: c.FormValue(prefix + "reason")}
	if strings.TrimSpace(typed) == "" {
		f.Add("review_on", "required", "Informe a nova data de revisão (dd/mm/aaaa).")
	}
	if strings.TrimSpace(in.Reason) == "" {
		f.Add("reason", "required", "Informe o fundamento da renovação.")
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, prefix, err)
	}
	r, ok, resp := pageWrite(s, c, prefix, func(ctx context.Context) (*cases.RenewResult, error) {
		return s.cases.Extend(ctx, actor(c), ban.ID, in)
	})
	if !ok {
		return resp
	}
	msg := fmt.Sprintf("Medida cautelar de %s renovada: revisão em %s.", r.Ban.Name, r.Renewal.NewReview.BR())
	return s.doneOnCase(c, id, "#documentos", msg, r.Notes)
}
