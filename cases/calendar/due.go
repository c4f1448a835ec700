package calendar

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// DueWindow is a party's appeal window still running whose last day falls
// in the span the court's desk asked (WindowsEnding): the case (CaseID,
// its 20-digit Number), the defendant it concerns (DefendantID and Name;
// nil and "" for the prosecution's notice as to every defendant), the
// party (PartyDefendant, PartyDefence, PartyProsecution), the kind of
// notice (NoticeAppeal, NoticeExtraordinary) and the window's LastDay,
// counted by the same sanctions.CountPeriod as the case page (Lei
// 9.099/1995, art. 82, § 1º; CPP art. 798; CPC art. 219 in group cases).
type DueWindow struct {
	CaseID      int64
	Number      string
	DefendantID *int64
	Name        string
	Party       string
	Kind        string
	LastDay     civil.Date
}

// MaxWindowSpan bounds, in running days, how far before its last day a
// window can have been opened: the longest window (a civil window in
// working days, doubled for the Defensoria, CPC arts. 186 and 219) across
// the suspension of 20 December to 20 January (CPC art. 220) and the
// holidays stays well under it. holidayMoves uses the same bound.
const MaxWindowSpan = 120

// WorkingDaysAfter returns the n-th day with court business after day in
// court's calendar (weekends, national holidays and the court's own,
// sanctions.NoCourtBusiness): the desk's "next 5 working days".
func (s *Service) WorkingDaysAfter(ctx context.Context, court string, day civil.Date, n int) (civil.Date, error) {
	h, err := s.CourtHolidays(ctx, court)
	if err != nil {
		return day, err
	}
	for n > 0 {
		day = day.AddDays(1)
		if _, off := sanctions.NoCourtBusiness(day, h); !off {
			n--
		}
	}
	return day, nil
}

// WindowsEnding lists the windows of court's cases whose last day is from
// first to last (inclusive), earliest first, then by case number: only
// notices recorded in the last MaxWindowSpan days before last, neither
// superseded nor waived, of a defendant whose track has not become final
// nor ended and with no embargos de declaração pending as to him (they
// interrupt his windows: Lei 9.099/1995, art. 83, § 2º). The candidates are
// one set-based query over the recent notices (index
// notifications_recent); each is then counted with the court's calendar as
// Deadlines counts it (periodOf: a holiday added later moves it).
func (s *Service) WindowsEnding(ctx context.Context, court string, first, last civil.Date) ([]DueWindow, error) {
	var rows []struct {
		Notification
		Flow   string
		Number string
		Name   string
	}
	// The lookups of the case and the defendant are laterals the planner
	// keeps (OFFSET 0): one index probe per recent notice, never a scan of
	// the court's cases.
	err := db.Conn(ctx, s.DB).Raw(`SELECT n.*, k.flow, k.number, coalesce(nullif(d.full_name, ''), d.group_name, '') AS name
		FROM notifications n
		CROSS JOIN LATERAL (SELECT flow, number, status FROM cases WHERE id = n.case_id AND court_code = ? OFFSET 0) k
		LEFT JOIN LATERAL (SELECT id, full_name, group_name, status, final_on FROM defendants WHERE id = n.defendant_id OFFSET 0) d ON true
		WHERE n.notified_on BETWEEN ? AND ? AND NOT n.superseded AND NOT n.waived_appeal
		  AND k.status NOT IN ('final', 'executing', 'archived')
		  AND (d.id IS NULL OR (d.final_on IS NULL AND coalesce(d.status, k.status) NOT IN ('final', 'executing', 'archived', 'rejected', 'extinct')))
		  AND NOT EXISTS (SELECT 1 FROM embargos e WHERE e.case_id = n.case_id AND e.status = 'pending' AND NOT e.late
		                  AND (n.defendant_id IS NULL OR e.defendant_id = n.defendant_id))
		ORDER BY n.case_id, n.id`, court, last.AddDays(-MaxWindowSpan), last).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	cal, k, err := s.courtOf(ctx, court)
	if err != nil {
		return nil, err
	}
	lastDay := s.lastDayOf(court, cal, k)
	defer lastDay(nil)
	var out []DueWindow
	for _, r := range rows {
		n := r.Notification
		n.Flow = r.Flow
		day, err := lastDay(&n)
		if err != nil {
			return nil, err
		}
		if day.Before(first) || day.After(last) {
			continue
		}
		party := r.Party
		if party == "" {
			party = PartyDefendant
		}
		out = append(out, DueWindow{CaseID: r.CaseID, Number: r.Number, DefendantID: r.DefendantID, Name: r.Name,
			Party: party, Kind: r.Kind, LastDay: day})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].LastDay != out[j].LastDay {
			return out[i].LastDay.Before(out[j].LastDay)
		}
		return out[i].Number < out[j].Number
	})
	return out, nil
}

// windowKey is everything the last day of a window depends on: the
// notice as counted (periodInput's fields but the court's calendar), the
// instant it was recorded (periodOf: the holidays known then and those
// added later) and the court's calendar, by its fingerprint.
type windowKey struct {
	kind, party, exception string
	notifiedOn             civil.Date
	publicDefender, noDbl  bool
	recorded               int64
	calendar               string
}

// lastDayOf returns a counter of the last day of a window of court with
// the calendar cal and the court's settings k (periodOf), which remembers
// each last day it counted: the desk reads the same windows again and
// again, and sanctions.CountPeriod is the cost of its queues. The key
// holds every input, so a new holiday or setting counts anew; the calling
// with nil ends the pass and keeps only the windows this pass counted.
func (s *Service) lastDayOf(court string, cal courtCalendar, k *cases.Court) func(n *Notification) (civil.Date, error) {
	fp := fmt.Sprint(len(cal))
	if len(cal) > 0 {
		fp += cal[len(cal)-1].CreatedAt.String()
	}
	s.mu.Lock()
	old := s.lastDays[court]
	s.mu.Unlock()
	used := map[windowKey]civil.Date{}
	return func(n *Notification) (civil.Date, error) {
		if n == nil {
			s.mu.Lock()
			if s.lastDays == nil {
				s.lastDays = map[string]map[windowKey]civil.Date{}
			}
			for key, day := range old { // another pass's windows, still of this calendar
				if _, ok := used[key]; !ok && key.calendar == fp && len(used) < maxRemembered {
					used[key] = day
				}
			}
			s.lastDays[court] = used
			s.mu.Unlock()
			return civil.Date{}, nil
		}
		in := periodInput(n.Flow, *n, k)
		key := windowKey{kind: in.Kind, party: string(in.Party), exception: string(in.Exception), notifiedOn: in.NotifiedOn,
			publicDefender: in.PublicDefender, noDbl: in.NoJECRIMDefensoriaDoubling, recorded: n.CreatedAt.UnixNano(), calendar: fp}
		if day, ok := used[key]; ok {
			return day, nil
		}
		day, ok := old[key]
		if !ok {
			p, _, err := cal.periodOf(in, n.CreatedAt, s.Loc)
			if err != nil {
				return day, err
			}
			day = p.LastDay
		}
		used[key] = day
		return day, nil
	}
}

// maxRemembered bounds the windows lastDayOf keeps for a court.
const maxRemembered = 1 << 18

// FinalCandidate is a defendant of a case (its ID, Flow and CourtCode at
// least) whose judgment may have become final: ReadyFinal tells.
type FinalCandidate struct {
	Case      cases.Case
	Defendant cases.Defendant
}

// ReadyFinal returns, for each candidate of court, the day his judgment
// became final (as FinalityMissing gives it) or nil while something is
// missing. The notices of every candidate's case are read in one query and
// counted with one calendar (noticesMissing, the rule FinalityMissing
// applies: each notice recorded, each window ended or waived); a candidate
// with embargos de declaração as to him goes through FinalityMissing
// itself (the embargos interrupt and reopen his windows: Lei 9.099/1995,
// art. 83, § 2º).
func (s *Service) ReadyFinal(ctx context.Context, court string, cands []FinalCandidate) ([]*civil.Date, error) {
	out := make([]*civil.Date, len(cands))
	if len(cands) == 0 {
		return out, nil
	}
	ids := make([]int64, 0, len(cands))
	for _, c := range cands {
		ids = append(ids, c.Case.ID)
	}
	var ns []Notification
	if err := db.Conn(ctx, s.DB).Where("case_id IN ? AND NOT superseded", ids).Order("case_id, id").Find(&ns).Error; err != nil {
		return nil, err
	}
	var withEmbargos []int64
	if err := db.Conn(ctx, s.DB).Raw("SELECT DISTINCT defendant_id FROM embargos WHERE case_id IN ? AND NOT late AND defendant_id IS NOT NULL", ids).
		Scan(&withEmbargos).Error; err != nil {
		return nil, err
	}
	cal, k, err := s.courtOf(ctx, court)
	if err != nil {
		return nil, err
	}
	byCase := map[int64][]Notification{}
	for _, n := range ns {
		byCase[n.CaseID] = append(byCase[n.CaseID], n)
	}
	views := map[int64][]DeadlineView{}
	today := civil.Today(s.Now(), s.Loc)
	lastDay := s.lastDayOf(court, cal, k)
	defer lastDay(nil)
	for i, cd := range cands {
		var missing []string
		var day civil.Date
		if slices.Contains(withEmbargos, cd.Defendant.ID) {
			if missing, day, err = s.FinalityMissing(ctx, &cd.Case, cd.Defendant); err != nil {
				return nil, err
			}
		} else {
			ds, ok := views[cd.Case.ID]
			if !ok {
				for _, n := range byCase[cd.Case.ID] {
					n.Flow = cd.Case.Flow
					day, err := lastDay(&n)
					if err != nil {
						return nil, err
					}
					ds = append(ds, deadlineView(n, sanctions.Period{NotifiedOn: n.NotifiedOn, LastDay: day}, nil, today))
				}
				views[cd.Case.ID] = ds
			}
			missing, day = noticesMissing(&cd.Case, NoticeAppeal, ds, cd.Defendant, true, false)
			if day.After(today) {
				day = today
			}
		}
		if len(missing) == 0 {
			out[i] = &day
		}
	}
	return out, nil
}
