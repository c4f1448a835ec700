package cases

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// Hearing kinds: the preliminary hearing (Lei 9.099/1995, art. 72), the
// instruction and judgment hearing (art. 81), and the conciliation of the
// civil flow of group cases.
var HearingKinds = map[string][]string{
	FlowCriminal: {"preliminary", "instruction"},
	FlowCivil:    {"conciliation"},
}

// HearingKindPT names each hearing kind in Portuguese, for the docket,
// pages and documents (one spelling everywhere).
var HearingKindPT = map[string]string{"preliminary": "audiência preliminar", "instruction": "audiência de instrução e julgamento", "conciliation": "audiência de conciliação"}

// Hearing is a scheduled hearing of a case, before the case's judge, in a
// room of the court.
type Hearing struct {
	ID        int64
	CaseID    int64
	CourtCode string
	JudgeID   int64
	Kind      string
	Room      string
	StartsAt  time.Time
	EndsAt    time.Time
	Status    string
	CreatedAt time.Time
	CreatedBy *int64
	// RecessException is the exception of CPP art. 798-A, I to III, under
	// which a criminal hearing is held in the recess ("" none).
	RecessException string
	// Reason is why it was redesignated or cancelled; ResultText the
	// record of a hearing held or not held, Absent the parties absent
	// ("prosecution", "defendant:ID", "defence:ID"); RedesignatedFrom the
	// hearing this one replaces; ClosedAt and ClosedBy when and by whom it
	// left the status scheduled (redesignated, cancelled, held, not_held).
	Reason           string
	ResultText       string
	Absent           StringList
	RedesignatedFrom *int64
	ClosedAt         *time.Time
	ClosedBy         *int64
}

// HearingView is a hearing as the API shows it.
type HearingView struct {
	ID         int64     `json:"id"`
	CaseID     int64     `json:"case_id"`
	CaseNumber string    `json:"case_number"`
	Kind       string    `json:"kind"`
	Room       string    `json:"room"`
	StartsAt   time.Time `json:"starts_at"`
	EndsAt     time.Time `json:"ends_at"`
	Status     string    `json:"status"`
	Judge      JudgeView `json:"judge"`
	// Parties are the case's defendants by name, in their order.
	Parties []string `json:"parties"`
	// Reason, ResultText, Absent and RedesignatedFrom as on Hearing.
	Reason           string   `json:"reason,omitempty"`
	ResultText       string   `json:"result_text,omitempty"`
	Absent           []string `json:"absent,omitempty"`
	RedesignatedFrom *int64   `json:"redesignated_from,omitempty"`
}

// HearingInput is the body of POST /api/v1/cases/{id}/hearings; ends_at
// defaults to an hour after starts_at; recess_exception (custody,
// maria_da_penha, urgent: CPP art. 798-A, I to III) lets a criminal
// hearing be held from 20 December to 20 January.
type HearingInput struct {
	Kind            string `json:"kind"`
	StartsAt        string `json:"starts_at"`
	EndsAt          string `json:"ends_at"`
	Room            string `json:"room"`
	RecessException string `json:"recess_exception"`
}

// CourtCalendar gives a court's own calendar (Carnival, Corpus Christi,
// local holidays; the national holidays are built into sanctions):
// cases/calendar.Service, which owns it, implements it.
type CourtCalendar interface {
	CourtHolidays(ctx context.Context, court string) (sanctions.Holidays, error)
}

// checkHearingDay says why a hearing of case c may not start at start, as
// errs.Invalid naming starts_at (or recess_exception): on a day without
// court business — a weekend, a national holiday or one of the court's
// calendar (CPP art. 792; sanctions.NoCourtBusiness) —, in the recess of
// 20 December to 20 January without an exception (CPP art. 798-A,
// parágrafo único, applied by Lei 9.099/1995, art. 92; CPC art. 220, § 2º,
// in group cases), or after the final judgment (finalJudgment). note is
// what the docket adds when an exception admits a hearing in the recess.
// Without s.Days only the national holidays count.
func (s *Service) checkHearingDay(ctx context.Context, c *Case, start time.Time, exc string) (note string, err error) {
	var court sanctions.Holidays
	if s.Days != nil {
		var err error
		if court, err = s.Days.CourtHolidays(ctx, c.CourtCode); err != nil {
			return "", err
		}
	}
	day := civil.Today(start, s.Loc)
	ok, why, err := sanctions.MayHoldHearing(sanctions.HearingQuery{Day: day, Court: court, Civil: c.Flow == FlowCivil, Exception: sanctions.RecessException(exc)})
	if err != nil {
		return "", err
	}
	if !ok {
		rule := "court_day"
		if !strings.HasPrefix(why, "dia sem expediente") {
			rule = "recess"
		}
		return "", errs.InvalidField("starts_at", rule, fmt.Sprintf("audiência em %s: %s.", day.BR(), why))
	}
	final, err := s.finalJudgment(ctx, c)
	if err != nil {
		return "", err
	}
	if final {
		return "", errs.InvalidField("starts_at", "after_final", "a sentença já transitou em julgado (TPU 848): não cabe audiência depois da coisa julgada (CF, art. 5º, XXXVI).")
	}
	return why, nil
}

// finalJudgment reports whether the judgment of case c is final for every
// defendant a hearing could concern: in a criminal case each defendant has
// his own track (DOMAIN.md §4) and the case's status is their summary
// (Summary: the least advanced open track), so the case is final only when
// every open track is final or executing, and a co-defendant's final
// judgment does not bar the hearing of another; a group (civil) case, one
// status, is final when final or executing or when its docket records the
// trânsito em julgado (TPU 848).
func (s *Service) finalJudgment(ctx context.Context, c *Case) (bool, error) {
	if c.Status == StatusFinal || c.Status == StatusExecuting {
		return true, nil
	}
	if c.Flow != FlowCivil {
		return false, nil
	}
	var n int64
	err := db.Conn(ctx, s.DB).Raw("SELECT count(*) FROM movements WHERE case_id = ? AND tpu_code = ?", c.ID, TPUOf(MoveFinalJudgment)).Scan(&n).Error
	return n > 0, err
}

// maxHearing bounds a hearing's length.
const maxHearing = 12 * time.Hour

// ScheduleHearing schedules a hearing of the case before its judge. A
// hearing that overlaps another of the same judge or in the same room of
// the court is errs.Conflict (exclusion constraints of migration 00007
// guard against concurrent schedules).
func (s *Service) ScheduleHearing(ctx context.Context, actor actor.Actor, caseID int64, in HearingInput) (*HearingView, error) {
	var out *HearingView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		if c.JudgeID == nil {
			return errs.New(errs.Conflict, "O processo ainda não foi distribuído a um(a) juiz(a): distribua-o antes de designar audiência.")
		}
		if c.Status == StatusArchived {
			return errs.New(errs.Conflict, "O processo está arquivado.")
		}
		var f errs.Fields
		kinds := HearingKinds[c.Flow]
		if !Contains(kinds, in.Kind) {
			f.Add("kind", "oneof", fmt.Sprintf("no rito %s a audiência é: %s.", flowPT(c.Flow), strings.Join(kinds, ", ")))
		}
		room := Clean(in.Room)
		if room == "" {
			f.Add("room", "required", "informe a sala.")
		}
		CheckText(&f, "room", in.Room, MaxName, false)
		now := s.Now()
		start, end := s.hearingTimes(&f, in.StartsAt, in.EndsAt, time.Hour)
		if err := f.Err(); err != nil {
			return err
		}
		note, err := s.checkHearingDay(ctx, c, start, in.RecessException)
		if err != nil {
			return err
		}
		uid := actor.UserID
		h := Hearing{CaseID: c.ID, CourtCode: c.CourtCode, JudgeID: *c.JudgeID, Kind: in.Kind, Room: room,
			StartsAt: start, EndsAt: end, Status: "scheduled", CreatedAt: now, CreatedBy: &uid, RecessException: in.RecessException}
		if err := s.book(ctx, &h); err != nil {
			return err
		}
		text := withNote(fmt.Sprintf("Designada %s para %s, na sala %s.", HearingKindPT[h.Kind], s.when(&h), room), note)
		if err := s.hearingMove(ctx, actor, c, &h, MoveHearingScheduled, "designada", text); err != nil {
			return err
		}
		out, err = s.viewOf(ctx, h)
		return err
	})
	return out, err
}

// hearingTimes reads a hearing's start and end (RFC 3339) into f's
// errors: the start required, in the future and at most 5 years on; the
// end after the start and at most maxHearing later, length after the start
// when empty.
func (s *Service) hearingTimes(f *errs.Fields, startsAt, endsAt string, length time.Duration) (start, end time.Time) {
	now := s.Now()
	if startsAt == "" {
		f.Add("starts_at", "required", "informe o início (RFC 3339).")
	} else if t, err := time.Parse(time.RFC3339, startsAt); err != nil {
		f.Add("starts_at", "rfc3339", "instante inválido: use o formato 2025-07-01T14:00:00-03:00.")
	} else if t.Before(now) {
		f.Add("starts_at", "future", "a audiência deve ser designada para o futuro.")
	} else if t.After(now.AddDate(5, 0, 0)) {
		f.Add("starts_at", "max", "a audiência não pode ser designada para mais de 5 anos adiante.")
	} else {
		start, end = t, t.Add(length)
	}
	if endsAt != "" {
		if t, err := time.Parse(time.RFC3339, endsAt); err != nil {
			f.Add("ends_at", "rfc3339", "instante inválido: use o formato 2025-07-01T15:00:00-03:00.")
		} else if !start.IsZero() && !t.After(start) {
			f.Add("ends_at", "after_start", "o término deve ser posterior ao início.")
		} else if !start.IsZero() && t.Sub(start) > maxHearing {
			f.Add("ends_at", "max", "uma audiência dura no máximo 12 horas.")
		} else {
			end = t
		}
	}
	return start, end
}

// oneOpen is errs.Invalid on kind when case caseID already has a hearing of
// kind scheduled (one preliminary hearing, one instruction hearing: Lei
// 9.099/1995, arts. 72 and 81; hearings name no defendant, so the case's
// defendants share it): it is redesignated or cancelled, not doubled.
func (s *Service) oneOpen(ctx context.Context, caseID int64, kind string) error {
	var open []Hearing
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND kind = ? AND status = 'scheduled'", caseID, kind).Limit(1).Find(&open).Error; err != nil {
		return err
	}
	if len(open) == 0 {
		return nil
	}
	return oneOpenError(kind, civil.Today(open[0].StartsAt, s.Loc))
}

func oneOpenError(kind string, day civil.Date) error {
	what := "na mesma data"
	if !day.IsZero() {
		what = "para " + day.BR()
	}
	return errs.InvalidField("kind", "one_open", fmt.Sprintf("o processo já tem %s designada %s: redesigne-a ou cancele-a em vez de designar outra.", HearingKindPT[kind], what))
}

// book writes hearing h (scheduled) after checking that neither its judge
// nor its room is taken then (errs.Conflict, naming the clash), then that
// its case has no other open hearing of its kind (oneOpen); the exclusion
// constraints and the index hearings_one_open_kind of the migrations stay
// the guards against concurrent writes.
func (s *Service) book(ctx context.Context, h *Hearing) error {
	tx := db.Conn(ctx, s.DB)
	var clash struct {
		ID       int64
		JudgeID  int64
		Room     string
		StartsAt time.Time
		EndsAt   time.Time
	}
	if err := tx.Raw(`SELECT id, judge_id, room, starts_at, ends_at FROM hearings WHERE status = 'scheduled'
		AND tstzrange(starts_at, ends_at) && tstzrange(?, ?) AND (judge_id = ? OR (court_code = ? AND lower(room) = lower(?)))
		ORDER BY starts_at LIMIT 1`, h.StartsAt, h.EndsAt, h.JudgeID, h.CourtCode, h.Room).Scan(&clash).Error; err != nil {
		return err
	}
	if clash.ID != 0 {
		return hearingConflict(clash.JudgeID == h.JudgeID, clash.Room, clash.StartsAt.In(s.Loc), clash.EndsAt.In(s.Loc))
	}
	if err := s.oneOpen(ctx, h.CaseID, h.Kind); err != nil {
		return err
	}
	if err := tx.Create(h).Error; err != nil {
		var pg *pgconn.PgError
		if errors.As(err, &pg) && pg.Code == "23P01" {
			return hearingConflict(pg.ConstraintName == "hearings_judge_free", h.Room, h.StartsAt.In(s.Loc), h.EndsAt.In(s.Loc))
		}
		if db.IsUniqueViolation(err, "hearings_one_open_kind") {
			return oneOpenError(h.Kind, civil.Date{})
		}
		return err
	}
	return nil
}

func hearingConflict(sameJudge bool, room string, start, end time.Time) error {
	when := fmt.Sprintf("%s, das %s às %s", civil.Of(start).BR(), start.Format("15:04"), end.Format("15:04"))
	if sameJudge {
		return errs.New(errs.Conflict, "Conflito de agenda: o(a) juiz(a) do processo já tem audiência em "+when+".")
	}
	return errs.New(errs.Conflict, fmt.Sprintf("Conflito de agenda: a sala %s já está ocupada em %s.", room, when))
}

// HearingViews returns the views of hs, with their judges' names and
// their cases' parties (the defendants by name).
func (s *Service) HearingViews(ctx context.Context, hs []Hearing) ([]HearingView, error) {
	out := make([]HearingView, 0, len(hs))
	if len(hs) == 0 {
		return out, nil
	}
	var rows []struct {
		CaseID  int64
		Number  string
		JudgeID int64
	}
	ids := make([]int64, len(hs))
	for i, h := range hs {
		ids[i] = h.ID
	}
	if err := db.Conn(ctx, s.DB).Raw(`SELECT h.case_id, k.number, h.judge_id FROM hearings h
		JOIN cases k ON k.id = h.case_id WHERE h.id IN ?`, ids).Scan(&rows).Error; err != nil {
		return nil, err
	}
	numbers, judgeIDs := map[int64]string{}, []int64{}
	for _, r := range rows {
		numbers[r.CaseID] = r.Number
		judgeIDs = append(judgeIDs, r.JudgeID)
	}
	judges, err := accounts.UserNames(ctx, s.DB, judgeIDs)
	if err != nil {
		return nil, err
	}
	caseIDs := make([]int64, 0, len(numbers))
	for id := range numbers {
		caseIDs = append(caseIDs, id)
	}
	parties, err := s.PartiesOf(ctx, caseIDs)
	if err != nil {
		return nil, err
	}
	for _, h := range hs {
		out = append(out, HearingView{ID: h.ID, CaseID: h.CaseID, CaseNumber: FormatNumber(numbers[h.CaseID]), Kind: h.Kind, Room: h.Room,
			StartsAt: h.StartsAt, EndsAt: h.EndsAt, Status: h.Status, Judge: JudgeView{ID: h.JudgeID, Name: judges[h.JudgeID]},
			Parties: parties[h.CaseID], Reason: h.Reason, ResultText: h.ResultText, Absent: h.Absent, RedesignatedFrom: h.RedesignatedFrom})
	}
	return out, nil
}

// Calendar lists the hearings of the actor's court that start from the
// first day to the last (YYYY-MM-DD, the court's time zone; default today
// and 30 days on; at most 366 days), in time order.
func (s *Service) Calendar(ctx context.Context, actor actor.Actor, from, to string) ([]HearingView, error) {
	var f errs.Fields
	first := civil.Today(s.Now(), s.Loc)
	last := first.AddDays(30)
	if from != "" {
		if d, ok := ParseDate(&f, "from", from); ok {
			first = d
			if to == "" {
				last = d.AddDays(30)
			}
		}
	}
	if to != "" {
		if d, ok := ParseDate(&f, "to", to); ok {
			last = d
		}
	}
	if len(f) == 0 {
		if last.Before(first) {
			f.Add("to", "after_from", "o fim do período não pode ser anterior ao início.")
		} else if first.AddDays(366).Before(last) {
			f.Add("to", "max_range", "o período tem no máximo 366 dias.")
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var hs []Hearing
	if err := db.Conn(ctx, s.DB).Where("court_code = ? AND status = 'scheduled' AND starts_at >= ? AND starts_at < ?",
		actor.Court, first.Start(s.Loc), last.AddDays(1).Start(s.Loc)).Order("starts_at, id").Find(&hs).Error; err != nil {
		return nil, err
	}
	return s.HearingViews(ctx, hs)
}

// PartiesOf returns the defendants of the cases caseIDs by name (the
// person's, or the group's), in their order, by case id: the parties a
// hearing's agenda and the desk show.
func (s *Core) PartiesOf(ctx context.Context, caseIDs []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(caseIDs) == 0 {
		return out, nil
	}
	var ps []struct {
		CaseID int64
		Name   string
	}
	if err := db.Conn(ctx, s.DB).Raw(`SELECT case_id, coalesce(nullif(full_name, ''), group_name) AS name FROM defendants
		WHERE case_id IN ? ORDER BY case_id, position, id`, caseIDs).Scan(&ps).Error; err != nil {
		return nil, err
	}
	for _, p := range ps {
		out[p.CaseID] = append(out[p.CaseID], p.Name)
	}
	return out, nil
}
