package sanctions

import (
	"fmt"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
)

// Deadline kinds: the appeal of the JECRIM (criminal cases) and the appeal
// of the civil flow (group cases, DOMAIN.md §§ 2 and 4).
const (
	// KindCriminalAppeal is the JECRIM appeal: 10 running days (Lei
	// 9.099/1995, art. 82, § 1º; CPP art. 798), suspended from 20 December
	// to 20 January (CPP art. 798-A, applied by Lei 9.099/1995, art. 92).
	KindCriminalAppeal = "criminal_appeal"
	// KindCivilAppeal is the civil appeal of group cases: 15 working days
	// (CPC arts. 1.003, § 5º, and 219; Lei 7.347/1985, art. 19), suspended
	// from 20 December to 20 January (CPC art. 220).
	KindCivilAppeal = "civil_appeal"
	// KindCriminalEmbargos is the window of the embargos de declaração in
	// the JECRIM: 5 running days from the party's notice of the decision
	// (Lei 9.099/1995, art. 83, § 1º; CPP art. 798), counted as the
	// criminal appeal is (recess of CPP art. 798-A, doublings).
	KindCriminalEmbargos = "criminal_embargos"
	// KindCivilEmbargos is the window of the embargos de declaração in a
	// group (civil) case: 5 working days (CPC arts. 1.023 and 219),
	// suspended as the civil appeal is (CPC art. 220) and doubled for the
	// prosecution (CPC art. 180) and the Defensoria (CPC art. 186).
	KindCivilEmbargos = "civil_embargos"
	// KindCriminalExtraordinary is the window against the Turma Recursal's
	// judgment in the JECRIM, the recurso extraordinário (CF art. 102, III;
	// Súmula 640 do STF): 15 days (CPC art. 1.003, § 5º), running days in
	// criminal proceedings (CPP art. 798), counted as the criminal appeal.
	// In a group (civil) case the window against the judgment is counted as
	// KindCivilAppeal (15 working days, CPC art. 1.003, § 5º).
	KindCriminalExtraordinary = "criminal_extraordinary"
)

// DeadlineKinds lists the kinds CountPeriod knows.
var DeadlineKinds = []string{KindCriminalAppeal, KindCivilAppeal, KindCriminalEmbargos, KindCivilEmbargos, KindCriminalExtraordinary}

// CriminalAppealDays is the appeal window of the JECRIM in running days
// (Lei 9.099/1995, art. 82, § 1º).
const CriminalAppealDays = 10

// CivilAppealDays is the civil appeal window in working days (CPC arts.
// 1.003, § 5º, and 219).
const CivilAppealDays = 15

// EmbargosDays is the window of the embargos de declaração: running days
// in the JECRIM (Lei 9.099/1995, art. 83, § 1º), working days in a civil
// case (CPC arts. 1.023 and 219).
const EmbargosDays = 5

// ExtraordinaryDays is the window of the recurso extraordinário against
// the Turma Recursal's judgment (CPC art. 1.003, § 5º).
const ExtraordinaryDays = 15

// Party is whom a window belongs to: each party's window runs from its own
// notice (DOMAIN.md § 4).
type Party string

// The parties of a window.
const (
	// PartyUnstated counts the window without any doubling (the public
	// deadline calculator when no party is named).
	PartyUnstated Party = ""
	// PartyProsecution is the Ministério Público: its civil windows are
	// doubled (CPC art. 180); its criminal ones are not (the CPP has no
	// such rule).
	PartyProsecution Party = "prosecution"
	// PartyDefendant is the defendant himself (Lei 9.099/1995, art. 82;
	// CPP art. 577): never doubled.
	PartyDefendant Party = "defendant"
	// PartyDefence is the defendant's lawyer or, with
	// PeriodInput.PublicDefender, the Defensoria Pública.
	PartyDefence Party = "defence"
)

// Parties lists the parties CountPeriod accepts besides PartyUnstated.
var Parties = []Party{PartyProsecution, PartyDefendant, PartyDefence}

// Rules cited by each kind of deadline (Period.Rule starts with one).
const (
	criminalAppealRule        = "Lei 9.099/1995, art. 82, § 1º (10 dias corridos); CPP, art. 798, §§ 1º e 3º; Súmula 310 do STF"
	civilAppealRule           = "CPC, arts. 1.003, § 5º, e 219 (15 dias úteis), 220 (suspensão de 20/12 a 20/01) e 224; Lei 7.347/1985, art. 19"
	criminalEmbargosRule      = "Lei 9.099/1995, art. 83, § 1º (5 dias corridos da ciência da decisão); CPP, art. 798, §§ 1º e 3º"
	criminalExtraordinaryRule = "CF, art. 102, III, e Súmula 640 do STF; CPC, art. 1.003, § 5º (15 dias, corridos no processo penal: CPP, art. 798, §§ 1º e 3º)"
	civilEmbargosRule         = "CPC, arts. 1.023 (5 dias úteis), 219, 220 (suspensão de 20/12 a 20/01) e 224"
	// defensoriaLaw is the Defensoria Pública's doubling: LC 80/1994,
	// arts. 44, I (União), 89, I (Distrito Federal), 128, I (Estados).
	defensoriaLaw = "LC 80/1994, arts. 44, I, 89, I, e 128, I"
)

// PeriodInput is what CountPeriod counts: the kind (KindCriminalAppeal or
// KindCivilAppeal), the day of the notice (ciência), the court's own
// calendar (nil: none; the national holidays are built in), whose window
// it is (Party; PublicDefender when the defence is the Defensoria
// Pública), the court's setting on the Defensoria's doubling in the JECRIM
// (NoJECRIMDefensoriaDoubling: false, the default, doubles; true is the
// reading of the Turmas Recursais that deny it), and for a criminal window
// the exception of CPP art. 798-A that keeps it running in the recess.
type PeriodInput struct {
	Kind                       string
	NotifiedOn                 civil.Date
	Court                      Holidays
	Party                      Party
	PublicDefender             bool
	NoJECRIMDefensoriaDoubling bool
	Exception                  RecessException
}

// SkippedDay is a day a deadline did not count, with why in Portuguese:
// "sábado", "domingo", "feriado nacional: Natal (Lei …)", "feriado do
// juizado: Corpus Christi", CriminalRecessWhy or CivilSuspensionWhy.
type SkippedDay struct {
	Date civil.Date `json:"date"`
	Why  string     `json:"why"`
}

// Period is a procedural deadline counted from a notification (ciência):
// the notice day as made (NotifiedOn) and as counted (CountedFrom, the
// next working day when it was made on a day without court business or in
// the recess), the first and the last day counted, the number of days
// (running or working, by Kind, doubled when a doubling applied), the rule
// cited (Portuguese; it names each doubling applied or turned off, the
// recess when it suspended the window and the exception when one kept it
// running), and the days the count skipped: for running days those before
// the first day, those of the recess with the days without business up to
// the resumption, and those after the nominal last day; for working days
// every one between them.
type Period struct {
	Kind        string       `json:"kind"`
	NotifiedOn  civil.Date   `json:"notified_on"`
	CountedFrom civil.Date   `json:"counted_from"`
	FirstDay    civil.Date   `json:"first_day"`
	LastDay     civil.Date   `json:"last_day"`
	Days        int          `json:"days"`
	WorkingDays bool         `json:"working_days"`
	Rule        string       `json:"rule"`
	Skipped     []SkippedDay `json:"skipped"`
}

// maxSkip bounds the days a count skips (a calendar can declare every day
// a holiday).
const maxSkip = 400

// CountPeriod counts the deadline in.Kind opened by a notification on
// in.NotifiedOn:
//
//   - a notification made on a day without court business (a weekend, a
//     national holiday, a holiday of in.Court) or while the window is
//     suspended counts as made on the next working day (DOMAIN.md § 4);
//   - the period never starts on such a day: it starts on the first
//     working day after the notification (CPP art. 798, § 1º, with Súmula
//     310 do STF; CPC art. 224, §§ 1º and 3º);
//   - criminal_appeal: 10 running days (Lei 9.099/1995, art. 82, § 1º); a
//     last day without court business moves to the next working day (CPP
//     art. 798, § 3º); the count is suspended from 20 December to 20
//     January (CriminalRecess; CPP art. 798-A, applied by Lei 9.099/1995,
//     art. 92) unless in.Exception applies: a window running on 20
//     December pauses and resumes with the days left on the first working
//     day from 21 January (the course is suspended, not interrupted; a
//     count does not restart on a day without court business, as it does
//     not start on one, CPP art. 798, § 1º, and CPC/1973, art. 179), and a
//     last day moved by § 3º into the recess moves past it;
//   - civil_appeal: 15 working days (CPC arts. 1.003, § 5º, and 219), not
//     counting 20 December to 20 January (CPC art. 220);
//   - criminal_embargos: 5 running days (Lei 9.099/1995, art. 83, § 1º),
//     counted as criminal_appeal; civil_embargos: 5 working days (CPC art.
//     1.023), counted as civil_appeal; criminal_extraordinary: 15 running
//     days (CPC art. 1.003, § 5º; CPP art. 798), counted as criminal_appeal;
//   - doubled: the prosecution's civil windows (CPC art. 180: 30 working
//     days to appeal, 10 for embargos) and the Defensoria Pública's in
//     every case (LC 80/1994, arts. 44, I, 89, I, and 128, I; CPC art. 186:
//     20 running days to appeal in the JECRIM, 30 working days in a civil
//     case), but in the JECRIM not when in.NoJECRIMDefensoriaDoubling,
//     which the rule then says.
//
// Errors, errs.Invalid naming the field: an unknown kind (kind), a
// notification outside the years 2000 to 2200 (notified_on), an unknown
// party (party), public_defender for a party other than the defence
// (public_defender), an unknown exception or one in a civil window
// (recess_exception), a court calendar without a working day in 400 days
// (notified_on).
func CountPeriod(in PeriodInput) (Period, error) {
	p := Period{Kind: in.Kind, NotifiedOn: in.NotifiedOn, Skipped: []SkippedDay{}}
	switch in.Kind {
	case KindCriminalAppeal:
		p.Days, p.Rule = CriminalAppealDays, criminalAppealRule
	case KindCivilAppeal:
		p.Days, p.Rule, p.WorkingDays = CivilAppealDays, civilAppealRule, true
	case KindCriminalEmbargos:
		p.Days, p.Rule = EmbargosDays, criminalEmbargosRule
	case KindCivilEmbargos:
		p.Days, p.Rule, p.WorkingDays = EmbargosDays, civilEmbargosRule, true
	case KindCriminalExtraordinary:
		p.Days, p.Rule = ExtraordinaryDays, criminalExtraordinaryRule
	default:
		return Period{}, errs.InvalidField("kind", "oneof", "kind deve ser criminal_appeal (JECRIM, Lei 9.099/1995, art. 82, § 1º), civil_appeal (torcidas, CPC, art. 1.003, § 5º), criminal_embargos (Lei 9.099/1995, art. 83, § 1º) civil_embargos (CPC, art. 1.023) ou criminal_extraordinary (CF, art. 102, III).")
	}
	if !in.NotifiedOn.Valid() || in.NotifiedOn.Year < 2000 || in.NotifiedOn.Year > 2200 {
		return Period{}, errs.InvalidField("notified_on", "range", "a data da ciência deve estar entre 2000 e 2200.")
	}
	if err := in.checkParty(); err != nil {
		return Period{}, err
	}
	if err := in.Exception.check(p.WorkingDays); err != nil {
		return Period{}, err
	}
	days, note := in.doubling(p.Days, p.WorkingDays)
	p.Days *= days
	c := counter{in: in, p: &p}
	if err := c.count(); err != nil {
		return Period{}, err
	}
	p.Rule += note + c.recessNote()
	return p, nil
}

// checkParty validates the party and the Defensoria flag.
func (in PeriodInput) checkParty() error {
	switch in.Party {
	case PartyUnstated, PartyProsecution, PartyDefendant, PartyDefence:
	default:
		return errs.InvalidField("party", "oneof", fmt.Sprintf("parte %q desconhecida: use prosecution (Ministério Público), defendant (réu) ou defence (defesa).", string(in.Party)))
	}
	if in.PublicDefender && in.Party != PartyDefence {
		return errs.InvalidField("public_defender", "party", "public_defender indica a Defensoria Pública na defesa: só vale com party defence (LC 80/1994, art. 128, I).")
	}
	return nil
}

// doubling returns the factor of a window of base days (working days in a
// civil case) and what the rule adds about it: the prosecution's civil
// window (CPC art. 180) and the Defensoria Pública's (LC 80/1994; CPC art.
// 186 in civil cases), or the Defensoria's doubling turned off in the
// JECRIM by the court's setting.
func (in PeriodInput) doubling(base int, civilCase bool) (int, string) {
	switch {
	case civilCase && in.Party == PartyProsecution:
		return 2, fmt.Sprintf("; prazo em dobro para o Ministério Público (CPC, art. 180): %d dias úteis", 2*base)
	case civilCase && in.PublicDefender:
		return 2, fmt.Sprintf("; prazo em dobro para a Defensoria Pública (CPC, art. 186; %s): %d dias úteis", defensoriaLaw, 2*base)
	case in.PublicDefender && in.NoJECRIMDefensoriaDoubling:
		return 1, fmt.Sprintf("; sem o prazo em dobro da Defensoria Pública (%s), afastado no JECRIM pela configuração do juizado: %d dias corridos", defensoriaLaw, base)
	case in.PublicDefender:
		return 2, fmt.Sprintf("; prazo em dobro para a Defensoria Pública (%s): %d dias corridos", defensoriaLaw, 2*base)
	}
	return 1, ""
}

// counter walks the calendar for CountPeriod and records the days skipped.
type counter struct {
	in      PeriodInput
	p       *Period
	skipped int
	// recess is set when the criminal recess suspended a day of the count.
	recess bool
}

// suspended says whether the window is suspended on d and why: the civil
// suspension (CPC art. 220) or the criminal recess (CPP art. 798-A).
func (c *counter) suspended(d civil.Date) (string, bool) {
	if c.p.WorkingDays {
		if CivilSuspension(d) {
			return CivilSuspensionWhy, true
		}
		return "", false
	}
	if CriminalRecess(d, c.in.Exception) {
		return CriminalRecessWhy, true
	}
	return "", false
}

// skip records d when the window cannot start, end or resume on it (the
// suspension first, then NoCourtBusiness) and says whether it did.
func (c *counter) skip(d civil.Date) (bool, error) {
	why, no := c.suspended(d)
	if no {
		c.recess = c.recess || why == CriminalRecessWhy
	} else if why, no = NoCourtBusiness(d, c.in.Court); !no {
		return false, nil
	}
	return true, c.record(d, why)
}

// record adds d to the days the window skipped, with why; errs.Invalid on
// notified_on when the calendar has no working day in maxSkip days.
func (c *counter) record(d civil.Date, why string) error {
	if c.skipped++; c.skipped > maxSkip {
		return errs.InvalidField("notified_on", "calendar", fmt.Sprintf("o calendário do juizado não tem dia útil em %d dias após %s.", maxSkip, c.in.NotifiedOn.BR()))
	}
	c.p.Skipped = append(c.p.Skipped, SkippedDay{Date: d, Why: why})
	return nil
}

// walk moves d forward past the days skip records.
func (c *counter) walk(d civil.Date) (civil.Date, error) {
	for {
		no, err := c.skip(d)
		if err != nil || !no {
			return d, err
		}
		d = d.AddDays(1)
	}
}

// business moves d forward past the days without court business (a
// notice on such a day counts as made on the next working day: CPP art.
// 798, § 1º with Súmula 310 STF; CPC art. 224, § 1º), recording them; a day
// of the suspension of 20/12–20/01 is a day of business (the courts sit:
// CPC art. 220, § 1º), and the notice made on it is valid that day.
func (c *counter) business(d civil.Date) (civil.Date, error) {
	for {
		why, no := NoCourtBusiness(d, c.in.Court)
		if !no {
			return d, nil
		}
		if err := c.record(d, why); err != nil {
			return d, err
		}
		d = d.AddDays(1)
	}
}

// count fills the counted-from, first and last days of c.p. A notice made
// during the suspension of 20/12–20/01 counts on its own day (a day
// without business: the next working day); the suspension stops the
// course of the window (CPP art. 798-A; CPC art. 220: "suspende-se o curso
// do prazo"), so its first day is the first working day after 20/01, as
// for a notice on the eve of the suspension.
func (c *counter) count() error {
	p := c.p
	var err error
	if p.CountedFrom, err = c.business(p.NotifiedOn); err != nil {
		return err
	}
	if p.FirstDay, err = c.walk(p.CountedFrom.AddDays(1)); err != nil {
		return err
	}
	d := p.FirstDay
	for n := 1; n < p.Days; n++ {
		d = d.AddDays(1)
		if p.WorkingDays {
			// Working days: every day without business or suspended is
			// skipped and the next one tried.
			if d, err = c.walk(d); err != nil {
				return err
			}
			continue
		}
		// Running days count weekends and holidays; a suspension pauses
		// the count, which resumes on the first working day after it.
		if _, s := c.suspended(d); s {
			if d, err = c.walk(d); err != nil {
				return err
			}
		}
	}
	if !p.WorkingDays {
		d, err = c.walk(d) // CPP art. 798, § 3º
	}
	p.LastDay = d
	return err
}

// recessNote is what the rule adds about the criminal recess: that it
// suspended the window, or that an exception kept it running while the
// window crossed a recess.
func (c *counter) recessNote() string {
	if c.recess {
		return "; prazo suspenso de 20/12 a 20/01 (CPP, art. 798-A, aplicado ao JECRIM pela Lei 9.099/1995, art. 92)"
	}
	if c.in.Exception == NoRecessException {
		return ""
	}
	for d := c.p.NotifiedOn; !d.After(c.p.LastDay); d = d.AddDays(1) {
		if CriminalRecess(d, NoRecessException) {
			return "; sem suspensão no recesso de 20/12 a 20/01: " + c.in.Exception.Text()
		}
	}
	return ""
}

// noticeSuspended tells whether the notice counted on a day of the
// suspension of 20/12–20/01 that suspended this window: the day after it
// was skipped as suspended.
func (p Period) noticeSuspended() bool {
	next := p.CountedFrom.AddDays(1)
	for _, s := range p.Skipped {
		if s.Date == next {
			return s.Why == CriminalRecessWhy || s.Why == CivilSuspensionWhy
		}
	}
	return false
}

// Text describes the window in Portuguese for the docket and documents:
// its days, first and last day and rule, and when the notice counted as
// made on a later day, that day and why (a day without court business, or
// the suspension of 20 December to 20 January).
func (p Period) Text() string {
	unit := "corridos"
	if p.WorkingDays {
		unit = "úteis"
	}
	what := "recurso"
	if p.Kind == KindCriminalEmbargos || p.Kind == KindCivilEmbargos {
		what = "embargos de declaração"
	}
	t := fmt.Sprintf("prazo de %s de %d dias %s, de %s a %s (%s)", what, p.Days, unit, p.FirstDay.BR(), p.LastDay.BR(), p.Rule)
	if p.noticeSuspended() {
		t += fmt.Sprintf("; ciência em %s, durante a suspensão dos prazos de 20/12 a 20/01: o prazo corre a partir de %s", p.CountedFrom.BR(), p.FirstDay.BR())
	}
	switch {
	case p.CountedFrom == p.NotifiedOn:
	default:
		t += fmt.Sprintf("; ciência em dia sem expediente, considerada feita em %s", p.CountedFrom.BR())
	}
	return t
}
