package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

// The decisions of the criminal flow as forms of the case page, for the
// judge of the case: homologating an accepted plea agreement (POST
// /processos/:id/homologacao) and suspending the proceedings (POST
// /processos/:id/suspensao); for the clerk, the defendant's notification of
// the sentence (POST /processos/:id/intimacoes), the appeal's result, the
// link of a group defendant and a person's identification. They call the same case services (app.Cases) as the
// JSON API, inside a transaction carrying the user (the audit trail names
// who acted). A form is shown only when the case's flow allows its step
// (cases.Next, the data of cases.CriminalFlow) and the user may take it.

// homologatePage: POST /processos/:id/homologacao (the judge of the case;
// form: hom.defendant_id, hom.first_day as dd/mm/aaaa, optional):
// homologates an accepted plea agreement through decisions.Service.Homologate,
// which creates the ban with source plea_agreement (Lei 9.099/1995, art.
// 76, § 4º; Lei 14.597/2023, art. 201, § 5º) and refreshes the blocklist.
func (s *UI) homologatePage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "hom.", form.Homologation)
	if !ok {
		return resp
	}
	r, ok, resp := pageWrite(s, c, "hom.", func(ctx context.Context) (*decisions.SentenceResult, error) {
		return s.Cases.Decisions.Homologate(ctx, server.Actor(c), id, in)
	})
	if !ok {
		return resp
	}
	msg := fmt.Sprintf("Transação penal homologada: impedimento de %s a %s (%s da %s). Baixe os documentos abaixo.", server.DateBR(r.Ban.FirstDay), server.DateBR(r.Ban.LastDay), r.Range.Article, r.Range.Law)
	return s.doneOnCase(c, id, "#documentos", msg, r.Warnings)
}

// suspendPage: POST /processos/:id/suspensao (the judge of the case; form:
// susp.defendant_id, susp.months, susp.first_day as dd/mm/aaaa, optional,
// the conditions of art. 89, § 1º: susp.repair_damage or
// susp.repair_impossible (I), susp.forbidden_places one a line and
// susp.sporting_venues (II), susp.stay_in_district (III),
// susp.monthly_appearance (IV), and susp.conditions, the judge's own (§ 2º),
// one a line): the conditional suspension of the
// proceedings through decisions.Service.Suspend (Lei 9.099/1995, art. 89: 2 to
// 4 years of probation with the conditions of §§ 1º and 2º).
func (s *UI) suspendPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "susp.", form.Suspension)
	if !ok {
		return resp
	}
	var sp *decisions.Suspension
	if err := s.InTx(c, func(ctx context.Context) error {
		var err error
		sp, err = s.Cases.Decisions.Suspend(ctx, server.Actor(c), id, in)
		return err
	}); err != nil {
		// The conditions are one textarea: its lines' errors go next to it.
		return s.caseFormFail(c, "susp.", collapseIndexed(collapseIndexed(err, "conditions"), "forbidden_places"))
	}
	s.flash(c, fmt.Sprintf("Processo suspenso por %d meses, de %s a %s (Lei 9.099/1995, art. 89).", sp.Months, sp.FirstDay.BR(), sp.LastDay.BR()))
	return redirect(c, fmt.Sprintf("/processos/%d", id))
}

// notifyPage: POST /processos/:id/intimacoes (clerk; form: int.party —
// defendant, the default, defence or prosecution —, int.defendant_id (not
// for the prosecution), int.notified_on as dd/mm/aaaa, int.waived_appeal):
// records a party's notification of the decision through
// calendar.Service.Notify, which opens that party's 10-day appeal window (Lei
// 9.099/1995, art. 82, § 1º; CPP art. 798, §§ 1º and 3º), or closes it at
// once with an express waiver of the appeal. The judgment becomes final
// when every party's window ended or was waived.
func (s *UI) notifyPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "int.", form.Notification)
	if !ok {
		return resp
	}
	d, ok, resp := pageWrite(s, c, "int.", func(ctx context.Context) (*calendar.DeadlineView, error) {
		return s.Cases.Calendar.Notify(ctx, server.Actor(c), id, in)
	})
	if !ok {
		return resp
	}
	who := server.OrSelf(calendar.PartyPT[d.Party], d.Party)
	msg := fmt.Sprintf("Ciência registrada (%s) em %s: prazo de recurso de %d dias até %s.", who, d.NotifiedOn.BR(), d.Days, d.LastDay.BR())
	if d.WaivedAppeal {
		msg = fmt.Sprintf("Ciência registrada (%s) em %s, com renúncia expressa ao prazo de recurso.", who, d.NotifiedOn.BR())
	}
	if d.Electronic {
		msg = fmt.Sprintf("Intimação eletrônica disponibilizada à defesa em %s: considera-se feita no dia em que for aberta, ou em %s se não o for.", d.AvailableOn.BR(), d.CountsOn.BR())
	}
	s.flash(c, msg)
	return redirect(c, fmt.Sprintf("/processos/%d#documentos", id))
}

// precautionaryPage: POST /processos/:id/cautelar (the judge of the case;
// form: caut.defendant_id, caut.first_day as dd/mm/aaaa, optional,
// caut.review_on, required, caut.publish, caut.text.reasoning, required):
// orders a precautionary ban alone
// (CPP art. 319, II: prohibition of access to sporting events, at any
// stage before the final judgment, whatever the conditions of art. 201, §§
// 2º and 6º) through decisions.Service.Sentence with precautionary true. A
// measure without a review date is refused (Res. CNJ 417/2021, art. 19).
func (s *UI) precautionaryPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "caut.", form.Precautionary)
	if !ok {
		return resp
	}
	r, ok, resp := pageWrite(s, c, "caut.", func(ctx context.Context) (*decisions.SentenceResult, error) {
		r, err := s.Cases.Decisions.Sentence(ctx, server.Actor(c), id, in)
		return r, membersByName(err)
	})
	if !ok {
		return resp
	}
	b := r.PrecautionaryBan
	msg := fmt.Sprintf("Medida cautelar ordenada (CPP, art. 319, II): proibição de acesso a eventos esportivos a %s desde %s, com revisão em %s; a lista de bloqueio dos clubes foi atualizada.", b.Name, server.DateBR(b.FirstDay), server.DateBR(b.ReviewOn))
	if b.Subject == sanctions.Group {
		msg = fmt.Sprintf("Tutela de urgência deferida (CPC, art. 300): proibição de acesso a eventos esportivos a %s desde %s, com revisão em %s", b.Name, server.DateBR(b.FirstDay), server.DateBR(b.ReviewOn))
		if n := len(r.MemberBans); n > 0 {
			msg += fmt.Sprintf(", e a %d associado(s) nomeado(s)", n)
		}
		msg += "; a lista de bloqueio dos clubes foi atualizada."
	}
	return s.doneOnCase(c, id, "#documentos", msg, r.Warnings)
}

// membersByName words the errors on the members an urgent order names
// (member_ids[i]: a member of no group of the court, or of another group
// than the defendant's; registry.SelectBanMembers) for the page, which
// shows members by name and never their ids: one error on the checkboxes
// (member_ids), 422, saying which members may be named. Other errors pass.
func membersByName(err error) error {
	var e *errs.Error
	if !errors.As(err, &e) {
		return err
	}
	out := &errs.Error{Kind: e.Kind, Message: e.Message}
	named := false
	for _, f := range e.Fields {
		if !strings.HasPrefix(f.Field, "member_ids[") {
			out.Fields = append(out.Fields, f)
		} else if !named {
			named = true
			out.Fields = append(out.Fields, errs.FieldError{Field: "member_ids", Rule: f.Rule,
				Message: "marque só associados do cadastro da torcida ré escolhida acima: a tutela de urgência (CPC, art. 300) alcança os associados da torcida a que se dirige."})
		}
	}
	if !named {
		return err
	}
	out.Kind = errs.Invalid
	return out
}

// appealResultPage: POST /processos/:id/recurso (clerk; form: rec.result —
// confirmed, reformed, annulled —, rec.defendant_id, rec.decided_on as
// dd/mm/aaaa, rec.text, and for reformed rec.outcome "acquittal" or
// rec.ban.months): records the Turma Recursal's result of the appeal
// through casefile.Service.RecordAppealResult (Lei 9.099/1995, art. 82); the
// final judgment may then be certified.
func (s *UI) appealResultPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "rec.", form.AppealResult)
	if !ok {
		return resp
	}
	if _, ok, resp := pageWrite(s, c, "rec.", func(ctx context.Context) (*casefile.View, error) {
		return s.Cases.Casefile.RecordAppealResult(ctx, server.Actor(c), id, in)
	}); !ok {
		return resp
	}
	msg := map[string]string{"confirmed": "Resultado do recurso registrado: negado provimento, mantida a sentença.",
		"reformed": "Resultado do recurso registrado: sentença reformada.", "annulled": "Resultado do recurso registrado: sentença anulada; o processo volta para nova sentença."}[in.Result]
	s.flash(c, msg+" Certifique o trânsito em julgado quando couber.")
	return redirect(c, fmt.Sprintf("/processos/%d#documentos", id))
}

// linkGroupPage: POST /processos/:id/torcida (clerk; the judge of the case;
// form: vinc.defendant_id, vinc.group_id): links a group defendant filed
// before its group was registered to the fan group registered in the
// court, through casefile.Service.LinkGroup (Lei 14.597/2023, art. 178), so
// that it can be sentenced.
func (s *UI) linkGroupPage(c echo.Context) error {
	id, l, ok, resp := caseForm(s, c, "vinc.", form.LinkGroup)
	if !ok {
		return resp
	}
	did, in := l.DefendantID, l.Input
	if _, ok, resp := pageWrite(s, c, "vinc.", func(ctx context.Context) (*casefile.View, error) {
		return s.Cases.Casefile.LinkGroup(ctx, server.Actor(c), id, did, in)
	}); !ok {
		return resp
	}
	s.flash(c, "Torcida ré vinculada à torcida cadastrada: o processo pode ser sentenciado.")
	return redirect(c, fmt.Sprintf("/processos/%d#partes", id))
}

// identifyPage: POST /processos/:id/identificacao (clerk, judge; form:
// ident.defendant_id, ident.cpf in any spelling, ident.birth_date as
// dd/mm/aaaa, optional): records the CPF of a person filed without one
// through execution.Service.Identify; their bans leave the queue awaiting
// identification and enter the blocklist.
func (s *UI) identifyPage(c echo.Context) error {
	id, idf, ok, resp := caseForm(s, c, "ident.", form.Identification)
	if !ok {
		return resp
	}
	did, in := idf.DefendantID, idf.Input
	r, ok, resp := pageWrite(s, c, "ident.", func(ctx context.Context) (*execution.IdentificationResult, error) {
		return s.Cases.Execution.Identify(ctx, server.Actor(c), id, did, in)
	})
	if !ok {
		return resp
	}
	msg := fmt.Sprintf("Identificação registrada: %s, CPF %s.", r.Defendant.FullName, registry.CPF(*r.Defendant.CPF).Formatted())
	if n := len(r.Bans); n == 1 {
		msg += " O impedimento passa à lista de bloqueio dos clubes enquanto vigorar."
	} else if n > 1 {
		msg += fmt.Sprintf(" Os %d impedimentos passam à lista de bloqueio dos clubes enquanto vigorarem.", n)
	}
	return s.doneOnCase(c, id, "#partes", msg, r.Warnings)
}

// carryRegisterCPFPage: POST /processos/:id/cpf-cadastro — the judge
// corrects on a member's ban (field ban) the CPF the group's register has
// since corrected (execution.Service.CarryRegisterCPF; CPC art. 494, I;
// issue 32, item 6).
func (s *UI) carryRegisterCPFPage(c echo.Context) error {
	id, err := server.IDParam(c, "Processo")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.Cases.Casefile.Get(ctx, server.Actor(c), id); err != nil {
		return s.pageFail(c, err) // another court's case is not found, like an unknown one
	}
	ban, err := strconv.ParseInt(strings.TrimSpace(c.FormValue("ban")), 10, 64)
	if err != nil || ban <= 0 {
		return s.pageFail(c, errs.InvalidField("ban", "required", "escolha o impedimento cujo CPF foi corrigido no cadastro."))
	}
	r, err := s.Cases.Execution.CarryRegisterCPF(ctx, server.Actor(c), ban)
	if err != nil {
		return s.pageFail(c, err)
	}
	return s.doneOnCase(c, id, "#impedimentos", fmt.Sprintf("CPF de %s corrigido no impedimento: %s (era %s).", r.Name, r.RegisterCPF, r.BanCPF), nil)
}
