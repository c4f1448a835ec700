package cases

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// AppealDays is the appeal window of the JECRIM: 10 days (Lei 9.099/1995,
// art. 82, § 1º).
const AppealDays = 10

// Weekend reports whether d is a Saturday or a Sunday.
func Weekend(d civil.Date) bool {
	switch time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Weekday() {
	case time.Saturday, time.Sunday:
		return true
	}
	return false
}

// Deadline is the last day of a procedural term of days counted from the
// notification (ciência) on notified: the day of the notification is
// excluded and the last day included (CPP art. 798, § 1º); a last day on a
// weekend or on a court holiday moves to the next working day (§ 3º).
// holiday may be nil.
func Deadline(notified civil.Date, days int, holiday func(civil.Date) bool) civil.Date {
	last := notified.AddDays(days)
	for Weekend(last) || (holiday != nil && holiday(last)) {
		last = last.AddDays(1)
	}
	return last
}

// Holiday is a day the court does not work (its calendar, kept by the
// clerk).
type Holiday struct {
	ID        int64      `json:"id"`
	CourtCode string     `json:"court"`
	Day       civil.Date `json:"date"`
	Name      string     `json:"name"`
	CreatedAt time.Time  `json:"created_at"`
	CreatedBy *int64     `json:"-"`
}

// TableName is court_holidays.
func (Holiday) TableName() string { return "court_holidays" }

// HolidayInput is the body of POST /api/v1/holidays.
type HolidayInput struct {
	Date string `json:"date"`
	Name string `json:"name"`
}

// AddHoliday adds a day to the actor's court calendar; a day already there
// is errs.Conflict.
func (s *Service) AddHoliday(ctx context.Context, actor Actor, in HolidayInput) (*Holiday, error) {
	var f errs.Fields
	var day civil.Date
	if in.Date == "" {
		f.Add("date", "required", "informe a data (AAAA-MM-DD).")
	} else if d, ok := parseDate(&f, "date", in.Date); ok {
		day = d
		if d.Year < 2000 || d.Year > 2200 {
			f.Add("date", "range", "data fora do intervalo aceito (2000 a 2200).")
		}
	}
	if strings.TrimSpace(in.Name) == "" {
		f.Add("name", "required", "informe o nome do feriado.")
	}
	checkText(&f, "name", in.Name, maxName, false)
	if err := f.Err(); err != nil {
		return nil, err
	}
	var out *Holiday
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var n int64
		if err := tx.Model(&Holiday{}).Where("court_code = ? AND day = ?", actor.Court, day).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("O dia %s já está no calendário do juizado.", day.BR()))
		}
		uid := actor.UserID
		h := Holiday{CourtCode: actor.Court, Day: day, Name: clean(in.Name), CreatedAt: s.now(), CreatedBy: &uid}
		if err := tx.Create(&h).Error; err != nil {
			if db.IsUniqueViolation(err, "") {
				return errs.New(errs.Conflict, fmt.Sprintf("O dia %s já está no calendário do juizado.", day.BR()))
			}
			return err
		}
		out = &h
		return nil
	})
	return out, err
}

// Holidays lists the actor's court holidays, of one year when year is
// set ("" for all), in date order.
func (s *Service) Holidays(ctx context.Context, actor Actor, year string) ([]Holiday, error) {
	q := db.Conn(ctx, s.DB).Where("court_code = ?", actor.Court)
	if year != "" {
		y, err := strconv.Atoi(year)
		if err != nil || y < 2000 || y > 2200 {
			return nil, errs.InvalidField("year", "integer", "ano inválido (ex.: 2025).")
		}
		q = q.Where("day BETWEEN ? AND ?", civil.New(y, 1, 1), civil.New(y, 12, 31))
	}
	out := []Holiday{}
	return out, q.Order("day").Find(&out).Error
}

// holidaySet returns the court's calendar as a predicate.
func (s *Service) holidaySet(ctx context.Context, court string) (func(civil.Date) bool, error) {
	var days []struct{ Day civil.Date }
	if err := db.Conn(ctx, s.DB).Raw("SELECT day FROM court_holidays WHERE court_code = ?", court).Scan(&days).Error; err != nil {
		return nil, err
	}
	set := map[civil.Date]bool{}
	for _, d := range days {
		set[d.Day] = true
	}
	return func(d civil.Date) bool { return set[d] }, nil
}

// Parties notified of a decision (Lei 9.099/1995, art. 82, § 1º: the
// prosecution, the defendant and the defence each have their own window).
const (
	PartyDefendant   = "defendant"
	PartyDefence     = "defence"
	PartyProsecution = "prosecution"
)

// PartyPT names each party in Portuguese.
var PartyPT = map[string]string{PartyDefendant: "réu", PartyDefence: "defesa", PartyProsecution: "Ministério Público"}

// Notification is the ciência of a decision by a party: a defendant, the
// defence of a defendant, or the prosecution (DefendantID nil), with an
// express waiver of the appeal (WaivedAppeal: the party's window closes on
// NotifiedOn).
type Notification struct {
	ID           int64
	CaseID       int64
	DefendantID  *int64
	Party        string
	WaivedAppeal bool
	Superseded   bool
	Kind         string
	NotifiedOn   civil.Date
	CreatedAt    time.Time
	CreatedBy    *int64
}

// DeadlineView is a deadline shown on the case: the appeal window of a
// party, from the notification to its last day; a waiver closes it on the
// day of the notice (Closes is the day the window is over for finality: the
// day after the last day, or the waiver's day).
type DeadlineView struct {
	DefendantID  *int64     `json:"defendant_id"`
	Party        string     `json:"party"`
	Kind         string     `json:"kind"` // appeal
	Days         int        `json:"days"`
	NotifiedOn   civil.Date `json:"notified_on"`
	LastDay      civil.Date `json:"last_day"`
	WaivedAppeal bool       `json:"waived_appeal"`
	Open         bool       `json:"open"`
	Rule         string     `json:"rule"`
	Closes       civil.Date `json:"closes_on"`
}

const appealRule = "Lei 9.099/1995, art. 82, § 1º; CPP art. 798, §§ 1º e 3º"

// window is the appeal window a notification opens (Deadline, AppealDays)
// under the court's calendar hol, as of today.
func window(n Notification, hol func(civil.Date) bool, today civil.Date) DeadlineView {
	party := n.Party
	if party == "" {
		party = PartyDefendant
	}
	last := Deadline(n.NotifiedOn, AppealDays, hol)
	v := DeadlineView{DefendantID: n.DefendantID, Party: party, Kind: n.Kind, Days: AppealDays, NotifiedOn: n.NotifiedOn,
		LastDay: last, Open: !today.After(last), Rule: appealRule, Closes: last.AddDays(1)}
	if n.WaivedAppeal {
		v.WaivedAppeal, v.LastDay, v.Open, v.Closes = true, n.NotifiedOn, false, n.NotifiedOn
		v.Rule = "renúncia expressa ao recurso; " + appealRule
	}
	return v
}

// deadlines computes the case's deadlines with the court's current
// calendar (a holiday added later moves them).
func (s *Service) deadlines(ctx context.Context, c *Case) ([]DeadlineView, error) {
	var ns []Notification
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND NOT superseded", c.ID).Order("defendant_id NULLS FIRST, party, id").Find(&ns).Error; err != nil {
		return nil, err
	}
	out := []DeadlineView{}
	if len(ns) == 0 {
		return out, nil
	}
	hol, err := s.holidaySet(ctx, c.CourtCode)
	if err != nil {
		return nil, err
	}
	today := civil.Today(s.now(), s.Loc)
	for _, n := range ns {
		out = append(out, window(n, hol, today))
	}
	return out, nil
}

// NotificationInput is the body of POST /api/v1/cases/{id}/notifications:
// the party (defendant, the default; defence; prosecution), the defendant
// (for defendant and defence), the day of the notice and an express waiver
// of the appeal.
type NotificationInput struct {
	Party        string `json:"party"`
	DefendantID  int64  `json:"defendant_id"`
	NotifiedOn   string `json:"notified_on"`
	WaivedAppeal bool   `json:"waived_appeal"`
}

// Notify records a party's notification (ciência) of the decision and
// returns the appeal window it opens (Deadline, AppealDays; Lei 9.099/1995,
// art. 82, § 1º), closed at once by an express waiver. The case must be
// decided (sentenced or judgment); the day may not be in the future nor
// before the filing; each party is notified once (errs.Conflict).
func (s *Service) Notify(ctx context.Context, actor Actor, caseID int64, in NotificationInput) (*DeadlineView, error) {
	var out *DeadlineView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.lockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		if c.Status != StatusSentenced && c.Status != StatusJudgment {
			return errs.New(errs.Conflict, fmt.Sprintf("A intimação da sentença cabe a processo sentenciado; este está em %s (%s).", c.Status, StatusPT[c.Status]))
		}
		party := in.Party
		if party == "" {
			party = PartyDefendant
		}
		var d *Defendant
		switch party {
		case PartyProsecution:
			if in.DefendantID != 0 {
				return errs.InvalidField("defendant_id", "prosecution", "a intimação do Ministério Público é uma só por processo: não informe defendant_id.")
			}
		case PartyDefendant, PartyDefence:
			if d, err = s.personOf(ctx, c, in.DefendantID, "defendant_id"); err != nil {
				return err
			}
		default:
			return errs.InvalidField("party", "oneof", "use defendant (réu), defence (defesa) ou prosecution (Ministério Público).")
		}
		var f errs.Fields
		var on civil.Date
		today := civil.Today(s.now(), s.Loc)
		if in.NotifiedOn == "" {
			f.Add("notified_on", "required", "informe o dia da ciência (AAAA-MM-DD).")
		} else if day, ok := parseDate(&f, "notified_on", in.NotifiedOn); ok {
			switch {
			case day.After(today):
				f.Add("notified_on", "not_future", "a ciência não pode estar no futuro.")
			case day.Before(civil.Today(c.FiledAt, s.Loc)):
				f.Add("notified_on", "after_filing", "a ciência não pode ser anterior à autuação.")
			default:
				on = day
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		q := tx.Model(&Notification{}).Where("case_id = ? AND party = ? AND kind = 'appeal' AND NOT superseded", c.ID, party)
		var did *int64
		if d != nil {
			q, did = q.Where("defendant_id = ?", d.ID), &d.ID
		}
		var n int64
		if err := q.Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("A ciência desta parte (%s) já foi registrada.", PartyPT[party]))
		}
		uid := actor.UserID
		nt := Notification{CaseID: c.ID, DefendantID: did, Party: party, WaivedAppeal: in.WaivedAppeal, Kind: "appeal", NotifiedOn: on, CreatedAt: s.now(), CreatedBy: &uid}
		if err := tx.Create(&nt).Error; err != nil {
			return err
		}
		hol, err := s.holidaySet(ctx, c.CourtCode)
		if err != nil {
			return err
		}
		v := window(nt, hol, today)
		who := PartyPT[party]
		if d != nil {
			name := d.FullName
			if d.Kind == "fan_group" {
				name = d.GroupName
			}
			if party == PartyDefence {
				who = "a defesa de " + name
			} else {
				who = name
			}
		}
		text := fmt.Sprintf("Ciência da sentença por %s em %s; prazo de recurso de %d dias até %s (%s).", who, on.BR(), AppealDays, v.LastDay.BR(), appealRule)
		if in.WaivedAppeal {
			text = fmt.Sprintf("Ciência da sentença por %s em %s, com renúncia expressa ao prazo de recurso.", who, on.BR())
		}
		if err := s.move(ctx, c, &actor, s.now(), 0, text); err != nil {
			return err
		}
		if err := s.touch(ctx, c, ""); err != nil {
			return err
		}
		out = &v
		return nil
	})
	return out, err
}

// finalityMissing lists, in Portuguese, what keeps the decision of case c
// from becoming final (Lei 9.099/1995, art. 82, § 1º; DOMAIN.md §4): every
// defendant, every defendant's defence (criminal cases) and the prosecution
// must be notified, and each window must have ended or been waived. When
// nothing is missing, day is the day the judgment became final: the day
// after the last window ended, or the day of the last waiver.
func (s *Service) finalityMissing(ctx context.Context, c *Case) (missing []string, day civil.Date, err error) {
	ds, err := s.deadlines(ctx, c)
	if err != nil {
		return nil, day, err
	}
	var defs []Defendant
	if err := db.Conn(ctx, s.DB).Where("case_id = ?", c.ID).Order("position, id").Find(&defs).Error; err != nil {
		return nil, day, err
	}
	today := civil.Today(s.now(), s.Loc)
	find := func(party string, id *int64) *DeadlineView {
		for i := range ds {
			if ds[i].Party == party && ((id == nil && ds[i].DefendantID == nil) || (id != nil && ds[i].DefendantID != nil && *ds[i].DefendantID == *id)) {
				return &ds[i]
			}
		}
		return nil
	}
	check := func(what string, w *DeadlineView) {
		switch {
		case w == nil:
			missing = append(missing, "falta a intimação de "+what)
		case w.Open:
			missing = append(missing, fmt.Sprintf("o prazo de recurso de %s corre até %s", what, w.LastDay.BR()))
		case day.Before(w.Closes):
			day = w.Closes
		}
	}
	check("Ministério Público", find(PartyProsecution, nil))
	for _, d := range defs {
		id := d.ID
		name := d.FullName
		if d.Kind == "fan_group" {
			name = d.GroupName
		}
		check(fmt.Sprintf("%s (réu %d)", name, d.ID), find(PartyDefendant, &id))
		if c.Flow == FlowCriminal {
			check(fmt.Sprintf("a defesa de %s (réu %d)", name, d.ID), find(PartyDefence, &id))
		} else if w := find(PartyDefence, &id); w != nil {
			check(fmt.Sprintf("a defesa de %s (réu %d)", name, d.ID), w)
		}
	}
	if day.After(today) {
		day = today
	}
	return missing, day, nil
}
