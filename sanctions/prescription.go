package sanctions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
)

// lei12234From is the day Lei 12.234/2010 took effect (published on
// 06/05/2010, art. 3º): it raised the period of CP art. 109, VI, from 2 to 3
// years. A harsher law does not reach earlier facts (CF, art. 5º, XL).
var lei12234From = civil.MustParse("2010-05-06")

// lei13964From is the day Lei 13.964/2019 (pacote anticrime) took effect:
// it added CP art. 116, III and IV. Causes that stop the prescription are
// penal law: they reach only facts from that day (CF, art. 5º, XL).
var lei13964From = civil.MustParse("2020-01-23")

// PrescriptionMonths is the prescription period of CP art. 109, as worded
// by Lei 12.234/2010, for an offence whose maximum penalty is maxMonths
// (also for restrictive penalties, art. 109, parágrafo único): 3 years
// under 1 year (VI), 4 up to 2 years (V), 8 up to 4 (IV), 12 up to 8 (III),
// 16 up to 12 (II), 20 above (I); halved (CP art. 115) for a defendant
// under 21 at the facts or over 70 at the sentence. The result is in
// months. For facts before 06/05/2010, PrescriptionOf applies the 2 years
// of the former art. 109, VI.
func PrescriptionMonths(maxMonths int, halved bool) int {
	years, _ := art109(maxMonths, lei12234From)
	if halved {
		return years * 6
	}
	return years * 12
}

// art109 returns the years of CP art. 109 for maxMonths at facts, and the
// inciso applied ("V"); VI is 2 years for facts before Lei 12.234/2010.
func art109(maxMonths int, facts civil.Date) (int, string) {
	switch {
	case maxMonths < 12 && facts.Before(lei12234From):
		return 2, "VI, na redação anterior à Lei 12.234/2010"
	case maxMonths < 12:
		return 3, "VI"
	case maxMonths <= 24:
		return 4, "V"
	case maxMonths <= 48:
		return 8, "IV"
	case maxMonths <= 96:
		return 12, "III"
	case maxMonths <= 144:
		return 16, "II"
	}
	return 20, "I"
}

// ChargedMaxMonths is the maximum penalty in months of the offence charged
// under rg, by which the prescription before a final judgment is counted
// (CP art. 109): the reclusão after the causes of increase at their
// highest (Lei 14.597/2023, art. 201, § 6º: + 1/2; § 7º: doubled;
// Range.PrisonMaxMonths: 24, 36, 48, 72; art. 41-B of Lei 10.671/2003: 24;
// Lei 7.716/1989, art. 20, § 2º-A: 60); for art. 39 of Lei 10.671/2003 in
// its original wording, a sanction with no prison, its maximum ban (CP
// art. 109, parágrafo único). ok is false for the group bans (civil). The
// increase of a continued offence is not counted (Súmula 497 do STF; CP
// art. 119): the caller does not add it.
func ChargedMaxMonths(rg Range) (months int, ok bool) {
	switch {
	case rg.PrisonMaxMonths > 0:
		return rg.PrisonMaxMonths, true
	case rg.Article == "art. 39" && rg.MaxMonths > 0:
		return rg.MaxMonths, true
	}
	return 0, false
}

// IsImprescriptible reports whether an offence of law is imprescriptible:
// every crime of Lei 7.716/1989 is racism, which CF art. 5º, XLII, makes
// "inafiançável e imprescritível" — art. 20, § 2º-A (racism in a sporting
// context) and the racial injury of art. 2º-A, both added by Lei
// 14.532/2023 (the STF had already held racial injury imprescriptible, HC
// 154.248, 2021). law is a Range.Law ("Lei 7.716/1989 (Lei 14.532/2023)").
func IsImprescriptible(law string) bool { return strings.Contains(law, "7.716") }

// InterruptionKind is a cause that interrupts the prescription before the
// final judgment (CP art. 117): the period runs again in full from its day.
type InterruptionKind string

// The interruptions of CP art. 117 that a JECRIM case meets (II and III,
// the pronúncia, belong to the jury; V and VI to the execution).
const (
	// InterruptReceipt is CP art. 117, I: the receipt of the accusation
	// (denúncia or queixa). Only the receipt that stands counts: one
	// annulled does not interrupt.
	InterruptReceipt InterruptionKind = "receipt"
	// InterruptConviction is CP art. 117, IV: the publication of a
	// conviction sentence or of a conviction decision of the appeal court,
	// one that confirms the sentence included (STF, HC 176.473, 2020). An
	// acquittal does not interrupt.
	InterruptConviction InterruptionKind = "conviction"
)

// Interruption is one interruption of CP art. 117 and its day.
type Interruption struct {
	Kind InterruptionKind `json:"kind"`
	On   civil.Date       `json:"on"`
}

// SuspensionGround is why the prescription did not run for a while: it
// stops and then resumes, the days already run kept (unlike an
// interruption).
type SuspensionGround string

// The grounds of a suspension of the prescription.
const (
	// SuspendConditional is the conditional suspension of the proceedings:
	// "não correrá a prescrição durante o prazo de suspensão do processo"
	// (Lei 9.099/1995, art. 89, § 6º). It follows the receipt of the
	// accusation (art. 89, caput).
	SuspendConditional SuspensionGround = "conditional_suspension"
	// SuspendPrejudicial is CP art. 116, I: a question on which the
	// existence of the crime depends, pending in another proceeding.
	SuspendPrejudicial SuspensionGround = "prejudicial_question"
	// SuspendAbroad is CP art. 116, II: the defendant serving a penalty
	// abroad.
	SuspendAbroad SuspensionGround = "serving_abroad"
	// SuspendInadmissibleAppeal is CP art. 116, III (Lei 13.964/2019):
	// embargos de declaração or appeals to the higher courts, when
	// inadmissible; facts from 23/01/2020 only.
	SuspendInadmissibleAppeal SuspensionGround = "inadmissible_appeal"
	// SuspendNonProsecution is CP art. 116, IV (Lei 13.964/2019): a
	// non-prosecution agreement (CPP art. 28-A) not yet fulfilled nor
	// rescinded; facts from 23/01/2020 only.
	SuspendNonProsecution SuspensionGround = "non_prosecution_agreement"
	// SuspendEdict is CPP art. 366: the defendant summoned by edict who
	// neither appears nor appoints a lawyer; the suspension lasts at most
	// the period of CP art. 109 by the maximum penalty (Súmula 415 do STJ).
	SuspendEdict SuspensionGround = "summons_by_edict"
)

// suspensionLaw cites each ground in Portuguese.
var suspensionLaw = map[SuspensionGround]string{
	SuspendConditional:        "Lei 9.099/1995, art. 89, § 6º",
	SuspendPrejudicial:        "CP, art. 116, I",
	SuspendAbroad:             "CP, art. 116, II",
	SuspendInadmissibleAppeal: "CP, art. 116, III",
	SuspendNonProsecution:     "CP, art. 116, IV",
	SuspendEdict:              "CPP, art. 366; Súmula 415 do STJ",
}

// PrescriptionSuspension is a span during which the prescription did not
// run: its ground and its days, From to To both included (From the day of
// the decision that suspended, To the day it ended: the revocation, or the
// last day of the suspension's period). To zero: still suspended, end
// unknown.
type PrescriptionSuspension struct {
	Ground SuspensionGround `json:"ground"`
	From   civil.Date       `json:"from"`
	To     civil.Date       `json:"to"`
}

// PrescriptionInput is what PrescriptionOf counts for one defendant: the
// maximum penalty in months of the offence charged (ChargedMaxMonths;
// ignored when Imprescriptible), whether the offence is imprescriptible
// (IsImprescriptible) and its citation for the text (Offence, e.g. "art.
// 20, § 2º-A, da Lei 7.716/1989"; optional), the day of the facts (the
// start, CP art. 111, I: the day the crime was consummated), the
// defendant's birth date (nil: unknown, no halving), the interruptions of
// CP art. 117 that stand, the suspensions, and today.
type PrescriptionInput struct {
	MaxMonths       int
	Imprescriptible bool
	Offence         string
	FactsOn         civil.Date
	BirthDate       *civil.Date
	Interruptions   []Interruption
	Suspensions     []PrescriptionSuspension
	Today           civil.Date
}

// Marks of a span's ends (PrescriptionSpan.FromMark and UntilMark).
const (
	MarkFacts      = "facts"      // CP art. 111, I
	MarkReceipt    = "receipt"    // CP art. 117, I
	MarkConviction = "conviction" // CP art. 117, IV
	MarkToday      = "today"      // the span still running
)

// PrescriptionSpan is the course of the prescription between two marks:
// from From (the facts or an interruption; the first day counts, CP art.
// 10) until Until (the next interruption, or today for the last span).
// SuspendedDays are the days of the span in which it did not run (added to
// the period); LastDay is the last day of the period: the claim prescribes
// at its end unless an interruption comes on or before it. RanOut: the
// span's LastDay is before Until — it stays run out whatever comes later
// (CP arts. 109 and 117: a later interruption cannot revive an extinct
// claim). Suspended: a suspension with no known end stops this span, which
// has no LastDay (zero).
type PrescriptionSpan struct {
	From          civil.Date `json:"from"`
	FromMark      string     `json:"from_mark"`
	Until         civil.Date `json:"until"`
	UntilMark     string     `json:"until_mark"`
	SuspendedDays int        `json:"suspended_days"`
	LastDay       civil.Date `json:"last_day"`
	RanOut        bool       `json:"ran_out"`
	Suspended     bool       `json:"suspended"`
	// grounds are the suspension grounds with days in this span.
	grounds []SuspensionGround
	// warnFrom is the day from which the last span warns (period − 6
	// months, plus the suspended days).
	warnFrom civil.Date
}

// Prescription is the count of the prescription of the punitive claim
// before a final judgment (prescrição da pretensão punitiva, by the maximum
// penalty in the abstract) for one defendant. Months is the period (CP
// art. 109, Inciso its inciso), Halved and HalvedWhy the halving of CP art.
// 115; Spans the course from the facts through each interruption to
// today. Prescribed: a span ran out, on PrescribedOn, span index
// PrescribedSpan. Otherwise NextLastDay is the last day of the running
// span (zero while a suspension with no end stops it). Text is the whole
// count in Portuguese; Warning is Text when the claim prescribed, when
// less than 6 months remain or when imprescriptible, "" otherwise. The
// system warns; the judge decides (DOMAIN.md § 4).
type Prescription struct {
	Imprescriptible bool               `json:"imprescriptible"`
	Months          int                `json:"months"`
	Inciso          string             `json:"inciso"`
	Halved          bool               `json:"halved"`
	HalvedWhy       string             `json:"halved_why"`
	Spans           []PrescriptionSpan `json:"spans"`
	Prescribed      bool               `json:"prescribed"`
	PrescribedOn    civil.Date         `json:"prescribed_on"`
	PrescribedSpan  int                `json:"prescribed_span"`
	NextLastDay     civil.Date         `json:"next_last_day"`
	Text            string             `json:"text"`
	Warning         string             `json:"warning"`
}

// WarnMonths is how long before the end of the running span the count
// becomes a warning.
const WarnMonths = 6

// ImprescriptibleText is the text of an imprescriptible offence without a
// citation of its own (CF, art. 5º, XLII).
const ImprescriptibleText = "Crime da Lei 7.716/1989 (racismo): imprescritível (CF, art. 5º, XLII: \"a prática do racismo constitui crime inafiançável e imprescritível\"); não há prazo de prescrição a verificar."

// PrescriptionOf counts the prescription of the punitive claim of in:
//
//   - imprescriptible (Lei 7.716/1989, CF art. 5º, XLII): no period, no
//     spans; Text and Warning say why;
//   - the period of CP art. 109 by in.MaxMonths (the former VI for facts
//     before 06/05/2010), halved (CP art. 115) when the defendant was under
//     21 on the day of the facts or is 70 or more on the day of the first
//     conviction (the sentence; with none yet, today: if he is 70 today, he
//     will be at any later sentence);
//   - the spans run from the facts (CP art. 111, I) to the receipt of the
//     accusation (CP art. 117, I), from there to each conviction (IV) and
//     from the last mark to today; each counts the period from its first
//     day (CP art. 10: the first day counts, months by the calendar,
//     LastDay), plus the days of the span in which a suspension stopped it
//     (Lei 9.099/1995, art. 89, § 6º; CP art. 116; CPP art. 366, capped by
//     Súmula 415 do STJ at the period itself);
//   - an interruption on the period's last day comes in time; a span whose
//     last day is before the next mark ran out, and the claim prescribed on
//     that day even if the accusation was received later.
//
// Errors, errs.Invalid naming the field: max_months outside 1..1200,
// facts_date or today invalid or today before the facts, birth_date on or
// after the facts, an interruption of unknown kind (interruptions[i].kind),
// before the facts or after today, a second receipt or a conviction before
// the receipt (interruptions[i].on), an unknown suspension ground
// (suspensions[i].ground), a suspension of CP art. 116, III or IV for facts
// before 23/01/2020, or of art. 89 before the receipt, or starting before
// the facts or after today (suspensions[i].from), ending before it starts,
// or open while a later interruption came (suspensions[i].to).
func PrescriptionOf(in PrescriptionInput) (Prescription, error) {
	if err := in.check(); err != nil {
		return Prescription{}, err
	}
	if in.Imprescriptible {
		t := ImprescriptibleText
		if in.Offence != "" {
			t = in.Offence + ": crime imprescritível (CF, art. 5º, XLII: racismo; Lei 14.532/2023); não há prazo de prescrição a verificar."
		}
		return Prescription{Imprescriptible: true, Spans: []PrescriptionSpan{}, Text: t, Warning: t}, nil
	}
	marks := slices.Clone(in.Interruptions)
	slices.SortStableFunc(marks, func(a, b Interruption) int { return a.On.Compare(b.On) })
	p := Prescription{Spans: []PrescriptionSpan{}}
	years, inciso := art109(in.MaxMonths, in.FactsOn)
	p.Months, p.Inciso = years*12, inciso
	p.Halved, p.HalvedWhy = halving(in, marks)
	if p.Halved {
		p.Months /= 2
	}
	c := spanCounter{months: p.Months, intervals: mergeSuspensions(in.Suspensions, p.Months)}
	from, fromMark := in.FactsOn, MarkFacts
	for i := 0; i <= len(marks); i++ {
		until, untilMark := in.Today, MarkToday
		if i < len(marks) {
			until, untilMark = marks[i].On, markOf(marks[i].Kind)
		}
		s := c.span(from, until, untilMark == MarkToday)
		s.FromMark, s.UntilMark = fromMark, untilMark
		p.Spans = append(p.Spans, s)
		if s.RanOut && !p.Prescribed {
			p.Prescribed, p.PrescribedOn, p.PrescribedSpan = true, s.LastDay, i
		}
		from, fromMark = until, untilMark
	}
	last := p.Spans[len(p.Spans)-1]
	if !p.Prescribed {
		p.NextLastDay = last.LastDay
	}
	p.Text = p.text(in.MaxMonths)
	if p.Prescribed || (!last.Suspended && !in.Today.Before(last.warnFrom)) {
		p.Warning = p.Text
	}
	return p, nil
}

// markOf is the span mark of an interruption kind.
func markOf(k InterruptionKind) string {
	if k == InterruptReceipt {
		return MarkReceipt
	}
	return MarkConviction
}

// halving says whether CP art. 115 halves the period and why, in
// Portuguese: under 21 on the day of the facts, or 70 or more on the day
// of the first conviction (today while there is none).
func halving(in PrescriptionInput, marks []Interruption) (bool, string) {
	if in.BirthDate == nil {
		return false, ""
	}
	b := *in.BirthDate
	if in.FactsOn.Before(civil.New(b.Year+21, b.Month, b.Day)) {
		return true, "menor de 21 anos na data dos fatos"
	}
	sentence, when := in.Today, "na data de hoje, sem sentença condenatória"
	for _, m := range marks {
		if m.Kind == InterruptConviction {
			sentence, when = m.On, "na data da sentença"
			break
		}
	}
	if !sentence.Before(civil.New(b.Year+70, b.Month, b.Day)) {
		return true, "maior de 70 anos " + when
	}
	return false, ""
}

// check validates a PrescriptionInput (see PrescriptionOf).
func (in PrescriptionInput) check() error {
	if !in.Imprescriptible && (in.MaxMonths < 1 || in.MaxMonths > MaxTermMonths) {
		return errs.InvalidField("max_months", "range", fmt.Sprintf("a pena máxima deve estar entre 1 e %d meses (CP, art. 109).", MaxTermMonths))
	}
	if !in.FactsOn.Valid() || in.FactsOn.Year < 1900 {
		return errs.InvalidField("facts_date", "date", "informe a data dos fatos, em que começa a prescrição (CP, art. 111, I).")
	}
	if !in.Today.Valid() || in.Today.Before(in.FactsOn) {
		return errs.InvalidField("today", "date", "a data de hoje deve ser válida e não anterior aos fatos.")
	}
	if b := in.BirthDate; b != nil && (!b.Valid() || !b.Before(in.FactsOn)) {
		return errs.InvalidField("birth_date", "date", "a data de nascimento deve ser válida e anterior aos fatos.")
	}
	if in.Imprescriptible {
		return nil
	}
	var receipt *civil.Date
	for i, m := range in.Interruptions {
		field := fmt.Sprintf("interruptions[%d]", i)
		switch {
		case m.Kind != InterruptReceipt && m.Kind != InterruptConviction:
			return errs.InvalidField(field+".kind", "oneof", "use receipt (recebimento da denúncia, CP, art. 117, I) ou conviction (sentença ou acórdão condenatório, CP, art. 117, IV).")
		case !m.On.Valid() || m.On.Before(in.FactsOn) || m.On.After(in.Today):
			return errs.InvalidField(field+".on", "date", "a data da interrupção deve estar entre a data dos fatos e hoje.")
		case m.Kind == InterruptReceipt && receipt != nil:
			return errs.InvalidField(field+".on", "unique", "só o recebimento da denúncia que subsiste interrompe a prescrição (CP, art. 117, I): informe um só.")
		case m.Kind == InterruptReceipt:
			receipt = &in.Interruptions[i].On
		}
	}
	for i, m := range in.Interruptions {
		if m.Kind == InterruptConviction && (receipt == nil || m.On.Before(*receipt)) {
			return errs.InvalidField(fmt.Sprintf("interruptions[%d].on", i), "order", "não há condenação sem denúncia recebida (Lei 9.099/1995, arts. 77 e 81): a condenação (CP, art. 117, IV) segue o recebimento (art. 117, I).")
		}
	}
	for i, s := range in.Suspensions {
		if err := in.checkSuspension(i, s, receipt); err != nil {
			return err
		}
	}
	return nil
}

// checkSuspension validates suspension i (see PrescriptionOf).
func (in PrescriptionInput) checkSuspension(i int, s PrescriptionSuspension, receipt *civil.Date) error {
	field := fmt.Sprintf("suspensions[%d]", i)
	law, ok := suspensionLaw[s.Ground]
	switch {
	case !ok:
		return errs.InvalidField(field+".ground", "oneof", "causa de suspensão da prescrição desconhecida: use conditional_suspension (Lei 9.099/1995, art. 89, § 6º), prejudicial_question, serving_abroad, inadmissible_appeal, non_prosecution_agreement (CP, art. 116, I a IV) ou summons_by_edict (CPP, art. 366).")
	case !s.From.Valid() || s.From.Before(in.FactsOn) || s.From.After(in.Today):
		return errs.InvalidField(field+".from", "date", "o início da suspensão deve estar entre a data dos fatos e hoje.")
	case (s.Ground == SuspendInadmissibleAppeal || s.Ground == SuspendNonProsecution) && in.FactsOn.Before(lei13964From):
		return errs.InvalidField(field+".ground", "irretroactive", fmt.Sprintf("o %s foi incluído pela Lei 13.964/2019, em vigor desde 23/01/2020: não alcança fatos de %s (CF, art. 5º, XL).", law, in.FactsOn.BR()))
	case s.Ground == SuspendConditional && (receipt == nil || s.From.Before(*receipt)):
		return errs.InvalidField(field+".from", "order", "a suspensão condicional do processo segue o recebimento da denúncia (Lei 9.099/1995, art. 89, caput): informe o recebimento (CP, art. 117, I) em data não posterior.")
	case !s.To.IsZero() && (!s.To.Valid() || s.To.Before(s.From)):
		return errs.InvalidField(field+".to", "date", "o fim da suspensão não pode ser anterior ao seu início.")
	}
	if s.To.IsZero() {
		for _, m := range in.Interruptions {
			if m.On.After(s.From) {
				return errs.InvalidField(field+".to", "required", fmt.Sprintf("houve interrupção da prescrição em %s, depois do início da suspensão: informe o dia em que a suspensão terminou.", m.On.BR()))
			}
		}
	}
	return nil
}

// interval is a merged run of days in which the prescription did not run,
// from and to included; open when it has no known end.
type interval struct {
	from, to civil.Date
	open     bool
	grounds  []SuspensionGround
}

// mergeSuspensions turns the suspensions into disjoint intervals in date
// order, a suspension of CPP art. 366 capped at the period (Súmula 415 do
// STJ: it lasts at most the period of CP art. 109 by the maximum penalty).
func mergeSuspensions(ss []PrescriptionSuspension, months int) []interval {
	var iv []interval
	for _, s := range ss {
		v := interval{from: s.From, to: s.To, open: s.To.IsZero(), grounds: []SuspensionGround{s.Ground}}
		if s.Ground == SuspendEdict {
			cap, _ := LastDay(s.From, months)
			if v.open || v.to.After(cap) {
				v.to, v.open = cap, false
			}
		}
		iv = append(iv, v)
	}
	slices.SortFunc(iv, func(a, b interval) int { return a.from.Compare(b.from) })
	var out []interval
	for _, v := range iv {
		n := len(out)
		if n > 0 && (out[n-1].open || !v.from.After(out[n-1].to.AddDays(1))) {
			o := &out[n-1]
			o.open = o.open || v.open
			if v.to.After(o.to) {
				o.to = v.to
			}
			o.grounds = append(o.grounds, v.grounds...)
			continue
		}
		out = append(out, v)
	}
	return out
}

// spanCounter counts each span with the period and the suspensions.
type spanCounter struct {
	months    int
	intervals []interval
}

// span counts the span from from until until (last: until is today, and
// suspension days after it count too, the known end of a suspension still
// running). The last day is the period's (LastDay) moved by the suspended
// days up to it, repeated until it no longer moves (a suspension reached
// only by the moved last day counts as well).
func (c spanCounter) span(from, until civil.Date, last bool) PrescriptionSpan {
	s := PrescriptionSpan{From: from, Until: until}
	end, _ := LastDay(from, c.months)
	l := end
	for {
		limit := l
		if !last && limit.After(until.AddDays(-1)) {
			limit = until.AddDays(-1)
		}
		n, grounds, open := c.suspended(from, limit)
		if open {
			s.Suspended, s.grounds = true, grounds
			return s
		}
		next := end.AddDays(n)
		if next == l {
			s.SuspendedDays, s.grounds = n, grounds
			break
		}
		l = next
	}
	s.LastDay = l
	s.RanOut = l.Before(until)
	s.warnFrom = from
	if c.months > WarnMonths {
		w, _ := LastDay(from, c.months-WarnMonths)
		s.warnFrom = w.AddDays(s.SuspendedDays)
	}
	return s
}

// suspended returns the days of [from, limit] in a suspension, their
// grounds, and whether a suspension with no known end starts in it.
func (c spanCounter) suspended(from, limit civil.Date) (int, []SuspensionGround, bool) {
	n := 0
	var grounds []SuspensionGround
	for _, v := range c.intervals {
		a := v.from
		if a.Before(from) {
			a = from
		}
		if a.After(limit) || (!v.open && v.to.Before(a)) {
			continue
		}
		grounds = append(grounds, v.grounds...)
		if v.open {
			return n, grounds, true
		}
		b := v.to
		if b.After(limit) {
			b = limit
		}
		n += DaysBetween(a, b) + 1
	}
	return n, grounds, false
}

// markText names a span's starting mark in Portuguese, with its day.
func markText(mark string, d civil.Date) string {
	switch mark {
	case MarkReceipt:
		return fmt.Sprintf("do recebimento da denúncia (%s; CP, art. 117, I)", d.BR())
	case MarkConviction:
		return fmt.Sprintf("da publicação da condenação (%s; CP, art. 117, IV)", d.BR())
	}
	return fmt.Sprintf("dos fatos (%s; CP, art. 111, I)", d.BR())
}

// untilText names a span's closing interruption in Portuguese.
func untilText(mark string, d civil.Date) string {
	if mark == MarkReceipt {
		return fmt.Sprintf("o recebimento da denúncia em %s", d.BR())
	}
	return fmt.Sprintf("a publicação da condenação em %s", d.BR())
}

// periodText is the period in Portuguese: "4 anos", "1 ano e 6 meses".
func periodText(months int) string {
	y, m := months/12, months%12
	ys := fmt.Sprintf("%d anos", y)
	if y == 1 {
		ys = "1 ano"
	}
	switch {
	case m == 0:
		return ys
	case y == 0:
		return monthsPT(m)
	}
	return ys + " e " + monthsPT(m)
}

// text writes the count in Portuguese: the period, then each span up to
// the first that ran out (after it the claim is extinct), then the
// reminder that the judge decides.
func (p Prescription) text(maxMonths int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Prescrição da pretensão punitiva (CP, art. 109, %s): pena máxima de %s, prazo de %s", p.Inciso, monthsPT(maxMonths), periodText(p.Months))
	if p.Halved {
		b.WriteString(" (reduzido à metade, CP, art. 115: " + p.HalvedWhy + ")")
	}
	b.WriteString(".")
	conviction := false
	for _, s := range p.Spans {
		b.WriteString(" Contado " + markText(s.FromMark, s.From))
		if s.UntilMark != MarkToday {
			b.WriteString(" até " + untilText(s.UntilMark, s.Until))
		}
		conviction = conviction || s.FromMark == MarkConviction
		b.WriteString(s.state())
		if s.RanOut {
			break
		}
	}
	if conviction && !p.Prescribed {
		b.WriteString(" Transitada em julgado a condenação para a acusação, a prescrição regula-se pela pena aplicada (CP, art. 110, § 1º); o prazo acima usa a pena máxima.")
	}
	b.WriteString(" Verifique a prescrição; o sistema não a decide.")
	return b.String()
}

// state is what a span's text says after its marks.
func (s PrescriptionSpan) state() string {
	var laws []string
	for _, g := range s.grounds {
		if l := suspensionLaw[g]; !slices.Contains(laws, l) {
			laws = append(laws, l)
		}
	}
	if s.Suspended {
		return fmt.Sprintf(", a prescrição está suspensa, sem data de fim conhecida (%s).", strings.Join(laws, "; "))
	}
	t := ""
	if s.SuspendedDays > 0 {
		t = fmt.Sprintf(", acrescidos %d dias em que a prescrição não correu (%s)", s.SuspendedDays, strings.Join(laws, "; "))
	}
	switch {
	case s.RanOut && s.UntilMark != MarkToday:
		return t + fmt.Sprintf(", o prazo terminou em %s, antes da interrupção: a pretensão punitiva prescreveu e a interrupção posterior não a restaura (CP, arts. 109 e 117).", s.LastDay.BR())
	case s.RanOut:
		return t + fmt.Sprintf(", o prazo terminou em %s: a pretensão punitiva prescreveu.", s.LastDay.BR())
	case s.UntilMark != MarkToday:
		return t + fmt.Sprintf(", o prazo terminaria em %s: interrompido a tempo.", s.LastDay.BR())
	}
	return t + fmt.Sprintf(", o prazo termina em %s.", s.LastDay.BR())
}
