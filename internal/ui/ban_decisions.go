package ui

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// The judge's decisions on the bans of a case, as forms of the case page:
// lifting a precautionary ban (POST /processos/:id/revogacao) and renewing
// it (/renovacao); correcting a material error in a final ban's last day
// (/correcao) and deciding the credit for time under precautionary bans
// (/detracao). A final ban is never extended (CF art. 5º, XXXVI). They call
// the same execution.Service methods as POST /api/v1/bans/:id/lift, /renew,
// /correct and /credit, inside a transaction carrying the judge (the audit
// trail names who decided).
//
// Each ban has its own form on the page; the ban is the hidden field ban_id
// and the fields of its form carry its id ("rev[12].reason"), so that an
// error shows next to the field of that ban's form and nowhere else.

// liftPage: POST /processos/:id/revogacao (the judge of the case; form:
// ban_id, rev[ID].lifted_on as dd/mm/aaaa, rev[ID].reason): lifts a
// precautionary ban (CPP art. 319, II; art. 282, § 5º) through
// execution.Service.Lift, which refreshes the blocklist in the same
// transaction.
func (s *UI) liftPage(c echo.Context) error {
	id, ban, prefix, in, ok, resp := banForm(s, c, "rev", form.Lift)
	if !ok {
		return resp
	}
	out, ok, resp := pageWrite(s, c, prefix, func(ctx context.Context) (*cases.BanView, error) {
		return s.Cases.Execution.Lift(ctx, server.Actor(c), ban.ID, in)
	})
	if !ok {
		return resp
	}
	s.flash(c, fmt.Sprintf("Impedimento cautelar de %s revogado em %s (CPP, art. 282, § 5º): a lista de bloqueio dos clubes foi atualizada.", out.Name, server.DateBR(out.LiftedOn)))
	return redirect(c, fmt.Sprintf("/processos/%d#documentos", id))
}

// renewPage: POST /processos/:id/renovacao (the judge of the case; form:
// ban_id, ren[ID].review_on as dd/mm/aaaa, ren[ID].reason): renews a
// precautionary ban with a new review date (CPP art. 319, II; art. 282;
// Res. CNJ 417/2021, art. 19) through execution.Service.Renew. Only a
// precautionary ban is renewed: a final ban is never extended (CF art. 5º,
// XXXVI), and the page offers it no such form.
func (s *UI) renewPage(c echo.Context) error {
	id, ban, prefix, in, ok, resp := banForm(s, c, "ren", form.Renew)
	if !ok {
		return resp
	}
	r, ok, resp := pageWrite(s, c, prefix, func(ctx context.Context) (*execution.RenewResult, error) {
		return s.Cases.Execution.Renew(ctx, server.Actor(c), ban.ID, in)
	})
	if !ok {
		return resp
	}
	msg := fmt.Sprintf("Medida cautelar de %s renovada (CPP, art. 319, II): revisão em %s.", r.Ban.Name, r.Renewal.NewReview.BR())
	return s.doneOnCase(c, id, "#documentos", msg, r.Notes)
}

// correctPage: POST /processos/:id/correcao (the judge of the case; form:
// ban_id, cor[ID].last_day as dd/mm/aaaa, cor[ID].reason): corrects a
// material error in a final ban's last day through execution.Service.Correct
// (DOMAIN.md §3: its own movement, with its reason; not an extension: the
// term stays within the range recorded on the ban).
func (s *UI) correctPage(c echo.Context) error {
	id, ban, prefix, in, ok, resp := banForm(s, c, "cor", form.Correct)
	if !ok {
		return resp
	}
	b, ok, resp := pageWrite(s, c, prefix, func(ctx context.Context) (*cases.BanView, error) {
		return s.Cases.Execution.Correct(ctx, server.Actor(c), ban.ID, in)
	})
	if !ok {
		return resp
	}
	return s.doneOnCase(c, id, "#documentos", fmt.Sprintf("Erro material corrigido no impedimento de %s: último dia %s.", b.Name, server.DateBR(b.LastDay)), nil)
}

// creditPage: POST /processos/:id/detracao (the judge of the case; form:
// ban_id, det[ID].days, det[ID].reason): the judge's decision on the time
// the defendant spent under precautionary bans (detração, CP art. 42; a
// decision, never automatic; 0 days records a refusal) through
// execution.Service.Credit.
func (s *UI) creditPage(c echo.Context) error {
	id, ban, prefix, in, ok, resp := banForm(s, c, "det", form.Credit)
	if !ok {
		return resp
	}
	b, ok, resp := pageWrite(s, c, prefix, func(ctx context.Context) (*cases.BanView, error) {
		return s.Cases.Execution.Credit(ctx, server.Actor(c), ban.ID, in)
	})
	if !ok {
		return resp
	}
	return s.doneOnCase(c, id, "#documentos", fmt.Sprintf("Detração decidida (CP, art. 42): %d dias descontados do impedimento de %s, que termina em %s.", *in.Days, b.Name, server.DateBR(b.LastDay)), nil)
}
