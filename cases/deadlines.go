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

// Notification is the ciência of a decision by a defendant.
type Notification struct {
	ID          int64
	CaseID      int64
	DefendantID int64
	Kind        string
	NotifiedOn  civil.Date
	CreatedAt   time.Time
	CreatedBy   *int64
}

// DeadlineView is a deadline shown on the case: the appeal window of a
// defendant, from the notification to its last day.
type DeadlineView struct {
	DefendantID int64      `json:"defendant_id"`
	Kind        string     `json:"kind"` // appeal
	Days        int        `json:"days"`
	NotifiedOn  civil.Date `json:"notified_on"`
	LastDay     civil.Date `json:"last_day"`
	Open        bool       `json:"open"`
	Rule        string     `json:"rule"`
}

const appealRule = "Lei 9.099/1995, art. 82, § 1º; CPP art. 798, §§ 1º e 3º"

// deadlines computes the case's deadlines with the court's current
// calendar (a holiday added later moves them).
func (s *Service) deadlines(ctx context.Context, c *Case) ([]DeadlineView, error) {
	var ns []Notification
	if err := db.Conn(ctx, s.DB).Where("case_id = ?", c.ID).Order("defendant_id").Find(&ns).Error; err != nil {
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
		last := Deadline(n.NotifiedOn, AppealDays, hol)
		out = append(out, DeadlineView{DefendantID: n.DefendantID, Kind: n.Kind, Days: AppealDays, NotifiedOn: n.NotifiedOn,
			LastDay: last, Open: !today.After(last), Rule: appealRule})
	}
	return out, nil
}

// NotificationInput is the body of POST /api/v1/cases/{id}/notifications.
type NotificationInput struct {
	DefendantID int64  `json:"defendant_id"`
	NotifiedOn  string `json:"notified_on"`
}

// Notify records a defendant's notification (ciência) of the decision and
// returns the appeal deadline it opens (Deadline, AppealDays). The case
// must be decided (sentenced or judgment); the day may not be in the
// future nor before the filing; each defendant is notified once.
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
		d, err := s.personOf(ctx, c, in.DefendantID, "defendant_id")
		if err != nil {
			return err
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
		var n int64
		if err := tx.Model(&Notification{}).Where("defendant_id = ? AND kind = 'appeal'", d.ID).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.New(errs.Conflict, "A ciência deste réu já foi registrada.")
		}
		uid := actor.UserID
		if err := tx.Create(&Notification{CaseID: c.ID, DefendantID: d.ID, Kind: "appeal", NotifiedOn: on, CreatedAt: s.now(), CreatedBy: &uid}).Error; err != nil {
			return err
		}
		hol, err := s.holidaySet(ctx, c.CourtCode)
		if err != nil {
			return err
		}
		last := Deadline(on, AppealDays, hol)
		name := d.FullName
		if d.Kind == "fan_group" {
			name = d.GroupName
		}
		text := fmt.Sprintf("Ciência da sentença por %s em %s; prazo de recurso de %d dias até %s (%s).", name, on.BR(), AppealDays, last.BR(), appealRule)
		if err := s.move(ctx, c, &actor, s.now(), 0, text); err != nil {
			return err
		}
		if err := s.touch(ctx, c, ""); err != nil {
			return err
		}
		out = &DeadlineView{DefendantID: d.ID, Kind: "appeal", Days: AppealDays, NotifiedOn: on, LastDay: last, Open: !today.After(last), Rule: appealRule}
		return nil
	})
	return out, err
}
