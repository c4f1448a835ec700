package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

// The judge's sentence form (GET and POST /processos/:id/sentenca): one
// defendant's decision as the law writes it (DOMAIN.md §2 "Outcomes";
// ../shared/API.md, POST /api/v1/cases/{id}/sentence): the outcome
// (conviction with the conversion to a ban, conviction to reclusão and
// fine without conversion, acquittal with its item of CPP art. 386), the
// defendant's own flags (CF art. 5º, XLV–XLVI), the prison term in the
// three phases of the dosimetry (CP arts. 59 and 68), the fine in
// dias-multa (CP art. 49), the ban's term with an optional later first day
// (the ban starts at the final judgment: Súmula 643 STJ), a precautionary
// ban until the judgment is final (CPP art. 319, II) and the judge's own
// text (CF art. 93, IX). The buttons: "Recalcular" runs the signing's own
// checks with nothing saved, "Salvar minuta" saves a draft (previewed as
// the PDF), "Assinar" signs. The form's field names are the API's, so that
// the service's errors land next to their fields.

// sentenceData is the data of the sentence form: the case, the defendant
// decided, the law and ranges that apply to them at the date of the facts
// and what the form computed from what the judge typed.
type sentenceData struct {
	Case      *casefile.View
	Defendant *cases.DefendantView
	// Sole: the case has one defendant, whose flags left "conforme as
	// condutas" follow the representation's conduct; with more defendants
	// a flag not stated is false (a penalty is personal, CF art. 5º,
	// XLV–XLVI).
	Sole bool
	// Sentenced: the defendant already has a signed sentence.
	Sentenced  bool
	Range      *sanctions.Range
	RangeError string
	// Checked: "Recalcular" ran the signing's own checks (decisions.Service.Sentence
	// as a minuta, in a transaction rolled back: nothing saved) and they
	// passed; Range is then the service's. Derived names, in Portuguese, the
	// flags it took from the case's conduct.
	Checked bool
	Derived []string
	// LastDay is the ban's last day (CP art. 10) counted from the later
	// first day the judge typed or, without one (LastDayIfToday), from today
	// as if the judgment became final today.
	LastDay        string
	LastDayIfToday bool
	Court          cases.Court
	Subject        string
	// Warnings the judge needs before signing (casefile.Service.SentenceWarnings
	// and, after "Recalcular", the sentence's own warnings).
	Warnings []string
	// Grounds are the items of CPP art. 386 (acquittal).
	Grounds []acquittalGround
	// Draft is the defendant's saved minuta (nil: none) and DraftPDF the
	// address of its preview as the PDF of the sentence (the page route of
	// GET /api/v1/cases/{id}/sentence/draft.pdf, for the judge's session).
	Draft    *decisions.SentenceRecord
	DraftPDF string
	// Review: the judge asked to review the saved minuta before signing
	// ("Revisar e assinar"): the page shows the decision as it will be
	// signed (its PDF) and offers the signing.
	Review bool
	// Outcome is the chosen outcome (ban by default): the form shows the
	// sections of that outcome only (the others hidden; a script shows them
	// as the choice changes, and without it "Recalcular" does).
	Outcome string
}

// acquittalGround is an item of CPP art. 386 with its text.
type acquittalGround struct{ Item, Text string }

// acquittalGrounds lists the items of CPP art. 386 in order (I to VII).
func acquittalGrounds() []acquittalGround {
	var out []acquittalGround
	for _, item := range []string{"I", "II", "III", "IV", "V", "VI", "VII"} {
		out = append(out, acquittalGround{Item: item, Text: decisions.AcquittalGrounds[item]})
	}
	return out
}

// sentenceForm: GET /processos/:id/sentenca[?defendant_id=&...] (judge):
// the form with the law and ranges that apply to the date of the facts,
// computed from the query. A visit with no more than the defendant
// continues that defendant's saved minuta, if any.
func (s *UI) sentenceForm(c echo.Context) error {
	vals := c.QueryParams()
	return s.renderSentence(c, http.StatusOK, server.Page{Form: vals}, nil)
}

// renderSentence shows the sentence form; checked is the result of the
// signing's checks ("Recalcular"), nil when they did not run.
func (s *UI) renderSentence(c echo.Context, status int, p server.Page, checked *decisions.SentenceResult) error {
	ctx := c.Request().Context()
	id, err := caseID(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	v, err := s.Cases.Casefile.Get(ctx, server.Actor(c), id)
	if err != nil {
		return s.pageFail(c, err)
	}
	court, err := s.Cases.Case.Court(ctx, v.Court)
	if err != nil {
		return err
	}
	if p.Form == nil {
		p.Form = url.Values{}
	}
	f := p.Form
	d := sentenceData{Case: v, Court: *court, Sole: len(v.Defendants) == 1, Grounds: acquittalGrounds()}
	want := form.ID(f.Get("defendant_id"))
	for i := range v.Defendants {
		if v.Defendants[i].ID == want || (want == 0 && d.Defendant == nil) {
			d.Defendant = &v.Defendants[i]
		}
	}
	review := f.Get("revisar") == "1"
	f.Del("revisar")
	if d.Defendant != nil {
		defID := d.Defendant.ID
		fresh := len(f) == 0 || (len(f) == 1 && f.Get("defendant_id") != "")
		draft, err := s.Cases.Decisions.Draft(ctx, server.Actor(c), id, defID)
		switch {
		case err == nil:
			d.Draft = draft
			d.DraftPDF = fmt.Sprintf("/processos/%d/minuta.pdf?defendant_id=%d", id, defID)
			if fresh && status == http.StatusOK {
				if in, ok := form.DraftInput(draft); ok {
					f = form.DraftForm(in)
					p.Form = f
				}
			}
		case errs.KindOf(err) != errs.NotFound:
			return err
		}
		f.Set("defendant_id", strconv.FormatInt(defID, 10))
		d.Review = review && d.Draft != nil
		for _, sr := range v.Sentences {
			if sr.DefendantID == defID && sr.Status == "signed" && sr.Outcome != decisions.OutcomePrecautionary {
				d.Sentenced = true
			}
		}
	}
	// Defaults: eligible; § 7º reading and publication as the court's settings.
	if f.Get("eligible") == "" {
		f.Set("eligible", "true")
	}
	if f.Get("sec7_doubles_ban") == "" {
		f.Set("sec7_doubles_ban", strconv.FormatBool(court.Sec7DoublesBan))
	}
	if f.Get("publish") == "" && status == http.StatusOK && f.Get("ban.months") == "" {
		f.Set("publish", strconv.FormatBool(court.PublishDefault))
	}
	d.Subject = string(sanctions.Person)
	if d.Defendant != nil && d.Defendant.Kind == "fan_group" {
		d.Subject = string(sanctions.Group)
	}
	if checked != nil {
		r := checked.Range
		d.Range, d.Checked = &r, true
		for _, name := range checked.Flags.Derived {
			d.Derived = append(d.Derived, server.OrSelf(server.FlagLabels[name], name))
		}
	} else if d.Defendant != nil {
		// The rule signing would apply (app.App.PreviewSentence, the
		// service's own computation); what the form cannot read yet is
		// left to signing to refuse.
		var unread errs.Fields
		in := form.Sentence(&unread, maps.Clone(f))
		pv, err := s.App.PreviewSentence(ctx, server.Actor(c), id, in)
		switch {
		case err == nil:
			d.Range = &pv.Range
		case errs.KindOf(err) == errs.Invalid:
			d.RangeError = rangeMessage(err)
		default:
			return err
		}
	}
	if f.Get("outcome") == "" && d.Range != nil {
		// The law's default (decisions.DefaultOutcome).
		f.Set("outcome", decisions.DefaultOutcome(*d.Range))
	}
	if d.Defendant != nil {
		if d.Warnings, err = s.Cases.Casefile.SentenceWarnings(ctx, server.Actor(c), id, d.Defendant.ID); err != nil {
			return err
		}
	}
	if checked != nil {
		for _, w := range checked.Warnings {
			if !strings.HasPrefix(w, "Minuta salva") && !slices.Contains(d.Warnings, w) {
				d.Warnings = append(d.Warnings, w)
			}
		}
	}
	today := civil.Today(s.Now(), s.Deps.Loc)
	if m, err := strconv.Atoi(strings.TrimSpace(f.Get("ban.months"))); err == nil && m > 0 && m <= 1200 {
		from, ifToday := today, true
		if first, err := form.ParseDateBR(f.Get("ban.first_day")); err == nil {
			from, ifToday = first, false
		}
		if last, err := sanctions.LastDay(from, m); err == nil {
			d.LastDay, d.LastDayIfToday = last.BR(), ifToday
		}
	}
	p.Title = "Sentença · processo " + v.Number
	d.Outcome = p.Form.Get("outcome")
	if d.Outcome == "" {
		d.Outcome = "ban"
	}
	p.Data = d
	return s.Page(c, status, "sentenca", p)
}

// rangeMessage is what the form says when no rule covers the sentence:
// the messages of an errs.Error's fields (the reason of
// sanctions.NotCoveredError), else the error's text.
func rangeMessage(err error) string {
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return err.Error()
	}
	msgs := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		msgs[i] = f.Message
	}
	return strings.Join(msgs, "; ")
}

// errDryRun rolls back the transaction of checkSentence.
var errDryRun = errors.New("web: sentence checked, nothing saved")

// checkSentence runs the sentence exactly as signing would, as a minuta,
// in a transaction that is rolled back: the same checks of the rule at the
// date of the facts, the ranges, the term, the prison and the texts
// (decisions.Service.Sentence), nothing stored.
func (s *UI) checkSentence(c echo.Context, id int64, in decisions.SentenceInput) (*decisions.SentenceResult, error) {
	in.Draft = true
	var r *decisions.SentenceResult
	err := s.InTx(c, func(ctx context.Context) error {
		var err error
		if r, err = s.Cases.Decisions.Sentence(ctx, server.Actor(c), id, in); err != nil {
			return err
		}
		return errDryRun
	})
	if errors.Is(err, errDryRun) {
		return r, nil
	}
	return nil, err
}

// sentencePage: POST /processos/:id/sentenca (the judge of the case): with
// acao=recalcular, the signing's checks with nothing saved (the form again,
// 200, or 422 with what signing would refuse next to its fields); with
// acao=minuta, saves the minuta (draft: nothing decided) and returns to the
// form with its PDF preview; with acao=revisar, saves it and returns to the
// form in review (the decision as it will be signed, and the button that
// signs it); with acao=assinar, signs the sentence and goes
// to the case with the documents to download. Signing is irreversible: a
// missing or unknown acao answers 422 with the form again, nothing saved.
func (s *UI) sentencePage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	vals, _ := c.FormParams()
	delete(vals, server.CSRFField)
	action := vals.Get("acao")
	vals.Del("acao")
	if strings.TrimSpace(vals.Get("defendant_id")) == "" {
		// The form shows the first defendant when none is chosen.
		if v, err := s.Cases.Casefile.Get(c.Request().Context(), server.Actor(c), id); err == nil && len(v.Defendants) > 0 {
			vals.Set("defendant_id", strconv.FormatInt(v.Defendants[0].ID, 10))
		}
	}
	var f errs.Fields
	in := form.Sentence(&f, vals)
	err = f.Err()
	fail := func(err error, prefix string) error {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		if status == http.StatusNotFound || status == http.StatusForbidden {
			return s.PageError(c, status, msg)
		}
		if len(fields) == 0 {
			msg = upperFirst(msg)
		}
		return s.renderSentence(c, status, server.Page{Form: vals, Errs: fields, Error: prefix + msg}, nil)
	}
	switch action {
	case "recalcular", "minuta", "revisar", "assinar":
	default:
		return s.renderSentence(c, http.StatusUnprocessableEntity, server.Page{Form: vals,
			Error: "Ação não reconhecida: use Recalcular, Salvar minuta ou Assinar sentença. Nada foi salvo nem assinado."}, nil)
	}
	switch action {
	case "recalcular":
		var r *decisions.SentenceResult
		if err == nil {
			r, err = s.checkSentence(c, id, in)
		}
		if err != nil {
			return fail(err, "Conferido como na assinatura, a sentença seria recusada. ")
		}
		return s.renderSentence(c, http.StatusOK, server.Page{Form: vals, Notice: "Conferido como na assinatura: nada foi salvo nem decidido."}, r)
	case "minuta", "revisar":
		in.Draft = true
		if err == nil {
			err = s.InTx(c, func(ctx context.Context) error {
				_, err := s.Cases.Decisions.Sentence(ctx, server.Actor(c), id, in)
				return err
			})
		}
		if err != nil {
			return fail(err, "")
		}
		if action == "revisar" {
			s.flash(c, "Minuta salva: nada foi decidido. Revise abaixo a sentença como será assinada e, se estiver de acordo, assine.")
			return redirect(c, fmt.Sprintf("/processos/%d/sentenca?defendant_id=%d&revisar=1#revisao", id, in.DefendantID))
		}
		s.flash(c, "Minuta salva: nada foi decidido. Confira a prévia em PDF e assine.")
		return redirect(c, fmt.Sprintf("/processos/%d/sentenca?defendant_id=%d", id, in.DefendantID))
	}
	var r *decisions.SentenceResult
	if err == nil { // signed with its document, once (one verification code), in one transaction
		r, err = s.App.Sentence(c.Request().Context(), server.Actor(c), id, in)
	}
	if err != nil {
		return fail(err, "")
	}
	return s.doneOnCase(c, id, "#documentos", sentenceNotice(r), r.Warnings)
}

// sentenceNotice is the message after signing: the outcome, the law and,
// for a ban, that it waits for the final judgment (Súmula 643 STJ).
func sentenceNotice(r *decisions.SentenceResult) string {
	var msg string
	switch r.Outcome {
	case decisions.OutcomeAcquittal:
		msg = fmt.Sprintf("Sentença assinada: absolvição (%s, %s).", r.Sentence.Article, r.Sentence.Law)
	case decisions.OutcomePrison:
		msg = "Sentença assinada: condenação"
		if r.Prison != nil {
			msg += " à reclusão de " + prisonPT(*r.Prison)
			if r.Prison.FineDays != nil {
				msg += fmt.Sprintf(" e %d dias-multa", *r.Prison.FineDays)
			}
		}
		msg += fmt.Sprintf(", sem conversão em impedimento (%s da %s).", r.Sentence.Article, r.Sentence.Law)
	default:
		msg = "Sentença assinada: condenação"
		if b := r.Ban; b != nil {
			term := ""
			if b.Months != nil {
				term = " de " + monthsPT(*b.Months)
			}
			if r.Range.Cumulative && r.Prison != nil {
				msg += fmt.Sprintf(" à reclusão de %s e à proibição de frequência%s, cumulativa (%s da %s)", prisonPT(*r.Prison), term, b.Article, b.Law)
			} else {
				msg += fmt.Sprintf(" com conversão em impedimento%s (%s da %s)", term, b.Article, b.Law)
			}
			msg += "; o impedimento aguarda o trânsito em julgado e começa no dia em que a sentença transitar (Súmula 643 do STJ)"
			if b.StartNotBefore != nil {
				msg += ", não antes de " + b.StartNotBefore.BR()
			}
			if n := len(r.MemberBans); n > 0 {
				msg += fmt.Sprintf("; alcança %d associado(s) da torcida", n)
			}
		}
		msg += "."
	}
	if p := r.PrecautionaryBan; p != nil {
		msg += fmt.Sprintf(" Medida cautelar até o trânsito em julgado (CPP, art. 319, II) desde %s, com revisão em %s.", server.DateBR(p.FirstDay), server.DateBR(p.ReviewOn))
	}
	return msg + " Baixe os documentos abaixo."
}

// monthsPT writes a term in months ("1 mês", "12 meses").
// prisonPT is the reclusão of a sentence: monthsPT of its months, and the
// days a third phase of the dosimetry left (CP art. 68).
func prisonPT(p decisions.PrisonView) string {
	if p.Days > 0 {
		return fmt.Sprintf("%s e %d dias", monthsPT(p.Months), p.Days)
	}
	return monthsPT(p.Months)
}

func monthsPT(n int) string {
	if n == 1 {
		return "1 mês"
	}
	return fmt.Sprintf("%d meses", n)
}
