package calendar

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// Deadline kinds: the appeal of the JECRIM (criminal cases) and the appeal
// of the civil flow (group cases, DOMAIN.md §2 and §4).
const (
	// KindCriminalAppeal is the JECRIM appeal: 10 running days (Lei
	// 9.099/1995, art. 82, § 1º; CPP art. 798).
	KindCriminalAppeal = "criminal_appeal"
	// KindCivilAppeal is the civil appeal of group cases: 15 working days
	// (CPC arts. 1.003, § 5º, and 219; Lei 7.347/1985, art. 19), suspended
	// from 20 December to 20 January (CPC art. 220).
	KindCivilAppeal = "civil_appeal"
)

// CivilAppealDays is the civil appeal window in working days (CPC arts.
// 1.003, § 5º, and 219).
const CivilAppealDays = 15

// Rules cited by each kind of deadline.
const (
	criminalAppealRule = "Lei 9.099/1995, art. 82, § 1º (10 dias corridos); CPP, art. 798, §§ 1º e 3º; Súmula 310 do STF"
	civilAppealRule    = "CPC, arts. 1.003, § 5º, e 219 (15 dias úteis), 220 (suspensão de 20/12 a 20/01) e 224; Lei 7.347/1985, art. 19"
)

// DeadlineKinds lists the kinds CountPeriod knows.
var DeadlineKinds = []string{KindCriminalAppeal, KindCivilAppeal}

// AppealKind is the kind of the appeal window of a case of flow: civil for
// group cases, the JECRIM's otherwise.
func AppealKind(flow string) string {
	if flow == cases.FlowCivil {
		return KindCivilAppeal
	}
	return KindCriminalAppeal
}

// Holidays is a court's calendar: the days without court business it
// declared, with their names.
type Holidays map[civil.Date]string

// SkippedDay is a day a deadline did not count, with why in Portuguese
// (weekend, court holiday, CPC art. 220 suspension).
type SkippedDay struct {
	Date civil.Date `json:"date"`
	Why  string     `json:"why"`
}

// Period is a procedural deadline counted from a notification (ciência):
// the notice day as made (NotifiedOn) and as counted (CountedFrom, the next
// working day when it was made on a day without court business), the first
// and the last day counted, the number of days (running or working, by
// Kind), the rule cited, and the days without court business the count
// skipped (before the first day and after the nominal last day for running
// days; every one between them for working days).
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

// maxSkip bounds the days without court business in a row a count walks
// over (a calendar can declare every day a holiday).
const maxSkip = 400

// inCivilSuspension reports whether d falls from 20 December to 20 January,
// both included, when civil deadlines are suspended (CPC art. 220).
func inCivilSuspension(d civil.Date) bool {
	return (d.Month == time.December && d.Day >= 20) || (d.Month == time.January && d.Day <= 20)
}

// noBusiness says whether d is a day without court business for a deadline
// of kind, and why: a Saturday or Sunday, a holiday of the court's
// calendar, or (civil deadlines only) the suspension of CPC art. 220.
func noBusiness(kind string, d civil.Date, hol Holidays) (string, bool) {
	if kind == KindCivilAppeal && inCivilSuspension(d) {
		return "suspensão dos prazos de 20 de dezembro a 20 de janeiro (CPC, art. 220)", true
	}
	switch time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Weekday() {
	case time.Saturday:
		return "sábado", true
	case time.Sunday:
		return "domingo", true
	}
	if name, ok := hol[d]; ok {
		return "feriado do juizado: " + name, true
	}
	return "", false
}

// CountPeriod counts the deadline of kind opened by a notification on
// notified with the court's holidays hol (nil: none):
//
//   - a notification made on a day without court business counts as made
//     on the next working day (DOMAIN.md §4);
//   - the period never starts on a day without court business: it starts on
//     the first working day after the notification (CPP art. 798, § 1º, with
//     Súmula 310 do STF; CPC art. 224, §§ 1º and 3º);
//   - criminal_appeal: 10 running days (Lei 9.099/1995, art. 82, § 1º); a
//     last day without court business moves to the next working day (CPP
//     art. 798, § 3º);
//   - civil_appeal: 15 working days (CPC arts. 1.003, § 5º, and 219), not
//     counting 20 December to 20 January (CPC art. 220).
//
// An unknown kind or a notification outside the years 2000 to 2200 is
// errs.Invalid naming kind or notified_on.
func CountPeriod(kind string, notified civil.Date, hol Holidays) (Period, error) {
	p := Period{Kind: kind, NotifiedOn: notified, Skipped: []SkippedDay{}}
	switch kind {
	case KindCriminalAppeal:
		p.Days, p.Rule = AppealDays, criminalAppealRule
	case KindCivilAppeal:
		p.Days, p.Rule, p.WorkingDays = CivilAppealDays, civilAppealRule, true
	default:
		return Period{}, errs.InvalidField("kind", "oneof", "kind deve ser criminal_appeal (JECRIM, Lei 9.099/1995, art. 82, § 1º) ou civil_appeal (torcidas, CPC, art. 1.003, § 5º).")
	}
	if !notified.Valid() || notified.Year < 2000 || notified.Year > 2200 {
		return Period{}, errs.InvalidField("notified_on", "range", "a data da ciência deve estar entre 2000 e 2200.")
	}
	skipped := 0
	// skip records d when it has no court business and says whether it did.
	skip := func(d civil.Date) (bool, error) {
		why, no := noBusiness(kind, d, hol)
		if !no {
			return false, nil
		}
		if skipped++; skipped > maxSkip {
			return false, errs.InvalidField("notified_on", "calendar", fmt.Sprintf("o calendário do juizado não tem dia útil em %d dias após %s.", maxSkip, notified.BR()))
		}
		p.Skipped = append(p.Skipped, SkippedDay{Date: d, Why: why})
		return true, nil
	}
	// walk moves d forward past the days without court business.
	walk := func(d civil.Date) (civil.Date, error) {
		for {
			no, err := skip(d)
			if err != nil || !no {
				return d, err
			}
			d = d.AddDays(1)
		}
	}
	var err error
	if p.CountedFrom, err = walk(notified); err != nil {
		return Period{}, err
	}
	if p.FirstDay, err = walk(p.CountedFrom.AddDays(1)); err != nil {
		return Period{}, err
	}
	if !p.WorkingDays {
		p.LastDay, err = walk(p.FirstDay.AddDays(p.Days - 1))
		return p, err
	}
	d := p.FirstDay
	for n := 1; n < p.Days; {
		d = d.AddDays(1)
		no, err := skip(d)
		if err != nil {
			return Period{}, err
		}
		if !no {
			n++
		}
	}
	p.LastDay = d
	return p, nil
}

// calendarEntry is a holiday of the court with the instant it was added.
type calendarEntry struct {
	Day       civil.Date
	Name      string
	CreatedAt time.Time
}

// courtCalendar is a court's holidays in the order they were added.
type courtCalendar []calendarEntry

// all is the whole calendar as it stands.
func (cc courtCalendar) all() Holidays {
	h := Holidays{}
	for _, e := range cc {
		h[e.Day] = e.Name
	}
	return h
}

// periodOf counts the deadline of kind opened by a notification recorded
// at recorded: with the holidays known then, and with each holiday added
// later while the deadline had not yet ended (a holiday added after the
// last day moves nothing). movedFrom is the last day before later holidays
// moved it (nil when none did).
func (cc courtCalendar) periodOf(kind string, notified civil.Date, recorded time.Time, loc *time.Location) (Period, *civil.Date, error) {
	h := Holidays{}
	var later []calendarEntry
	for _, e := range cc {
		if e.CreatedAt.After(recorded) {
			later = append(later, e)
		} else {
			h[e.Day] = e.Name
		}
	}
	p, err := CountPeriod(kind, notified, h)
	if err != nil {
		return Period{}, nil, err
	}
	first := p.LastDay
	for _, e := range later {
		if civil.Today(e.CreatedAt, loc).After(p.LastDay) {
			continue // the deadline had ended when the holiday was added
		}
		h[e.Day] = e.Name
		if p, err = CountPeriod(kind, notified, h); err != nil {
			return Period{}, nil, err
		}
	}
	if p.LastDay != first {
		return p, &first, nil
	}
	return p, nil, nil
}

// loadCalendar reads court's holidays in the order they were added.
func (s *Service) loadCalendar(ctx context.Context, court string) (courtCalendar, error) {
	var cc courtCalendar
	err := db.Conn(ctx, s.DB).Raw("SELECT day, name, created_at FROM court_holidays WHERE court_code = ? ORDER BY created_at, id", court).Scan(&cc).Error
	sort.SliceStable(cc, func(i, j int) bool { return cc[i].CreatedAt.Before(cc[j].CreatedAt) })
	return cc, err
}

// DeadlineQuery is GET /api/v1/legal/deadline: the notification day
// (YYYY-MM-DD), the kind (criminal_appeal or civil_appeal) and optionally a
// court TR.OOOO whose holidays count.
type DeadlineQuery struct {
	NotifiedOn string
	Kind       string
	Court      string
}

// LegalDeadline answers GET /api/v1/legal/deadline with CountPeriod, with
// the holidays of the court when one is named (no login: no personal
// data). Errors: errs.Invalid naming notified_on (required, form), kind
// (required, oneof) or court (form, unknown court).
func (s *Service) LegalDeadline(ctx context.Context, q DeadlineQuery) (*Period, error) {
	var f errs.Fields
	var on civil.Date
	if q.NotifiedOn == "" {
		f.Add("notified_on", "required", "informe o dia da ciência (notified_on, AAAA-MM-DD).")
	} else if d, ok := cases.ParseDate(&f, "notified_on", q.NotifiedOn); ok {
		if d.Year < 2000 || d.Year > 2200 {
			f.Add("notified_on", "range", "a data da ciência deve estar entre 2000 e 2200.")
		} else {
			on = d
		}
	}
	switch q.Kind {
	case "":
		f.Add("kind", "required", "informe kind: criminal_appeal ou civil_appeal.")
	case KindCriminalAppeal, KindCivilAppeal:
	default:
		f.Add("kind", "oneof", fmt.Sprintf("kind %q desconhecido: use criminal_appeal (JECRIM, Lei 9.099/1995, art. 82, § 1º) ou civil_appeal (torcidas, CPC, art. 1.003, § 5º).", q.Kind))
	}
	hol := Holidays{}
	if q.Court != "" {
		if !cases.CourtCodePattern.MatchString(q.Court) {
			f.Add("court", "format", "informe o juizado como TR.OOOO (ex.: 26.0100).")
		} else if err := cases.CheckCourtCode(q.Court); err != nil {
			f.Add("court", "known", fmt.Sprintf("juizado %s: o tribunal %s não é um tribunal de justiça estadual (TR de 01 a %d, Res. CNJ 65/2008).", q.Court, q.Court[:2], cases.StateCourts))
		} else {
			var n int64
			if err := db.Conn(ctx, s.DB).Raw("SELECT count(*) FROM courts WHERE code = ?", q.Court).Scan(&n).Error; err != nil {
				return nil, err
			}
			if n == 0 {
				f.Add("court", "known", fmt.Sprintf("juizado %s não cadastrado.", q.Court))
			} else {
				cc, err := s.loadCalendar(ctx, q.Court)
				if err != nil {
					return nil, err
				}
				hol = cc.all()
			}
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	p, err := CountPeriod(q.Kind, on, hol)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// Text describes the window in Portuguese for the docket and documents:
// its days, first and last day and rule.
func (p Period) Text() string {
	unit := "corridos"
	if p.WorkingDays {
		unit = "úteis"
	}
	t := fmt.Sprintf("prazo de recurso de %d dias %s, de %s a %s (%s)", p.Days, unit, p.FirstDay.BR(), p.LastDay.BR(), p.Rule)
	if p.CountedFrom != p.NotifiedOn {
		t += fmt.Sprintf("; ciência em dia sem expediente, considerada feita em %s", p.CountedFrom.BR())
	}
	return t
}
