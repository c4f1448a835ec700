package calendar

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// AppealKind is the kind of the appeal window of a case of flow:
// sanctions.KindCivilAppeal for group cases (CPC arts. 1.003, § 5º, 219
// and 220), sanctions.KindCriminalAppeal (Lei 9.099/1995, art. 82, § 1º;
// CPP art. 798-A) otherwise.
func AppealKind(flow string) string {
	if flow == cases.FlowCivil {
		return sanctions.KindCivilAppeal
	}
	return sanctions.KindCriminalAppeal
}

// calendarEntry is a holiday of the court with the instant it was added.
type calendarEntry struct {
	Day       civil.Date
	Name      string
	CreatedAt time.Time
}

// courtCalendar is a court's own holidays in the order they were added
// (the national ones are built into sanctions.NoCourtBusiness).
type courtCalendar []calendarEntry

// all is the whole calendar as it stands.
func (cc courtCalendar) all() sanctions.Holidays {
	h := sanctions.Holidays{}
	for _, e := range cc {
		h[e.Day] = e.Name
	}
	return h
}

// periodOf counts with sanctions.CountPeriod the deadline in (its Court
// ignored) opened by a notification recorded at recorded: with the
// court's holidays known then, and with each holiday added later while
// the deadline had not yet ended (a holiday added after the last day moves
// nothing). movedFrom is the last day before later holidays moved it (nil
// when none did).
func (cc courtCalendar) periodOf(in sanctions.PeriodInput, recorded time.Time, loc *time.Location) (sanctions.Period, *civil.Date, error) {
	h := sanctions.Holidays{}
	var later []calendarEntry
	for _, e := range cc {
		if e.CreatedAt.After(recorded) {
			later = append(later, e)
		} else {
			h[e.Day] = e.Name
		}
	}
	in.Court = h
	p, err := sanctions.CountPeriod(in)
	if err != nil {
		return sanctions.Period{}, nil, err
	}
	first := p.LastDay
	for _, e := range later {
		if civil.Today(e.CreatedAt, loc).After(p.LastDay) {
			continue // the deadline had ended when the holiday was added
		}
		h[e.Day] = e.Name
		if p, err = sanctions.CountPeriod(in); err != nil {
			return sanctions.Period{}, nil, err
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

// courtOf reads court's holidays (loadCalendar) and the court itself (its
// setting on the Defensoria's doubling in the JECRIM), what periodInput and
// periodOf count a window with.
func (s *Service) courtOf(ctx context.Context, court string) (courtCalendar, *cases.Court, error) {
	cal, err := s.loadCalendar(ctx, court)
	if err != nil {
		return nil, nil, err
	}
	k, err := cases.GetCourt(ctx, s.DB, court)
	return cal, k, err
}

// CourtHolidays returns the own calendar of court (TR.OOOO): the days
// without court business its clerk declared (Carnival, Corpus Christi,
// local holidays; the national ones are built into sanctions). It is the
// cases.CourtCalendar that ScheduleHearing asks (CPP art. 792).
func (s *Service) CourtHolidays(ctx context.Context, court string) (sanctions.Holidays, error) {
	cc, err := s.loadCalendar(ctx, court)
	if err != nil {
		return nil, err
	}
	return cc.all(), nil
}

// DeadlineQuery is GET /api/v1/legal/deadline: the notification day
// (YYYY-MM-DD), the kind (criminal_appeal or civil_appeal), optionally a
// court TR.OOOO whose holidays and setting count, the party (prosecution,
// defendant, defence; "" none), public_defender ("true" when the defence is
// the Defensoria Pública) and recess_exception (custody, maria_da_penha,
// urgent: CPP art. 798-A, I to III).
type DeadlineQuery struct {
	NotifiedOn      string
	Kind            string
	Court           string
	Party           string
	PublicDefender  string
	RecessException string
}

// LegalDeadline answers GET /api/v1/legal/deadline with
// sanctions.CountPeriod, with the holidays of the court and its reading of
// the Defensoria's doubling in the JECRIM when one is named (no login: no
// personal data). Errors: errs.Invalid naming notified_on (required,
// form), kind (required, oneof), court (form, unknown court),
// public_defender (not a boolean) or the fields CountPeriod names (party,
// public_defender, recess_exception).
func (s *Service) LegalDeadline(ctx context.Context, q DeadlineQuery) (*sanctions.Period, error) {
	var f errs.Fields
	in := sanctions.PeriodInput{Kind: q.Kind, Party: sanctions.Party(q.Party), Exception: sanctions.RecessException(q.RecessException)}
	if q.NotifiedOn == "" {
		f.Add("notified_on", "required", "informe o dia da ciência (notified_on, AAAA-MM-DD).")
	} else if d, ok := cases.ParseDate(&f, "notified_on", q.NotifiedOn); ok {
		if d.Year < 2000 || d.Year > 2200 {
			f.Add("notified_on", "range", "a data da ciência deve estar entre 2000 e 2200.")
		} else {
			in.NotifiedOn = d
		}
	}
	const kinds = "criminal_appeal (JECRIM, Lei 9.099/1995, art. 82, § 1º), civil_appeal (torcidas, CPC, art. 1.003, § 5º), criminal_embargos (Lei 9.099/1995, art. 83), civil_embargos (CPC, art. 1.023) ou criminal_extraordinary (recurso extraordinário, CF, art. 102, III)"
	switch {
	case q.Kind == "":
		f.Add("kind", "required", "informe kind: "+kinds+".")
	case !slices.Contains(sanctions.DeadlineKinds, q.Kind):
		f.Add("kind", "oneof", fmt.Sprintf("kind %q desconhecido: use %s.", q.Kind, kinds))
	}
	if q.PublicDefender != "" {
		b, err := strconv.ParseBool(q.PublicDefender)
		if err != nil {
			f.Add("public_defender", "boolean", "public_defender deve ser true ou false.")
		}
		in.PublicDefender = b
	}
	if q.Court != "" {
		if err := s.courtInput(ctx, &f, q.Court, &in); err != nil {
			return nil, err
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	p, err := sanctions.CountPeriod(in)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// courtInput checks court (TR.OOOO, a registered court) into f and sets
// in's court calendar and the court's reading of the Defensoria's doubling.
func (s *Service) courtInput(ctx context.Context, f *errs.Fields, court string, in *sanctions.PeriodInput) error {
	if !cases.CourtCodePattern.MatchString(court) {
		f.Add("court", "format", "informe o juizado como TR.OOOO (ex.: 26.0100).")
		return nil
	}
	if err := cases.CheckCourtCode(court); err != nil {
		f.Add("court", "known", fmt.Sprintf("juizado %s: o tribunal %s não é um tribunal de justiça estadual (TR de 01 a %d, Res. CNJ 65/2008).", court, court[:2], cases.StateCourts))
		return nil
	}
	k, err := cases.GetCourt(ctx, s.DB, court)
	if errs.KindOf(err) == errs.NotFound {
		f.Add("court", "known", fmt.Sprintf("juizado %s não cadastrado.", court))
		return nil
	}
	if err != nil {
		return err
	}
	cc, err := s.loadCalendar(ctx, court)
	if err != nil {
		return err
	}
	in.Court, in.NoJECRIMDefensoriaDoubling = cc.all(), !k.DefensoriaDoublesJECRIM
	return nil
}
