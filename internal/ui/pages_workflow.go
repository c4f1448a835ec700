package ui

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// The decisions of the criminal flow as forms of the case page, for the
// judge of the case: homologating an accepted plea agreement (POST
// /processos/:id/homologacao) and suspending the proceedings (POST
// /processos/:id/suspensao); for the clerk, the defendant's notification of
// the sentence (POST /processos/:id/intimacoes); and the court's holidays
// (GET and POST /feriados). They call the same cases.Service methods as the
// JSON API, inside a transaction carrying the user (the audit trail names
// who acted). A form is shown only when the case's flow allows its step
// (cases.Next, the data of cases.CriminalFlow) and the user may take it.

// pleaChoice is an accepted plea agreement waiting for the homologation.
type pleaChoice struct {
	DefendantID int64
	Name        string
	Months      int
	FirstDay    *civil.Date
}

// caseActions says which decision forms the case page offers the user.
// The steps come from the case's flow (cases.View.Next, built from
// cases.CriminalFlow) with the role each needs; the services check them
// again under a row lock.
type caseActions struct {
	// JudgeOfCase: the user is the judge the case is distributed to, the
	// only one who decides it (bans, homologation, suspension).
	JudgeOfCase bool
	// Offer: the prosecutor may offer a plea agreement (Lei 9.099/1995,
	// art. 76): the flow goes to plea_offered from here, or is there.
	Offer bool
	// Homologate: an accepted plea agreement waits for the judge (Lei
	// 9.099/1995, art. 76, § 4º); Accepted lists them.
	Homologate bool
	Accepted   []pleaChoice
	// Suspend: the flow allows the conditional suspension (Lei 9.099/1995,
	// art. 89) from here.
	Suspend bool
	// Notify: the clerk may record a party's notification of the decision
	// that opens its appeal window, or its express waiver of the appeal
	// (Lei 9.099/1995, art. 82, § 1º); Parties are the parties to choose
	// (the defence only in a criminal case).
	Notify  bool
	Parties []string
	// Precautionary: the judge of the case may order a precautionary ban
	// alone (CPP art. 319, II: at any stage before the final judgment).
	Precautionary bool
	// AppealResult: the clerk records the Turma Recursal's result of the
	// appeal (Lei 9.099/1995, art. 82).
	AppealResult bool
	// Unlinked: the group defendants not linked to a registered fan group,
	// which cannot be sentenced until linked (cases.Service.LinkGroup); set
	// for the clerk and the judge of the case while the case is undecided.
	// Groups: the court's registered groups to choose from.
	Unlinked []cases.DefendantView
	Groups   []cases.RegisteredGroup
	// Unidentified: the person defendants filed without a CPF, whom the
	// clerk or a judge of the court may identify (their bans stay out of
	// the blocklist until then).
	Unidentified []cases.DefendantView
	// Today is today's date as dd/mm/aaaa (the default of decision dates).
	Today string
}

// caseActionsFor computes the forms of case v for user u on day today.
func caseActionsFor(v *cases.View, role string, userID int64, today civil.Date) caseActions {
	a := caseActions{Today: today.BR()}
	if v == nil {
		return a
	}
	a.JudgeOfCase = role == "judge" && v.Judge != nil && v.Judge.ID == userID
	allowed := func(to string, via bool) bool {
		for _, t := range v.Next {
			if t.To == to && (t.Via != "") == via && slices.Contains(t.Roles, role) {
				return true
			}
		}
		return false
	}
	a.Offer = role == "prosecutor" && (allowed(cases.StatusPleaOffered, true) || v.Status == cases.StatusPleaOffered)
	if a.JudgeOfCase {
		a.Suspend = allowed(cases.StatusConditionalSuspension, true)
		if allowed(cases.StatusExecuting, true) { // plea_accepted → executing, via the homologation
			names := map[int64]string{}
			for _, d := range v.Defendants {
				names[d.ID] = d.FullName
			}
			for _, p := range v.Pleas {
				if p.Status == "accepted" {
					a.Accepted = append(a.Accepted, pleaChoice{DefendantID: p.DefendantID, Name: names[p.DefendantID], Months: p.Months, FirstDay: p.FirstDay})
				}
			}
			a.Homologate = len(a.Accepted) > 0
		}
	}
	if (role == "clerk" || a.JudgeOfCase) && v.Sentenceable {
		for _, d := range v.Defendants {
			if d.Kind == "fan_group" && d.GroupID == nil {
				a.Unlinked = append(a.Unlinked, d)
			}
		}
	}
	// cases.Service.Notify takes the notification of a decided case.
	a.Notify = role == "clerk" && (v.Status == cases.StatusSentenced || v.Status == cases.StatusJudgment)
	if a.Notify {
		a.Parties = []string{cases.PartyDefendant}
		if v.Flow == cases.FlowCriminal {
			a.Parties = append(a.Parties, cases.PartyDefence)
		}
		a.Parties = append(a.Parties, cases.PartyProsecution)
	}
	a.Precautionary = a.JudgeOfCase && len(v.Defendants) > 0 && !slices.Contains([]string{cases.StatusFinal, cases.StatusExecuting, cases.StatusArchived, cases.StatusSettlement}, v.Status)
	a.AppealResult = role == "clerk" && v.Status == cases.StatusAppeal
	if role == "clerk" || role == "judge" {
		for _, d := range v.Defendants {
			if d.AwaitingIdentification {
				a.Unidentified = append(a.Unidentified, d)
			}
		}
	}
	return a
}

// homologatePage: POST /processos/:id/homologacao (the judge of the case;
// form: hom.defendant_id, hom.first_day as dd/mm/aaaa, optional):
// homologates an accepted plea agreement through cases.Service.Homologate,
// which creates the ban with source plea_agreement (Lei 9.099/1995, art.
// 76, § 4º; Lei 14.597/2023, art. 201, § 5º) and refreshes the blocklist.
func (s *UI) homologatePage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	in := cases.HomologateInput{DefendantID: formID(c.FormValue("hom.defendant_id")), FirstDay: form.IsoDate(&f, "first_day", c.FormValue("hom.first_day"))}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "hom.", err)
	}
	r, ok, resp := pageWrite(s, c, "hom.", func(ctx context.Context) (*cases.SentenceResult, error) {
		return s.Cases.Homologate(ctx, server.Actor(c), id, in)
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
// proceedings through cases.Service.Suspend (Lei 9.099/1995, art. 89: 2 to
// 4 years of probation with the conditions of §§ 1º and 2º).
func (s *UI) suspendPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	in := cases.SuspensionInput{DefendantID: formID(c.FormValue("susp.defendant_id")), Months: formInt(&f, "months", c.FormValue("susp.months")),
		FirstDay: form.IsoDate(&f, "first_day", c.FormValue("susp.first_day"))}
	in.RepairDamage, in.RepairImpossible = c.FormValue("susp.repair_damage"), c.FormValue("susp.repair_impossible")
	in.SportingVenues = c.FormValue("susp.sporting_venues") == "true"
	stay, monthly := c.FormValue("susp.stay_in_district") == "true", c.FormValue("susp.monthly_appearance") == "true"
	in.StayInDistrict, in.MonthlyAppearance = &stay, &monthly
	in.ForbiddenPlaces = formLines(c.FormValue("susp.forbidden_places"))
	in.Conditions = formLines(c.FormValue("susp.conditions"))
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "susp.", err)
	}
	var sp *cases.Suspension
	if err := s.InTx(c, func(ctx context.Context) error {
		var err error
		sp, err = s.Cases.Suspend(ctx, server.Actor(c), id, in)
		return err
	}); err != nil {
		// The conditions are one textarea: its lines' errors go next to it.
		return s.caseFormFail(c, "susp.", collapseIndexed(collapseIndexed(err, "conditions"), "forbidden_places"))
	}
	s.flash(c, fmt.Sprintf("Processo suspenso por %d meses, de %s a %s (Lei 9.099/1995, art. 89).", sp.Months, sp.FirstDay.BR(), sp.LastDay.BR()))
	return redirect(c, fmt.Sprintf("/processos/%d", id))
}

// formLines is a textarea's non-empty lines, trimmed.
func formLines(v string) []string {
	var out []string
	for _, line := range strings.Split(v, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// collapseIndexed renames the fields name[i] of an Invalid error to name.
func collapseIndexed(err error, name string) error {
	e, ok := err.(*errs.Error)
	if !ok {
		return err
	}
	out := &errs.Error{Kind: e.Kind, Message: e.Message}
	for _, f := range e.Fields {
		if strings.HasPrefix(f.Field, name+"[") {
			f.Field = name
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}

// notifyPage: POST /processos/:id/intimacoes (clerk; form: int.party —
// defendant, the default, defence or prosecution —, int.defendant_id (not
// for the prosecution), int.notified_on as dd/mm/aaaa, int.waived_appeal):
// records a party's notification of the decision through
// cases.Service.Notify, which opens that party's 10-day appeal window (Lei
// 9.099/1995, art. 82, § 1º; CPP art. 798, §§ 1º and 3º), or closes it at
// once with an express waiver of the appeal. The judgment becomes final
// when every party's window ended or was waived.
func (s *UI) notifyPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	typed := c.FormValue("int.notified_on")
	in := cases.NotificationInput{Party: strings.TrimSpace(c.FormValue("int.party")), DefendantID: formID(c.FormValue("int.defendant_id")),
		NotifiedOn: form.IsoDate(&f, "notified_on", typed)}
	if w := triState(c.FormValue("int.waived_appeal")); w != nil {
		in.WaivedAppeal = *w
	}
	if in.Party == cases.PartyProsecution {
		in.DefendantID = 0 // one notice of the prosecution per case
	}
	if strings.TrimSpace(typed) == "" {
		f.Add("notified_on", "required", "Informe o dia da ciência (dd/mm/aaaa).")
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "int.", err)
	}
	d, ok, resp := pageWrite(s, c, "int.", func(ctx context.Context) (*cases.DeadlineView, error) {
		return s.Cases.Notify(ctx, server.Actor(c), id, in)
	})
	if !ok {
		return resp
	}
	who := server.OrSelf(cases.PartyPT[d.Party], d.Party)
	msg := fmt.Sprintf("Ciência registrada (%s) em %s: prazo de recurso de %d dias até %s.", who, d.NotifiedOn.BR(), d.Days, d.LastDay.BR())
	if d.WaivedAppeal {
		msg = fmt.Sprintf("Ciência registrada (%s) em %s, com renúncia expressa ao prazo de recurso.", who, d.NotifiedOn.BR())
	}
	s.flash(c, msg)
	return redirect(c, fmt.Sprintf("/processos/%d#documentos", id))
}

// precautionaryPage: POST /processos/:id/cautelar (the judge of the case;
// form: caut.defendant_id, caut.first_day as dd/mm/aaaa, optional,
// caut.review_on, required, caut.publish): orders a precautionary ban alone
// (CPP art. 319, II: prohibition of access to sporting events, at any
// stage before the final judgment, whatever the conditions of art. 201, §§
// 2º and 6º) through cases.Service.Sentence with precautionary true. A
// measure without a review date is refused (Res. CNJ 417/2021, art. 19).
func (s *UI) precautionaryPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	typed := c.FormValue("caut.review_on")
	in := cases.SentenceInput{DefendantID: formRef(&f, "defendant_id", c.FormValue("caut.defendant_id")), Precautionary: true,
		ReviewOn: form.IsoDate(&f, "review_on", typed)}
	in.Ban.FirstDay = form.IsoDate(&f, "first_day", c.FormValue("caut.first_day"))
	if v := c.FormValue("caut.publish"); v != "" {
		in.Publish = triState(v)
	}
	if strings.TrimSpace(typed) == "" {
		f.Add("review_on", "required", "Informe a data de revisão da medida (dd/mm/aaaa): não há medida cautelar sem revisão (Res. CNJ 417/2021, art. 19).")
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "caut.", err)
	}
	r, ok, resp := pageWrite(s, c, "caut.", func(ctx context.Context) (*cases.SentenceResult, error) {
		return s.Cases.Sentence(ctx, server.Actor(c), id, in)
	})
	if !ok {
		return resp
	}
	b := r.PrecautionaryBan
	msg := fmt.Sprintf("Medida cautelar ordenada (CPP, art. 319, II): proibição de acesso a eventos esportivos a %s desde %s, com revisão em %s; a lista de bloqueio dos clubes foi atualizada.", b.Name, server.DateBR(b.FirstDay), server.DateBR(b.ReviewOn))
	return s.doneOnCase(c, id, "#documentos", msg, r.Warnings)
}

// appealResultPage: POST /processos/:id/recurso (clerk; form: rec.result —
// confirmed, reformed, annulled —, rec.defendant_id, rec.decided_on as
// dd/mm/aaaa, rec.text, and for reformed rec.outcome "acquittal" or
// rec.ban.months): records the Turma Recursal's result of the appeal
// through cases.Service.RecordAppealResult (Lei 9.099/1995, art. 82); the
// final judgment may then be certified.
func (s *UI) appealResultPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	in := cases.AppealResultInput{Result: strings.TrimSpace(c.FormValue("rec.result")), DefendantID: formRef(&f, "defendant_id", c.FormValue("rec.defendant_id")),
		DecidedOn: form.IsoDate(&f, "decided_on", c.FormValue("rec.decided_on")), Text: c.FormValue("rec.text"), Outcome: strings.TrimSpace(c.FormValue("rec.outcome"))}
	in.Ban.Months = formInt(&f, "ban.months", c.FormValue("rec.ban.months"))
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "rec.", err)
	}
	if _, ok, resp := pageWrite(s, c, "rec.", func(ctx context.Context) (*cases.View, error) {
		return s.Cases.RecordAppealResult(ctx, server.Actor(c), id, in)
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
// court, through cases.Service.LinkGroup (Lei 14.597/2023, art. 178), so
// that it can be sentenced.
func (s *UI) linkGroupPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	did := formRef(&f, "defendant_id", c.FormValue("vinc.defendant_id"))
	if did == 0 && strings.TrimSpace(c.FormValue("vinc.defendant_id")) == "" {
		f.Add("defendant_id", "required", "Escolha a torcida ré.")
	}
	var in cases.LinkGroupInput
	if v := strings.TrimSpace(c.FormValue("vinc.group_id")); v == "" {
		f.Add("group_id", "required", "Escolha a torcida cadastrada.")
	} else if g, err := strconv.ParseInt(v, 10, 64); err != nil || g <= 0 {
		f.Add("group_id", "integer", fmt.Sprintf("Torcida %q inválida: escolha uma torcida cadastrada.", v))
	} else {
		in.GroupID = &g
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "vinc.", err)
	}
	if _, ok, resp := pageWrite(s, c, "vinc.", func(ctx context.Context) (*cases.View, error) {
		return s.Cases.LinkGroup(ctx, server.Actor(c), id, did, in)
	}); !ok {
		return resp
	}
	s.flash(c, "Torcida ré vinculada à torcida cadastrada: o processo pode ser sentenciado.")
	return redirect(c, fmt.Sprintf("/processos/%d#partes", id))
}

// identifyPage: POST /processos/:id/identificacao (clerk, judge; form:
// ident.defendant_id, ident.cpf in any spelling, ident.birth_date as
// dd/mm/aaaa, optional): records the CPF of a person filed without one
// through cases.Service.Identify; their bans leave the queue awaiting
// identification and enter the blocklist.
func (s *UI) identifyPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	did := formRef(&f, "defendant_id", c.FormValue("ident.defendant_id"))
	if did == 0 && strings.TrimSpace(c.FormValue("ident.defendant_id")) == "" {
		f.Add("defendant_id", "required", "Escolha o representado.")
	}
	in := cases.IdentificationInput{CPF: c.FormValue("ident.cpf"), BirthDate: form.IsoDate(&f, "birth_date", c.FormValue("ident.birth_date"))}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "ident.", err)
	}
	r, ok, resp := pageWrite(s, c, "ident.", func(ctx context.Context) (*cases.IdentificationResult, error) {
		return s.Cases.Identify(ctx, server.Actor(c), id, did, in)
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

// holidaysData is the data of the holidays page.
type holidaysData struct {
	Year       int
	Prev, Next int
	Items      []cases.Holiday
	// CanAdd: the clerk keeps the calendar (DOMAIN.md §4).
	CanAdd bool
}

// holidaysPage: GET /feriados[?ano=AAAA] (clerk, judge): the court's
// holidays of a year (default: this year), which move a deadline ending on
// them to the next working day (CPP art. 798, § 3º), with the clerk's form.
func (s *UI) holidaysPage(c echo.Context) error {
	return s.renderHolidays(c, http.StatusOK, server.Page{Form: url.Values{}})
}

func (s *UI) renderHolidays(c echo.Context, status int, p server.Page) error {
	year := civil.Today(s.Now(), s.Deps.Loc).Year
	if y, err := strconv.Atoi(c.QueryParam("ano")); err == nil && y >= 2000 && y <= 2200 {
		year = y
	}
	items, err := s.Cases.Holidays(c.Request().Context(), server.Actor(c), strconv.Itoa(year))
	if err != nil {
		return s.pageFail(c, err)
	}
	p.Title = fmt.Sprintf("Feriados do juizado (%d)", year)
	p.Data = holidaysData{Year: year, Prev: year - 1, Next: year + 1, Items: items, CanAdd: pageUser(c).Role == "clerk"}
	return s.Page(c, status, "feriados", p)
}

// addHolidayPage: POST /feriados (clerk; form: date as dd/mm/aaaa, name):
// adds a day to the court's calendar through cases.Service.AddHoliday; the
// appeal windows are computed with it from then on.
func (s *UI) addHolidayPage(c echo.Context) error {
	vals := url.Values{"date": {c.FormValue("date")}, "name": {c.FormValue("name")}}
	var f errs.Fields
	in := cases.HolidayInput{Date: form.IsoDate(&f, "date", vals.Get("date")), Name: vals.Get("name")}
	if strings.TrimSpace(vals.Get("date")) == "" {
		f.Add("date", "required", "Informe a data (dd/mm/aaaa).")
	}
	if strings.TrimSpace(in.Name) == "" {
		f.Add("name", "required", "Informe o nome do feriado.")
	}
	err := f.Err()
	var h *cases.Holiday
	if err == nil {
		err = s.InTx(c, func(ctx context.Context) error {
			var err error
			h, err = s.Cases.AddHoliday(ctx, server.Actor(c), in)
			return err
		})
	}
	if err != nil {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		if len(fields) == 0 {
			msg = upperFirst(msg)
		}
		return s.renderHolidays(c, status, server.Page{Form: vals, Errs: fields, Error: msg})
	}
	s.flash(c, fmt.Sprintf("Feriado incluído: %s, %s. Os prazos que terminariam nesse dia passam ao dia útil seguinte.", h.Day.BR(), h.Name))
	return redirect(c, fmt.Sprintf("/feriados?ano=%d", h.Day.Year))
}

// pageWrite runs write in one transaction carrying the user (inTx) and
// returns its result with ok true; when it fails, the case page is shown
// again with the error next to the form of the fields' prefix
// (caseFormFail), ok is false and resp is what the handler returns.
func pageWrite[T any](s *UI, c echo.Context, prefix string, write func(ctx context.Context) (T, error)) (out T, ok bool, resp error) {
	err := s.InTx(c, func(ctx context.Context) error {
		var err error
		out, err = write(ctx)
		return err
	})
	if err != nil {
		return out, false, s.caseFormFail(c, prefix, err)
	}
	return out, true, nil
}

// doneOnCase ends a case page's write: the message with the service's
// warnings as the next page's notice, and a redirect (303) to the case at
// anchor ("" or "#section").
func (s *UI) doneOnCase(c echo.Context, id int64, anchor, msg string, warnings []string) error {
	if len(warnings) > 0 {
		msg += " " + strings.Join(warnings, " ")
	}
	s.flash(c, msg)
	return redirect(c, fmt.Sprintf("/processos/%d%s", id, anchor))
}
