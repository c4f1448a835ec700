package calendar

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

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

// AddHoliday adds a day to the actor's court calendar (Carnival, Corpus
// Christi, a local holiday: the national ones are built in, sanctions.
// NationalHolidays); a day already there is errs.Conflict. Each open
// window the day moves gets a docket movement (CPP art. 798, § 3º).
func (s *Service) AddHoliday(ctx context.Context, actor actor.Actor, in HolidayInput) (*Holiday, error) {
	var f errs.Fields
	var day civil.Date
	if in.Date == "" {
		f.Add("date", "required", "informe a data (AAAA-MM-DD).")
	} else if d, ok := cases.ParseDate(&f, "date", in.Date); ok {
		day = d
		if d.Year < 2000 || d.Year > 2200 {
			f.Add("date", "range", "data fora do intervalo aceito (2000 a 2200).")
		}
	}
	if strings.TrimSpace(in.Name) == "" {
		f.Add("name", "required", "informe o nome do feriado.")
	}
	cases.CheckText(&f, "name", in.Name, cases.MaxName, false)
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
		h := Holiday{CourtCode: actor.Court, Day: day, Name: cases.Clean(in.Name), CreatedAt: s.Now(), CreatedBy: &uid}
		if err := tx.Create(&h).Error; err != nil {
			if db.IsUniqueViolation(err, "") {
				return errs.New(errs.Conflict, fmt.Sprintf("O dia %s já está no calendário do juizado.", day.BR()))
			}
			return err
		}
		out = &h
		return s.holidayMoves(ctx, actor, h, false)
	})
	return out, err
}

// RemoveHoliday removes holiday id from the actor's court calendar (the
// clerk's correction: a day declared by mistake, or a local holiday
// moved); a holiday of another court, or none, is errs.NotFound. The
// national holidays are built in and cannot be removed. Each open window
// the removal moves back gets a docket movement.
func (s *Service) RemoveHoliday(ctx context.Context, actor actor.Actor, id int64) (*Holiday, error) {
	var out *Holiday
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var hs []Holiday
		if err := tx.Where("id = ? AND court_code = ?", id, actor.Court).Limit(1).Find(&hs).Error; err != nil {
			return err
		}
		if len(hs) == 0 {
			return errs.New(errs.NotFound, "Feriado não encontrado no calendário do juizado.")
		}
		// The movements compare the calendar with the day and without it.
		if err := s.holidayMoves(ctx, actor, hs[0], true); err != nil {
			return err
		}
		if err := tx.Delete(&Holiday{}, hs[0].ID).Error; err != nil {
			return err
		}
		out = &hs[0]
		return nil
	})
	return out, err
}

// holidayMoves writes a docket movement on each case of the court whose
// appeal window, not yet ended, the holiday h just added (or, removed,
// about to be removed) moves (CPP art. 798, §§ 1º and 3º; CPC art. 219),
// naming the old and the new last day.
func (s *Service) holidayMoves(ctx context.Context, actor actor.Actor, h Holiday, removed bool) error {
	tx := db.Conn(ctx, s.DB)
	var rows []struct {
		Notification
		Flow     string
		Name     string
		Position int
	}
	// Only a holiday on or after the notice can move its window; windows
	// are at most a few months long.
	err := tx.Raw(`SELECT n.*, k.flow, coalesce(nullif(d.full_name, ''), d.group_name) AS name FROM notifications n
		JOIN cases k ON k.id = n.case_id LEFT JOIN defendants d ON d.id = n.defendant_id
		WHERE k.court_code = ? AND n.notified_on <= ? AND n.notified_on >= ? AND NOT n.superseded ORDER BY n.case_id, n.id`,
		h.CourtCode, h.Day, h.Day.AddDays(-120)).Scan(&rows).Error
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	with, err := s.loadCalendar(ctx, h.CourtCode)
	if err != nil {
		return err
	}
	var without courtCalendar
	for _, e := range with {
		if e.Day != h.Day {
			without = append(without, e)
		}
	}
	before, after, verb := without, with, "incluído no"
	if removed {
		before, after, verb = with, without, "retirado do"
	}
	k, err := cases.GetCourt(ctx, s.DB, h.CourtCode)
	if err != nil {
		return err
	}
	today := civil.Today(s.Now(), s.Loc)
	for _, r := range rows {
		nb, na := r.Notification, r.Notification
		before.resolve(&nb, today)
		after.resolve(&na, today)
		was, _, err := before.periodOf(periodInput(r.Flow, nb, k), r.CreatedAt, s.Loc)
		if err != nil {
			return err
		}
		now, _, err := after.periodOf(periodInput(r.Flow, na, k), r.CreatedAt, s.Loc)
		if err != nil {
			return err
		}
		if now.LastDay == was.LastDay && now.FirstDay == was.FirstDay {
			continue
		}
		c := cases.Case{ID: r.CaseID}
		whose := "de " + r.Name
		if r.Party == PartyProsecution {
			whose = "do Ministério Público"
			if r.DefendantID != nil { // its notice as to one defendant (each defendant's track)
				whose += " quanto a " + r.Name
			}
		}
		text := fmt.Sprintf("Prazo de recurso %s movido pelo feriado de %s (%s) %s calendário do juizado: último dia passou de %s para %s (%s).",
			whose, h.Day.BR(), h.Name, verb, was.LastDay.BR(), now.LastDay.BR(), now.Rule)
		if err := s.Move(ctx, &c, &actor, s.Now(), cases.MoveDeadlineMoved, text); err != nil {
			return err
		}
		if err := tx.Exec("UPDATE cases SET version = version + 1 WHERE id = ?", r.CaseID).Error; err != nil {
			return err
		}
	}
	return nil
}

// Holidays lists the actor's court holidays, of one year when year is
// set ("" for all), in date order.
func (s *Service) Holidays(ctx context.Context, actor actor.Actor, year string) ([]Holiday, error) {
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

// Parties notified of a decision (Lei 9.099/1995, art. 82, § 1º: the
// prosecution, the defendant and the defence each have their own window).
const (
	PartyDefendant   = "defendant"
	PartyDefence     = "defence"
	PartyProsecution = "prosecution"
)

// PartyPT names each party in Portuguese.
var PartyPT = map[string]string{PartyDefendant: "réu", PartyDefence: "defesa", PartyProsecution: "Ministério Público"}

// partyArticlePT names each party with its definite article, as a noun
// phrase that prepositions contract with (sanctions.PorPT: "pelo
// Ministério Público").
var partyArticlePT = map[string]string{PartyDefendant: "o réu", PartyDefence: "a defesa", PartyProsecution: "o Ministério Público"}

// Notification is the ciência of a decision by a party: a defendant, the
// defence of a defendant, or the prosecution (DefendantID nil), with an
// express waiver of the appeal (WaivedAppeal: the party's window closes on
// NotifiedOn); PublicDefender when the defence is the Defensoria Pública
// (its window doubled: LC 80/1994, arts. 44, I, 89, I, and 128, I; CPC
// art. 186), RecessException the exception of CPP art. 798-A, I to III,
// that keeps a criminal window running in the recess ("" none).
// Electronic is a notice to the defence made available in the system on
// AvailableOn (Lei 11.419/2006, art. 5º): it counts on the day first
// opened (OpenedOn, by OpenedBy) or on the tenth running day after
// AvailableOn (sanctions.CountElectronicNotice); NotifiedOn keeps that day
// as known when written and resolve recomputes it on read, setting Pending
// (nobody opened it and the tenth day has not come) and CountRule.
type Notification struct {
	ID              int64
	CaseID          int64
	DefendantID     *int64
	Party           string
	WaivedAppeal    bool
	Superseded      bool
	Kind            string
	NotifiedOn      civil.Date
	CreatedAt       time.Time
	CreatedBy       *int64
	PublicDefender  bool
	RecessException string
	Electronic      bool
	AvailableOn     *civil.Date
	OpenedOn        *civil.Date
	OpenedBy        *int64
	Pending         bool   `gorm:"-"`
	CountRule       string `gorm:"-"`
	// Flow is the flow of the notice's case when a reader joined it
	// (WindowsEnding, ReadyFinal); not a column.
	Flow string `gorm:"-"`
}

// resolve sets the day electronic notice n counts on as of today with the
// court's calendar as it stands (Lei 11.419/2006, art. 5º, §§ 1º to 3º;
// sanctions.CountElectronicNotice), with Pending and CountRule; a notice
// recorded by its date is left as it is.
func (cc courtCalendar) resolve(n *Notification, today civil.Date) {
	if !n.Electronic || n.AvailableOn == nil {
		return
	}
	e := sanctions.CountElectronicNotice(*n.AvailableOn, n.OpenedOn, today, cc.all())
	n.NotifiedOn, n.Pending, n.CountRule = e.CountsOn, e.Pending, e.Rule
}

// periodInput is what sanctions.CountPeriod counts for the window n opens
// in a case of flow at court k (its calendar is added by periodOf): the
// kind by the flow, the party, the Defensoria and the court's reading of
// its doubling in the JECRIM, and the recess exception.
func periodInput(flow string, n Notification, k *cases.Court) sanctions.PeriodInput {
	party := n.Party
	if party == "" {
		party = PartyDefendant
	}
	return sanctions.PeriodInput{Kind: windowKind(flow, n.Kind), NotifiedOn: n.NotifiedOn, Party: sanctions.Party(party),
		PublicDefender: n.PublicDefender, NoJECRIMDefensoriaDoubling: !k.DefensoriaDoublesJECRIM,
		Exception: sanctions.RecessException(n.RecessException)}
}

// DeadlineView is a deadline shown on the case: the appeal window of a
// party, from the notification to its last day, counted by
// sanctions.CountPeriod for the case's flow (DeadlineKind: criminal_appeal
// or, in group cases, civil_appeal). CountedFrom is the notice day as
// counted, FirstDay and LastDay the first and last day of the window,
// Skipped the days it did not count (weekends, national and court
// holidays, the recess of CPP art. 798-A or the suspension of CPC art.
// 220), Rule the rules applied (doublings and recess included);
// PublicDefender and RecessException as on the notification; MovedFrom is
// the last day the window had
// before a holiday added later moved it (nil when none did). A waiver closes
// the window on the day of the notice; Closes is the day the window is over
// for finality (the day after the last day, or the waiver's day). An
// electronic notice (Lei 11.419/2006, art. 5º) has AvailableOn, OpenedOn
// (nil: not opened), CountsOn (= NotifiedOn: the day it counts on),
// Pending while nobody opened it and its tenth day has not come (the
// window then shown is the one that follows if nobody does) and
// NoticeRule, the paragraph applied; NoticeID is the notification's id.
type DeadlineView struct {
	NoticeID        int64                  `json:"notice_id"`
	DefendantID     *int64                 `json:"defendant_id"`
	Party           string                 `json:"party"`
	Kind            string                 `json:"kind"` // appeal
	Days            int                    `json:"days"`
	NotifiedOn      civil.Date             `json:"notified_on"`
	LastDay         civil.Date             `json:"last_day"`
	WaivedAppeal    bool                   `json:"waived_appeal"`
	Open            bool                   `json:"open"`
	Rule            string                 `json:"rule"`
	Closes          civil.Date             `json:"closes_on"`
	DeadlineKind    string                 `json:"deadline_kind"`
	WorkingDays     bool                   `json:"working_days"`
	CountedFrom     civil.Date             `json:"counted_from"`
	FirstDay        civil.Date             `json:"first_day"`
	Skipped         []sanctions.SkippedDay `json:"skipped"`
	MovedFrom       *civil.Date            `json:"moved_from,omitempty"`
	PublicDefender  bool                   `json:"public_defender"`
	RecessException string                 `json:"recess_exception,omitempty"`
	Electronic      bool                   `json:"electronic"`
	AvailableOn     *civil.Date            `json:"available_on,omitempty"`
	OpenedOn        *civil.Date            `json:"opened_on,omitempty"`
	CountsOn        *civil.Date            `json:"counts_on,omitempty"`
	Pending         bool                   `json:"pending,omitempty"`
	NoticeRule      string                 `json:"notice_rule,omitempty"`
}

// deadlineView is the view of the window p opened by notification n (a
// waiver closes it on the notice's day), as of today.
func deadlineView(n Notification, p sanctions.Period, moved *civil.Date, today civil.Date) DeadlineView {
	party := n.Party
	if party == "" {
		party = PartyDefendant
	}
	v := DeadlineView{DefendantID: n.DefendantID, Party: party, Kind: n.Kind, Days: p.Days, NotifiedOn: p.NotifiedOn, LastDay: p.LastDay,
		Open: !today.After(p.LastDay), Rule: p.Rule, DeadlineKind: p.Kind, WorkingDays: p.WorkingDays,
		CountedFrom: p.CountedFrom, FirstDay: p.FirstDay, Skipped: p.Skipped, MovedFrom: moved, Closes: p.LastDay.AddDays(1),
		PublicDefender: n.PublicDefender, RecessException: n.RecessException, NoticeID: n.ID}
	if n.Electronic {
		on := p.NotifiedOn
		v.Electronic, v.AvailableOn, v.OpenedOn, v.CountsOn, v.Pending, v.NoticeRule = true, n.AvailableOn, n.OpenedOn, &on, n.Pending, n.CountRule
	}
	if v.Kind == "" {
		v.Kind = "appeal"
	}
	if n.WaivedAppeal {
		v.WaivedAppeal, v.LastDay, v.Open, v.Closes = true, n.NotifiedOn, false, n.NotifiedOn
		v.Rule = "renúncia expressa ao recurso; " + p.Rule
		v.Skipped, v.MovedFrom = []sanctions.SkippedDay{}, nil
	}
	return v
}

// Deadlines computes the case's deadlines with the court's current
// calendar (a holiday added later moves them while they have not ended).
func (s *Service) Deadlines(ctx context.Context, c *cases.Case) ([]DeadlineView, error) {
	var ns []Notification
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND NOT superseded", c.ID).Order("defendant_id NULLS FIRST, party, id").Find(&ns).Error; err != nil {
		return nil, err
	}
	out := []DeadlineView{}
	if len(ns) == 0 {
		return out, nil
	}
	cal, k, err := s.courtOf(ctx, c.CourtCode)
	if err != nil {
		return nil, err
	}
	return s.viewsOf(cal, k, c.Flow, ns, out)
}

// viewsOf appends to out the deadline views of the notices ns of a case
// of flow at court k with calendar cal, as of today.
func (s *Service) viewsOf(cal courtCalendar, k *cases.Court, flow string, ns []Notification, out []DeadlineView) ([]DeadlineView, error) {
	today := civil.Today(s.Now(), s.Loc)
	for _, n := range ns {
		cal.resolve(&n, today)
		p, moved, err := cal.periodOf(periodInput(flow, n, k), n.CreatedAt, s.Loc)
		if err != nil {
			return nil, err
		}
		out = append(out, deadlineView(n, p, moved, today))
	}
	return out, nil
}

// NotificationInput is the body of POST /api/v1/cases/{id}/notifications:
// the party (defendant, the default; defence; prosecution), the defendant
// (for defendant and defence), the day of the notice, an express waiver
// of the appeal, public_defender when the defence notified is the
// Defensoria Pública (LC 80/1994: its window doubled), and
// recess_exception (custody, maria_da_penha, urgent: CPP art. 798-A, I to
// III) when the criminal window runs through the recess. Electronic
// (defence only, without notified_on nor waived_appeal) makes the notice
// available in the system today instead (Lei 11.419/2006, art. 5º).
type NotificationInput struct {
	Party           string `json:"party"`
	DefendantID     int64  `json:"defendant_id"`
	NotifiedOn      string `json:"notified_on"`
	WaivedAppeal    bool   `json:"waived_appeal"`
	PublicDefender  bool   `json:"public_defender"`
	RecessException string `json:"recess_exception"`
	Electronic      bool   `json:"electronic"`
}

// noticeTracks are the defendants of c whose notice party may get, with
// what the notice is of (noticeOf: the kind of notice, the decision's day,
// its name): the one named (errs.Invalid on defendant_id when missing for
// the defendant and the defence, or not of the case; errs.Conflict unless
// a notice is due on his track: the sentence on a sentenced track, each
// defendant's track, DOMAIN.md §4; the ruling on embargos whatever the
// track's status, art. 83, § 2º), or, for the prosecution without a
// defendant, every defendant with a notice of the same kind due
// (errs.Conflict when none is). A group case is sentenced as a whole
// (judgment). day is the latest decision's day among them.
func (s *Service) noticeTracks(ctx context.Context, c *cases.Case, party string, id int64) (ds []cases.Defendant, kind string, day civil.Date, what string, err error) {
	if party != PartyProsecution || id != 0 {
		d, err := s.PersonOf(ctx, c, id, "defendant_id")
		if err != nil {
			return nil, "", day, "", err
		}
		st := cases.TrackOf(c, *d)
		kind, day, what, ok, err := s.noticeOf(ctx, c, *d, st)
		if err != nil {
			return nil, "", day, "", err
		}
		if !ok {
			return nil, "", day, "", errs.New(errs.Conflict, fmt.Sprintf("A intimação da sentença cabe ao réu sentenciado (ou, depois dos embargos de declaração, a da decisão deles); %s está em %s (%s).", cases.NameOf(*d), st, cases.OrStatus(st)))
		}
		d.Status = st
		return []cases.Defendant{*d}, kind, day, what, nil
	}
	all, err := s.Tracks(ctx, c)
	if err != nil {
		return nil, "", day, "", err
	}
	for _, d := range all {
		k, on, w, ok, err := s.noticeOf(ctx, c, d, d.Status)
		if err != nil {
			return nil, "", day, "", err
		}
		if !ok || (kind != "" && k != kind) {
			continue
		}
		kind, what = k, w
		if on.After(day) {
			day = on
		}
		ds = append(ds, d)
	}
	if len(ds) == 0 {
		return nil, "", day, "", errs.New(errs.Conflict, fmt.Sprintf("A intimação da sentença cabe a processo sentenciado; este está em %s (%s).", c.Status, cases.OrStatus(c.Status)))
	}
	return ds, kind, day, what, nil
}

// Notify records a party's notification (ciência) of the decision and
// returns the appeal window it opens (sanctions.CountPeriod: Lei
// 9.099/1995, art. 82, § 1º, suspended in the recess of CPP art. 798-A;
// CPC arts. 180, 219 and 220 in group cases; doubled for the Defensoria),
// closed at once by an express waiver. The defendant's track must be
// sentenced (a group case: judgment); the prosecution's notice names
// defendant_id or is as to every defendant sentenced so far (one
// notification per defendant); the day may not be in the future nor
// before the filing; each party is notified once per defendant
// (errs.Conflict); public_defender for a party other than the defence, or
// a recess exception unknown or in a group case, is errs.Invalid naming
// the field. The defence of a defendant the Defensoria Pública represents
// (cases.Core.DefensoriaRepresents) is public_defender without saying so.
func (s *Service) Notify(ctx context.Context, actor actor.Actor, caseID int64, in NotificationInput) (*DeadlineView, error) {
	var out *DeadlineView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		party := in.Party
		if party == "" {
			party = PartyDefendant
		}
		if party != PartyProsecution && party != PartyDefendant && party != PartyDefence {
			return errs.InvalidField("party", "oneof", "use defendant (réu), defence (defesa) ou prosecution (Ministério Público).")
		}
		// Each defendant's track (DOMAIN.md §4): the notice is of his
		// sentence; the prosecution's without defendant_id is as to every
		// defendant sentenced so far and not yet notified.
		sentenced, kind, decided, what, err := s.noticeTracks(ctx, c, party, in.DefendantID)
		if err != nil {
			return err
		}
		var d *cases.Defendant
		if party != PartyProsecution || in.DefendantID != 0 {
			d = &sentenced[0]
			if err := s.PendingEmbargos(ctx, c, *d); err != nil {
				return err
			}
			// The Defensoria Pública's windows are doubled (LC 80/1994,
			// art. 128, I; CPC art. 186): read from the representation
			// record when the defendant has one.
			if party == PartyDefence && !in.PublicDefender {
				if in.PublicDefender, err = s.DefensoriaRepresents(ctx, d.ID, s.Now()); err != nil {
					return err
				}
			}
		} else if sentenced, err = s.withoutPendingEmbargos(ctx, c, sentenced); err != nil {
			return err
		}
		var f errs.Fields
		var on civil.Date
		today := civil.Today(s.Now(), s.Loc)
		var counsel string
		if in.Electronic {
			if counsel, on, err = s.electronicInput(ctx, c, d, party, in, today); err != nil {
				return err
			}
		} else if in.NotifiedOn == "" {
			f.Add("notified_on", "required", "informe o dia da ciência (AAAA-MM-DD).")
		} else if day, ok := cases.ParseDate(&f, "notified_on", in.NotifiedOn); ok {
			switch {
			case day.After(today):
				f.Add("notified_on", "not_future", "a ciência não pode estar no futuro.")
			case day.Before(civil.Today(c.FiledAt, s.Loc)):
				f.Add("notified_on", "after_filing", "a ciência não pode ser anterior à autuação.")
			case day.Before(decided):
				f.Add("notified_on", "after_decision", fmt.Sprintf("a ciência não pode ser anterior à decisão de que dá ciência (%s, de %s).", strings.TrimPrefix(what, "da "), decided.BR()))
			default:
				on = day
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		uid := actor.UserID
		// The window, counted before any row is written: it depends on the
		// party, the day and the doublings, not on the defendant, and its
		// errors (public_defender, recess_exception) are the input's.
		nt := Notification{CaseID: c.ID, Party: party, WaivedAppeal: in.WaivedAppeal, Kind: kind, NotifiedOn: on,
			PublicDefender: in.PublicDefender, RecessException: in.RecessException}
		cal, k, err := s.courtOf(ctx, c.CourtCode)
		if err != nil {
			return err
		}
		pin := periodInput(c.Flow, nt, k)
		pin.Court = cal.all()
		p, err := sanctions.CountPeriod(pin)
		if err != nil {
			return err
		}
		nt = Notification{}
		for i := range sentenced {
			did := &sentenced[i].ID
			if c.Flow == cases.FlowCivil && party == PartyProsecution {
				did = nil // a group case's prosecution notice is one
			}
			if d != nil && sentenced[i].ID != d.ID {
				continue
			}
			q := tx.Model(&Notification{}).Where("case_id = ? AND party = ? AND kind = ? AND NOT superseded", c.ID, party, kind)
			if did != nil {
				q = q.Where("defendant_id = ? OR (defendant_id IS NULL AND party = 'prosecution')", *did)
			}
			var n int64
			if err := q.Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				if d != nil || len(sentenced) == 1 || did == nil {
					return errs.New(errs.Conflict, fmt.Sprintf("A ciência desta parte (%s) já foi registrada.", PartyPT[party]))
				}
				continue
			}
			row := Notification{CaseID: c.ID, DefendantID: did, Party: party, WaivedAppeal: in.WaivedAppeal, Kind: kind, NotifiedOn: on, CreatedAt: s.Now(), CreatedBy: &uid,
				PublicDefender: in.PublicDefender, RecessException: in.RecessException, Electronic: in.Electronic}
			if in.Electronic {
				row.AvailableOn = &today
			}
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
			if nt.ID == 0 {
				nt = row
			}
			if did == nil {
				break
			}
		}
		if nt.ID == 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("A ciência desta parte (%s) já foi registrada quanto a todos os réus sentenciados.", PartyPT[party]))
		}
		cal.resolve(&nt, today)
		v := deadlineView(nt, p, nil, today)
		mk, text := noticeMovement(party, d, what, on, today, p, in, counsel)
		if err := s.Move(ctx, c, &actor, s.Now(), mk, text); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		out = &v
		return nil
	})
	return out, err
}

// noticeMovement is the docket movement of party's notice (as to defendant
// d; nil: the prosecution's as to every defendant) of the decision what,
// made on on (an electronic one: made available today to counsel) with
// the window p: a notice (with or without the waiver of the appeal) or an
// electronic notice made available (Lei 11.419/2006, art. 5º).
func noticeMovement(party string, d *cases.Defendant, what string, on, today civil.Date, p sanctions.Period, in NotificationInput, counsel string) (cases.MovementKind, string) {
	who := partyArticlePT[party]
	if d != nil && party == PartyProsecution {
		who += " quanto a " + cases.NameOf(*d)
	} else if d != nil {
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
	// "pelo Ministério Público", "pela defesa de Ana", "por Ana".
	by := sanctions.PorPT(who)
	switch {
	case in.Electronic:
		return cases.MoveNoticeAvailable, fmt.Sprintf("Intimação eletrônica %s disponibilizada em %s a %s (%s): considera-se feita no dia em que for aberta, ou em %s se não o for em 10 dias corridos (Lei 11.419/2006, art. 5º, §§ 1º a 3º).", what, today.BR(), who, counsel, on.BR())
	case in.WaivedAppeal:
		return cases.MoveNotice, fmt.Sprintf("Ciência %s %s em %s, com renúncia expressa ao prazo de recurso.", what, by, on.BR())
	}
	return cases.MoveNotice, fmt.Sprintf("Ciência %s %s em %s; %s.", what, by, on.BR(), p.Text())
}

// FinalityMissing lists, in Portuguese, what keeps the decision as to the
// defendants defs of case c (none: every defendant) from becoming final
// (Lei 9.099/1995, art. 82, § 1º; DOMAIN.md §4: the trânsito em julgado is
// per defendant): each defendant, his defence (criminal cases) and the
// prosecution as to him (its notice naming him, or one as to every
// defendant) must be notified, and each window must have ended or been
// waived. When nothing is missing, day is the day the judgment became
// final: the day after the last window ended, or the day of the last
// waiver.
func (s *Service) FinalityMissing(ctx context.Context, c *cases.Case, defs ...cases.Defendant) (missing []string, day civil.Date, err error) {
	return s.finalityMissing(ctx, c, NoticeAppeal, defs)
}

// JudgmentFinalityMissing lists, in Portuguese, what keeps the Turma
// Recursal's judgment as to the defendants defs of case c (none: every
// defendant) from becoming final when embargos de declaração against it
// were ruled: the window against the judgment runs again, in full, from
// each party's notice of the ruling (Lei 9.099/1995, art. 83, § 2º; CPC
// art. 1.026; the recurso extraordinário's, CF art. 102, III, and CPC art.
// 1.003, § 5º: 15 running days in the JECRIM, working days in a group
// case), so each party must be notified of it (NoticeExtraordinary) and
// each window have ended or been waived; day as FinalityMissing. counted
// is false when no such embargos were ruled as to defs (the clerk then
// certifies the day the judgment became final).
func (s *Service) JudgmentFinalityMissing(ctx context.Context, c *cases.Case, defs ...cases.Defendant) (missing []string, day civil.Date, counted bool, err error) {
	if len(defs) == 0 {
		if err := db.Conn(ctx, s.DB).Where("case_id = ?", c.ID).Order("position, id").Find(&defs).Error; err != nil {
			return nil, day, false, err
		}
	}
	var ruled []cases.Defendant
	for _, d := range defs {
		r, err := s.lastRuling(ctx, c, d)
		if err != nil {
			return nil, day, false, err
		}
		if r != nil && r.Against == AgainstAppealResult {
			ruled = append(ruled, d)
		}
	}
	if len(ruled) == 0 {
		return nil, day, false, nil
	}
	missing, day, err = s.finalityMissing(ctx, c, NoticeExtraordinary, ruled)
	return missing, day, true, err
}

// finalityMissing is FinalityMissing for the windows the notices of kind
// open.
func (s *Service) finalityMissing(ctx context.Context, c *cases.Case, kind string, defs []cases.Defendant) (missing []string, day civil.Date, err error) {
	ds, err := s.Deadlines(ctx, c)
	if err != nil {
		return nil, day, err
	}
	if len(defs) == 0 {
		if err := db.Conn(ctx, s.DB).Where("case_id = ?", c.ID).Order("position, id").Find(&defs).Error; err != nil {
			return nil, day, err
		}
	}
	today := civil.Today(s.Now(), s.Loc)
	several := len(defs) > 1
	for i, d := range defs {
		// Embargos de declaração interrupt his windows (Lei 9.099/1995,
		// art. 83, § 2º): pending, nothing is final; ruled, every window
		// runs again from the notice of the ruling.
		pending, ruled, err := s.EmbargosMissing(ctx, c, d)
		if err != nil {
			return nil, day, err
		}
		missing = append(missing, pending...)
		m, closes := noticesMissing(c, kind, ds, d, i == 0, several)
		missing = append(missing, m...)
		if day.Before(closes) {
			day = closes
		}
		if len(pending) == 0 && !ruled.IsZero() && len(m) > 0 {
			missing = append(missing, fmt.Sprintf("quanto a %s, os prazos de recurso correm de novo, por inteiro, da intimação de cada parte da decisão dos embargos de declaração de %s (%s)", cases.NameOf(d), ruled.BR(), lawOf(c).Interrupt))
		}
	}
	if day.After(today) {
		day = today
	}
	return missing, day, nil
}

// noticesMissing lists, in Portuguese, the notices of kind as to
// defendant d of case c that keep his judgment from becoming final, given
// the case's deadlines ds (Lei 9.099/1995, art. 82, § 1º): his own, his
// defence's (criminal cases; in group cases when recorded) and the
// prosecution's as to him or as to every defendant (named when several
// defendants are checked together; checked once, for the first, in a
// group case), each missing or still running. closes is the day the last
// of his closed windows closed.
func noticesMissing(c *cases.Case, kind string, ds []DeadlineView, d cases.Defendant, first, several bool) (missing []string, closes civil.Date) {
	find := func(party string, id *int64) *DeadlineView {
		for i := range ds {
			if ds[i].Kind == kind && ds[i].Party == party && ((id == nil && ds[i].DefendantID == nil) || (id != nil && ds[i].DefendantID != nil && *ds[i].DefendantID == *id)) {
				return &ds[i]
			}
		}
		return nil
	}
	check := func(what string, w *DeadlineView) {
		switch {
		case w == nil:
			missing = append(missing, "falta a intimação "+what)
		case w.Pending:
			missing = append(missing, fmt.Sprintf("a intimação eletrônica %s, disponibilizada em %s, não foi aberta: conta-se feita em %s se não o for (Lei 11.419/2006, art. 5º, § 3º)", what, w.AvailableOn.BR(), w.CountsOn.BR()))
		case w.Open:
			missing = append(missing, fmt.Sprintf("o prazo de recurso %s corre até %s", what, w.LastDay.BR()))
		case closes.Before(w.Closes):
			closes = w.Closes
		}
	}
	id := d.ID
	name := cases.NameOf(d)
	w := find(PartyProsecution, &id)
	if w == nil {
		w = find(PartyProsecution, nil)
	}
	switch {
	case c.Flow == cases.FlowCriminal && several:
		check("do Ministério Público quanto a "+name, w)
	case first:
		check("do Ministério Público", w)
	}
	check("de "+name, find(PartyDefendant, &id))
	if c.Flow == cases.FlowCriminal {
		check("da defesa de "+name, find(PartyDefence, &id))
	} else if w := find(PartyDefence, &id); w != nil {
		check("da defesa de "+name, w)
	}
	return missing, closes
}
