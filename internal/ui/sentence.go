package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
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
	Case      *cases.View
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
	// Checked: "Recalcular" ran the signing's own checks (cases.Service.Sentence
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
	// Warnings the judge needs before signing (cases.Service.SentenceWarnings
	// and, after "Recalcular", the sentence's own warnings).
	Warnings []string
	// Grounds are the items of CPP art. 386 (acquittal).
	Grounds []acquittalGround
	// Draft is the defendant's saved minuta (nil: none) and DraftPDF the
	// address of its preview as the PDF of the sentence (the page route of
	// GET /api/v1/cases/{id}/sentence/draft.pdf, for the judge's session).
	Draft    *cases.SentenceRecord
	DraftPDF string
}

// acquittalGround is an item of CPP art. 386 with its text.
type acquittalGround struct{ Item, Text string }

// acquittalGrounds lists the items of CPP art. 386 in order (I to VII).
func acquittalGrounds() []acquittalGround {
	var out []acquittalGround
	for _, item := range []string{"I", "II", "III", "IV", "V", "VI", "VII"} {
		out = append(out, acquittalGround{Item: item, Text: cases.AcquittalGrounds[item]})
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
func (s *UI) renderSentence(c echo.Context, status int, p server.Page, checked *cases.SentenceResult) error {
	ctx := c.Request().Context()
	id, err := caseID(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	v, err := s.Cases.Get(ctx, server.Actor(c), id)
	if err != nil {
		return s.pageFail(c, err)
	}
	var court cases.Court
	if err := db.Conn(ctx, s.Deps.DB).Where("code = ?", v.Court).Take(&court).Error; err != nil {
		return err
	}
	if p.Form == nil {
		p.Form = url.Values{}
	}
	f := p.Form
	d := sentenceData{Case: v, Court: court, Sole: len(v.Defendants) == 1, Grounds: acquittalGrounds()}
	want := form.ID(f.Get("defendant_id"))
	for i := range v.Defendants {
		if v.Defendants[i].ID == want || (want == 0 && d.Defendant == nil) {
			d.Defendant = &v.Defendants[i]
		}
	}
	if d.Defendant != nil {
		defID := d.Defendant.ID
		fresh := len(f) == 0 || (len(f) == 1 && f.Get("defendant_id") != "")
		draft, err := s.Cases.Draft(ctx, server.Actor(c), id, defID)
		switch {
		case err == nil:
			d.Draft = draft
			d.DraftPDF = fmt.Sprintf("/processos/%d/minuta.pdf?defendant_id=%d", id, defID)
			if fresh && status == http.StatusOK {
				if in, ok := draftInput(draft); ok {
					f = draftForm(in)
					p.Form = f
				}
			}
		case errs.KindOf(err) != errs.NotFound:
			return err
		}
		f.Set("defendant_id", strconv.FormatInt(defID, 10))
		for _, sr := range v.Sentences {
			if sr.DefendantID == defID && sr.Status == "signed" && sr.Outcome != cases.OutcomePrecautionary {
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
	q := sentenceQuery(v, d.Defendant, d.Sole, f)
	d.Subject = string(q.Subject)
	if checked != nil {
		r := checked.Range
		d.Range, d.Checked = &r, true
		for _, name := range checked.Flags.Derived {
			d.Derived = append(d.Derived, server.OrSelf(server.FlagLabels[name], name))
		}
	} else if r, err := sanctions.BanRange(q); err != nil {
		d.RangeError = err.Error()
	} else {
		d.Range = &r
	}
	if f.Get("outcome") == "" && d.Range != nil {
		// The law's default: the conversion (or the cumulative ban) where it
		// is allowed, else the reclusão without conversion.
		if d.Range.Convertible || d.Range.Cumulative || d.Range.PrisonMaxMonths == 0 {
			f.Set("outcome", cases.OutcomeBan)
		} else {
			f.Set("outcome", cases.OutcomePrison)
		}
	}
	if d.Defendant != nil {
		if d.Warnings, err = s.Cases.SentenceWarnings(ctx, server.Actor(c), id, d.Defendant.ID); err != nil {
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
	p.Data = d
	return s.Page(c, status, "sentenca", p)
}

// sentenceQuery is the ban-range query of defendant d of case v with the
// form's flags, as cases.Service.Sentence builds it: a flag the judge
// states, else, for a sole defendant, the one the case's conduct gives
// (false for co-defendants: a penalty is personal, CF art. 5º, XLV–XLVI);
// the conduct of the event plus this defendant's personal words
// (sanctions.PersonalWords). "Recalcular" checks with the service itself.
func sentenceQuery(v *cases.View, d *cases.DefendantView, sole bool, f url.Values) sanctions.Query {
	q := sanctions.Query{Subject: sanctions.Person, FactsDate: v.Facts.Date, Eligible: form.Tri(f.Get("eligible")), Sec7DoublesBan: form.Tri(f.Get("sec7_doubles_ban"))}
	if d != nil && d.Kind == "fan_group" {
		q.Subject, q.Conduct, q.Organiser, q.Sec7 = sanctions.Group, v.Facts.Conduct, form.Tri(f.Get("organiser")), form.Tri(f.Get("sec7"))
		return q
	}
	has := func(w string) bool { return slices.Contains(v.Facts.Conduct, w) }
	flag := func(name string, derived bool) bool {
		if b := form.Tri(f.Get(name)); b != nil {
			return *b
		}
		return sole && derived
	}
	org := flag("organiser", has(sanctions.WordOrganiser))
	sec7 := flag("sec7", has(sanctions.WordRacism) || has(sanctions.WordAgainstWomen))
	var conduct []string
	for _, w := range v.Facts.Conduct {
		if !slices.Contains(sanctions.PersonalWords, w) {
			conduct = append(conduct, w)
		}
	}
	if flag("weapons", has(sanctions.WordWeapons)) {
		conduct = append(conduct, sanctions.WordWeapons)
	}
	if flag("fan_fight", has(sanctions.WordFanFight)) {
		conduct = append(conduct, sanctions.WordFanFight)
	}
	if org {
		conduct = append(conduct, sanctions.WordOrganiser)
	}
	if sec7 {
		ground := f.Get("sec7_ground")
		if ground == "" {
			ground = sanctions.WordRacism
			if has(sanctions.WordAgainstWomen) && !has(sanctions.WordRacism) {
				ground = sanctions.WordAgainstWomen
			}
		}
		conduct = append(conduct, ground)
	}
	q.Conduct, q.Organiser, q.Sec7 = conduct, &org, &sec7
	if len(v.Facts.Conduct) == 0 {
		q.Conduct = nil
	}
	return q
}

// sentenceChoices are the yes/no fields of the sentence form, with what
// each one accepts besides "true" and "false" (DOMAIN.md §2: eligible is §
// 2º; organiser § 6º; sec7 and sec7_doubles_ban § 7º; weapons § 1º, II;
// fan_fight § 1º, III; publish §6; precautionary_until_final CPP art. 319,
// II).
var sentenceChoices = []struct{ field, allowed string }{
	{"eligible", "sim ou não"},
	{"organiser", "sim, não ou conforme as condutas"},
	{"sec7", "sim, não ou conforme as condutas"},
	{"weapons", "sim, não ou conforme as condutas"},
	{"fan_fight", "sim, não ou conforme as condutas"},
	{"sec7_doubles_ban", "sim ou não"},
	{"publish", "marcado ou não"},
	{"precautionary_until_final", "marcado ou não"},
}

// checkChoices refuses a yes/no field of the sentence form holding anything
// but "" (not given), true/sim/on or false/nao/não, with the error on the
// field quoting the value (which stays in the form); valid values are
// normalised to "true"/"false".
func checkChoices(f *errs.Fields, vals url.Values) {
	for _, ch := range sentenceChoices {
		v := vals.Get(ch.field)
		if v == "" {
			continue
		}
		b := form.Tri(v)
		if b == nil {
			f.Add(ch.field, "choice", fmt.Sprintf("Valor %q inválido: escolha %s.", v, ch.allowed))
			continue
		}
		vals.Set(ch.field, strconv.FormatBool(*b))
	}
}

// dosimetryMonths are the months fields of the dosimetry's three phases.
var dosimetryMonths = []string{"dosimetry.base_months", "dosimetry.intermediate_months", "dosimetry.final_months"}

// sentenceInput reads the sentence form into the service's input (field
// names are the API's); what it cannot read goes to f under the field's
// name. The dosimetry is given when any of its fields is typed, and then
// each phase's months are required; the precautionary ban until the final
// judgment when its box is ticked or one of its dates typed.
func sentenceInput(f *errs.Fields, vals url.Values) cases.SentenceInput {
	checkChoices(f, vals)
	get := func(k string) string { return strings.TrimSpace(vals.Get(k)) }
	in := cases.SentenceInput{DefendantID: form.Ref(f, "defendant_id", vals.Get("defendant_id")), Outcome: get("outcome"),
		Eligible: form.Tri(vals.Get("eligible")), Organiser: form.Tri(vals.Get("organiser")), Sec7: form.Tri(vals.Get("sec7")),
		Sec7Ground: get("sec7_ground"), Weapons: form.Tri(vals.Get("weapons")), FanFight: form.Tri(vals.Get("fan_fight")),
		Sec7DoublesBan: form.Tri(vals.Get("sec7_doubles_ban")), Publish: form.Tri(vals.Get("publish")),
		PrisonMonths: form.Int(f, "prison_months", vals.Get("prison_months")), FineDays: form.Int(f, "fine_days", vals.Get("fine_days")),
		NoConversionReason: vals.Get("no_conversion_reason"), AcquittalGround: get("acquittal_ground"),
		ExclusionReason: vals.Get("exclusion_reason")}
	in.Ban.FirstDay = form.ISODate(f, "ban.first_day", vals.Get("ban.first_day"))
	in.Ban.Months = form.Int(f, "ban.months", vals.Get("ban.months"))
	in.Ban.LastDayOverride = form.ISODate(f, "ban.last_day_override", vals.Get("ban.last_day_override"))
	in.Ban.OverrideReason = vals.Get("ban.override_reason")
	if place := get("reporting_duty.place"); place != "" || get("reporting_duty.club") != "" || get("reporting_duty.competition") != "" {
		in.ReportingDuty = &cases.ReportingDuty{Place: place, Club: get("reporting_duty.club"), Competition: get("reporting_duty.competition")}
	}
	typed := false
	for _, k := range append(dosimetryMonths, "dosimetry.base_reasons", "dosimetry.intermediate_reasons", "dosimetry.final_reasons") {
		typed = typed || get(k) != ""
	}
	if typed {
		dz := &cases.Dosimetry{BaseReasons: vals.Get("dosimetry.base_reasons"), IntermediateReasons: vals.Get("dosimetry.intermediate_reasons"),
			FinalReasons: vals.Get("dosimetry.final_reasons")}
		for i, dst := range []*int{&dz.BaseMonths, &dz.IntermediateMonths, &dz.FinalMonths} {
			k := dosimetryMonths[i]
			if n := form.Int(f, k, vals.Get(k)); n != nil {
				*dst = *n
			} else if get(k) == "" {
				f.Add(k, "required", "Informe a pena desta fase, em meses (CP, art. 68).")
			}
		}
		in.Dosimetry = dz
	}
	if get("text.report") != "" || get("text.reasoning") != "" {
		in.Text = &cases.SentenceText{Report: vals.Get("text.report"), Reasoning: vals.Get("text.reasoning")}
	}
	if vals.Get("precautionary_until_final") == "true" || get("precautionary_until_final.first_day") != "" || get("precautionary_until_final.review_on") != "" {
		in.PrecautionaryUntilFinal = &cases.PrecautionaryInput{
			FirstDay: form.ISODate(f, "precautionary_until_final.first_day", vals.Get("precautionary_until_final.first_day")),
			ReviewOn: form.ISODate(f, "precautionary_until_final.review_on", vals.Get("precautionary_until_final.review_on"))}
	}
	return in
}

// draftInput reads the input saved with a minuta.
func draftInput(rec *cases.SentenceRecord) (cases.SentenceInput, bool) {
	var in cases.SentenceInput
	if err := json.Unmarshal(rec.Input, &in); err != nil {
		return in, false
	}
	return in, true
}

// draftForm is the sentence form of a saved minuta's input (dates as
// dd/mm/aaaa), to continue it.
func draftForm(in cases.SentenceInput) url.Values {
	f := url.Values{}
	set := func(k, v string) {
		if v != "" {
			f.Set(k, v)
		}
	}
	setBool := func(k string, b *bool) {
		if b != nil {
			f.Set(k, strconv.FormatBool(*b))
		}
	}
	setInt := func(k string, n *int) {
		if n != nil {
			f.Set(k, strconv.Itoa(*n))
		}
	}
	br := func(iso string) string {
		if d, err := civil.Parse(iso); err == nil {
			return d.BR()
		}
		return iso
	}
	set("defendant_id", strconv.FormatInt(in.DefendantID, 10))
	set("outcome", in.Outcome)
	setBool("eligible", in.Eligible)
	setBool("organiser", in.Organiser)
	setBool("sec7", in.Sec7)
	set("sec7_ground", in.Sec7Ground)
	setBool("weapons", in.Weapons)
	setBool("fan_fight", in.FanFight)
	setBool("sec7_doubles_ban", in.Sec7DoublesBan)
	setBool("publish", in.Publish)
	setInt("prison_months", in.PrisonMonths)
	setInt("fine_days", in.FineDays)
	set("no_conversion_reason", in.NoConversionReason)
	set("acquittal_ground", in.AcquittalGround)
	set("exclusion_reason", in.ExclusionReason)
	set("ban.first_day", br(in.Ban.FirstDay))
	setInt("ban.months", in.Ban.Months)
	set("ban.last_day_override", br(in.Ban.LastDayOverride))
	set("ban.override_reason", in.Ban.OverrideReason)
	if r := in.ReportingDuty; r != nil {
		set("reporting_duty.place", r.Place)
		set("reporting_duty.club", r.Club)
		set("reporting_duty.competition", r.Competition)
	}
	if dz := in.Dosimetry; dz != nil {
		f.Set("dosimetry.base_months", strconv.Itoa(dz.BaseMonths))
		f.Set("dosimetry.intermediate_months", strconv.Itoa(dz.IntermediateMonths))
		f.Set("dosimetry.final_months", strconv.Itoa(dz.FinalMonths))
		set("dosimetry.base_reasons", dz.BaseReasons)
		set("dosimetry.intermediate_reasons", dz.IntermediateReasons)
		set("dosimetry.final_reasons", dz.FinalReasons)
	}
	if t := in.Text; t != nil {
		set("text.report", t.Report)
		set("text.reasoning", t.Reasoning)
	}
	if p := in.PrecautionaryUntilFinal; p != nil {
		f.Set("precautionary_until_final", "true")
		set("precautionary_until_final.first_day", br(p.FirstDay))
		set("precautionary_until_final.review_on", br(p.ReviewOn))
	}
	return f
}

// errDryRun rolls back the transaction of checkSentence.
var errDryRun = errors.New("web: sentence checked, nothing saved")

// checkSentence runs the sentence exactly as signing would, as a minuta,
// in a transaction that is rolled back: the same checks of the rule at the
// date of the facts, the ranges, the term, the prison and the texts
// (cases.Service.Sentence), nothing stored.
func (s *UI) checkSentence(c echo.Context, id int64, in cases.SentenceInput) (*cases.SentenceResult, error) {
	in.Draft = true
	var r *cases.SentenceResult
	err := s.InTx(c, func(ctx context.Context) error {
		var err error
		if r, err = s.Cases.Sentence(ctx, server.Actor(c), id, in); err != nil {
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
// form with its PDF preview; otherwise signs the sentence and goes to the
// case with the documents to download.
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
		if v, err := s.Cases.Get(c.Request().Context(), server.Actor(c), id); err == nil && len(v.Defendants) > 0 {
			vals.Set("defendant_id", strconv.FormatInt(v.Defendants[0].ID, 10))
		}
	}
	var f errs.Fields
	in := sentenceInput(&f, vals)
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
	case "recalcular":
		var r *cases.SentenceResult
		if err == nil {
			r, err = s.checkSentence(c, id, in)
		}
		if err != nil {
			return fail(err, "Conferido como na assinatura, a sentença seria recusada. ")
		}
		return s.renderSentence(c, http.StatusOK, server.Page{Form: vals, Notice: "Conferido como na assinatura: nada foi salvo nem decidido."}, r)
	case "minuta":
		in.Draft = true
		if err == nil {
			err = s.InTx(c, func(ctx context.Context) error {
				_, err := s.Cases.Sentence(ctx, server.Actor(c), id, in)
				return err
			})
		}
		if err != nil {
			return fail(err, "")
		}
		s.flash(c, "Minuta salva: nada foi decidido. Confira a prévia em PDF e assine.")
		return redirect(c, fmt.Sprintf("/processos/%d/sentenca?defendant_id=%d", id, in.DefendantID))
	}
	var r *cases.SentenceResult
	if err == nil {
		err = s.InTx(c, func(ctx context.Context) error {
			var err error
			r, err = s.Cases.Sentence(ctx, server.Actor(c), id, in)
			return err
		})
	}
	if err != nil {
		return fail(err, "")
	}
	s.IssueSentence(c, id, in.DefendantID) // the sentence document, once (one verification code)
	return s.doneOnCase(c, id, "#documentos", sentenceNotice(r), r.Warnings)
}

// sentenceNotice is the message after signing: the outcome, the law and,
// for a ban, that it waits for the final judgment (Súmula 643 STJ).
func sentenceNotice(r *cases.SentenceResult) string {
	var msg string
	switch r.Outcome {
	case cases.OutcomeAcquittal:
		msg = fmt.Sprintf("Sentença assinada: absolvição (%s, %s).", r.Sentence.Article, r.Sentence.Law)
	case cases.OutcomePrison:
		msg = "Sentença assinada: condenação"
		if r.Prison != nil {
			msg += " à reclusão de " + monthsPT(r.Prison.Months)
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
				msg += fmt.Sprintf(" à reclusão de %s e à proibição de frequência%s, cumulativa (%s da %s)", monthsPT(r.Prison.Months), term, b.Article, b.Law)
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
func monthsPT(n int) string {
	if n == 1 {
		return "1 mês"
	}
	return fmt.Sprintf("%d meses", n)
}
