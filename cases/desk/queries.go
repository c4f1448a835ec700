package desk

import (
	"context"
	"fmt"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
)

// row is one item as the queries read it, with total, the full count of
// the query (count(*) OVER ()).
type row struct {
	CaseID        int64
	Number        string
	DueOn         *civil.Date
	DefendantID   *int64
	Name          string
	HearingID     *int64
	HearingKind   string
	At            *time.Time
	Room          string
	BanID         *int64
	NoDefendant   bool
	NoDefence     bool
	NoProsecution bool
	Total         int
}

// judgeCond narrows a query on cases k to the judge's own cases.
func judgeCond(sc Scope) (string, []any) {
	if sc.JudgeID == nil {
		return "", nil
	}
	return " AND k.judge_id = ?", []any{*sc.JudgeID}
}

// read runs query (its "%s" is the judge's condition) with args before the
// judge's and the Limit after, into a Queue.
func (s *Service) read(ctx context.Context, sc Scope, query string, args ...any) (Queue, []row, error) {
	cond, jargs := judgeCond(sc)
	args = append(append(args, jargs...), Limit)
	var rows []row
	if err := db.Conn(ctx, s.DB).Raw(fmt.Sprintf(query, cond), args...).Scan(&rows).Error; err != nil {
		return Queue{}, nil, err
	}
	q := Queue{Items: make([]Item, 0, len(rows))}
	for _, r := range rows {
		q.Count = r.Total
		q.Items = append(q.Items, Item{CaseID: r.CaseID, Number: cases.FormatNumber(r.Number), DueOn: r.DueOn,
			DefendantID: r.DefendantID, Name: r.Name, HearingID: r.HearingID, HearingKind: r.HearingKind, At: r.At, Room: r.Room, BanID: r.BanID})
	}
	return q, rows, nil
}

// hearings is KindHearingsToday and KindHearingsWeek: the scheduled
// hearings of the court (of the judge) starting from the first day to the
// last, in time order, each with the defendants' names (Parties).
func (s *Service) hearings(ctx context.Context, sc Scope, first, last civil.Date) (Queue, error) {
	q, _, err := s.read(ctx, sc, `SELECT h.case_id, k.number, h.id AS hearing_id, h.kind AS hearing_kind, h.starts_at AS at, h.room,
		(h.starts_at AT TIME ZONE '`+s.Loc.String()+`')::date AS due_on, count(*) OVER () AS total
		FROM hearings h JOIN cases k ON k.id = h.case_id
		WHERE h.court_code = ? AND h.status = 'scheduled' AND h.starts_at >= ? AND h.starts_at < ?%s
		ORDER BY h.starts_at, h.id LIMIT ?`, sc.Court, first.Start(s.Loc), last.AddDays(1).Start(s.Loc))
	if err != nil || len(q.Items) == 0 {
		return q, err
	}
	ids := make([]int64, len(q.Items))
	for i, it := range q.Items {
		ids[i] = it.CaseID
	}
	names, err := s.PartiesOf(ctx, ids)
	if err != nil {
		return q, err
	}
	for i := range q.Items {
		q.Items[i].Parties = append([]string{"Ministério Público"}, names[q.Items[i].CaseID]...)
	}
	return q, nil
}

// reviews is KindReviews: the precautionary bans in force whose review
// day is at most EndingDays away (overdue first), by review day.
func (s *Service) reviews(ctx context.Context, sc Scope) (Queue, error) {
	q, _, err := s.read(ctx, sc, `SELECT b.case_id, k.number, b.id AS ban_id, b.defendant_id, b.name, b.review_on AS due_on, count(*) OVER () AS total
		FROM bans b JOIN cases k ON k.id = b.case_id
		WHERE b.court_code = ? AND b.status = 'active' AND b.precautionary AND b.review_on <= ?%s
		ORDER BY b.review_on, b.id LIMIT ?`, sc.Court, sc.Today.AddDays(EndingDays))
	return q, err
}

// bansEnding is KindBansEnding: the bans in force (not precautionary)
// whose last day is from today to EndingDays on, by last day.
func (s *Service) bansEnding(ctx context.Context, sc Scope) (Queue, error) {
	q, _, err := s.read(ctx, sc, `SELECT b.case_id, k.number, b.id AS ban_id, b.defendant_id, b.name, b.last_day AS due_on, count(*) OVER () AS total
		FROM bans b JOIN cases k ON k.id = b.case_id
		WHERE b.court_code = ? AND b.status = 'active' AND NOT b.precautionary AND b.last_day BETWEEN ? AND ?%s
		ORDER BY b.last_day, b.id LIMIT ?`, sc.Court, sc.Today, sc.Today.AddDays(EndingDays))
	return q, err
}

// awaitingID is KindAwaitingID: the bans in force of persons without a
// CPF, oldest first (index bans_awaiting_identification).
func (s *Service) awaitingID(ctx context.Context, sc Scope) (Queue, error) {
	q, _, err := s.read(ctx, sc, `SELECT b.case_id, k.number, b.id AS ban_id, b.defendant_id, b.name, count(*) OVER () AS total
		FROM bans b JOIN cases k ON k.id = b.case_id
		WHERE b.court_code = ? AND b.status = 'active' AND b.cpf IS NULL AND b.subject = 'person'%s
		ORDER BY b.id LIMIT ?`, sc.Court)
	return q, err
}

// concluded is KindConcluded: the cases whose last docket movement is the
// conclusion to the judge (TPU 51, written by the clerk), oldest
// conclusion first; due_on is the day of the conclusion.
func (s *Service) concluded(ctx context.Context, sc Scope) (Queue, error) {
	q, _, err := s.read(ctx, sc, `SELECT m.case_id, k.number, (m.at AT TIME ZONE '`+s.Loc.String()+`')::date AS due_on, count(*) OVER () AS total
		FROM movements m JOIN cases k ON k.id = m.case_id
		WHERE m.tpu_code = ? AND k.court_code = ?
		  AND NOT EXISTS (SELECT 1 FROM movements l WHERE l.case_id = m.case_id AND (l.at, l.id) > (m.at, m.id))%s
		ORDER BY m.at, m.id LIMIT ?`, ConclusionTPU, sc.Court)
	return q, err
}

// ConclusionTPU is the TPU movement "Conclusão" (51; cases/tpu/data/
// movements.csv): the clerk's movement that sends a case to the judge.
const ConclusionTPU = 51

// notices is the SQL of the signed sentences (not a precautionary ban
// alone) of open tracks, with which of the notices the finality needs are
// missing (calendar.FinalityMissing: the defendant's, his defence's in a
// criminal case, the prosecution's as to him or as to every defendant).
// The case and the defendant are laterals the planner keeps (OFFSET 0):
// an index probe per signed sentence, never a scan of the court's cases.
const notices = `FROM sentences s
	CROSS JOIN LATERAL (SELECT id, number, flow, status, judge_id FROM cases WHERE id = s.case_id AND court_code = ? OFFSET 0) k
	CROSS JOIN LATERAL (SELECT kind, full_name, group_name, status, final_on FROM defendants WHERE id = s.defendant_id OFFSET 0) d
	CROSS JOIN LATERAL (SELECT
		NOT EXISTS (SELECT 1 FROM notifications n WHERE n.case_id = s.case_id AND n.defendant_id = s.defendant_id AND n.party = 'defendant' AND n.kind = 'appeal' AND NOT n.superseded) AS no_defendant,
		k.flow = 'criminal' AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.case_id = s.case_id AND n.defendant_id = s.defendant_id AND n.party = 'defence' AND n.kind = 'appeal' AND NOT n.superseded) AS no_defence,
		NOT EXISTS (SELECT 1 FROM notifications n WHERE n.case_id = s.case_id AND (n.defendant_id = s.defendant_id OR n.defendant_id IS NULL) AND n.party = 'prosecution' AND n.kind = 'appeal' AND NOT n.superseded) AS no_prosecution) x
	WHERE s.status = 'signed' AND s.outcome <> ? AND d.final_on IS NULL
	  AND coalesce(d.status, k.status) IN ('sentenced', 'judgment')`

// toNotify is KindToNotify: the signed sentences with a notice missing
// (for the prosecutor's desk, the prosecution's), oldest signature first;
// Missing names the parties to notify.
func (s *Service) toNotify(ctx context.Context, sc Scope) (Queue, error) {
	missing := "(x.no_defendant OR x.no_defence OR x.no_prosecution)"
	if sc.Party == calendar.PartyProsecution {
		missing = "x.no_prosecution"
	}
	q, rows, err := s.read(ctx, sc, `SELECT s.case_id, k.number, s.defendant_id, coalesce(nullif(d.full_name, ''), d.group_name) AS name,
		(s.signed_at AT TIME ZONE '`+s.Loc.String()+`')::date AS due_on, x.no_defendant, x.no_defence, x.no_prosecution, count(*) OVER () AS total
		`+notices+` AND `+missing+`%s
		ORDER BY s.signed_at, s.id LIMIT ?`, sc.Court, decisions.OutcomePrecautionary)
	for i, r := range rows {
		var m []string
		if r.NoDefendant && sc.Party == "" {
			m = append(m, "réu")
		}
		if r.NoDefence && sc.Party == "" {
			m = append(m, "defesa")
		}
		if r.NoProsecution {
			m = append(m, "Ministério Público")
		}
		q.Items[i].Missing = m
	}
	return q, err
}

// readyFinal is KindReadyFinal: the sentenced tracks with every notice
// recorded and no embargos pending whose windows have all ended or been
// waived (calendar.FinalityMissing, the check the certification itself
// makes). A track whose last notice is older than the longest window
// (calendar.MaxWindowSpan) is ready without counting; the recent ones are
// counted with the calendar in one pass (calendar.ReadyFinal). Oldest
// first; due_on is the
// day the judgment became final when counted.
func (s *Service) readyFinal(ctx context.Context, sc Scope) (Queue, error) {
	cond, jargs := judgeCond(sc)
	var rows []struct {
		CaseID      int64
		Number      string
		Flow        string
		DefendantID int64
		Kind        string
		FullName    string
		GroupName   string
		LastNotice  civil.Date
	}
	args := append([]any{sc.Court, decisions.OutcomePrecautionary}, jargs...)
	err := db.Conn(ctx, s.DB).Raw(`SELECT s.case_id, k.number, k.flow, s.defendant_id, d.kind, d.full_name, d.group_name,
		(SELECT max(n.notified_on) FROM notifications n WHERE n.case_id = s.case_id AND (n.defendant_id = s.defendant_id OR n.defendant_id IS NULL) AND NOT n.superseded) AS last_notice
		`+notices+` AND NOT (x.no_defendant OR x.no_defence OR x.no_prosecution)
		  AND NOT EXISTS (SELECT 1 FROM embargos e WHERE e.case_id = s.case_id AND e.status = 'pending' AND NOT e.late AND e.defendant_id = s.defendant_id)`+cond+`
		ORDER BY last_notice, s.case_id, s.defendant_id`, args...).Scan(&rows).Error
	if err != nil {
		return Queue{}, err
	}
	old := sc.Today.AddDays(-calendar.MaxWindowSpan)
	var recent []calendar.FinalCandidate
	var at []int // the index in rows of each recent candidate
	for i, r := range rows {
		if !r.LastNotice.Before(old) {
			recent = append(recent, calendar.FinalCandidate{
				Case:      cases.Case{ID: r.CaseID, Flow: r.Flow, CourtCode: sc.Court, Number: r.Number},
				Defendant: cases.Defendant{ID: r.DefendantID, CaseID: r.CaseID, Kind: r.Kind, FullName: r.FullName, GroupName: r.GroupName}})
			at = append(at, i)
		}
	}
	days, err := s.Calendar.ReadyFinal(ctx, sc.Court, recent)
	if err != nil {
		return Queue{}, err
	}
	dayOf := map[int]*civil.Date{}
	for k, i := range at {
		dayOf[i] = days[k]
	}
	var q Queue
	for i, r := range rows {
		day, counted := dayOf[i]
		if counted && day == nil {
			continue // a window still running
		}
		q.Count++
		if len(q.Items) < Limit {
			id := r.DefendantID
			name := cases.NameOf(cases.Defendant{Kind: r.Kind, FullName: r.FullName, GroupName: r.GroupName})
			q.Items = append(q.Items, Item{CaseID: r.CaseID, Number: cases.FormatNumber(r.Number), DefendantID: &id, Name: name, DueOn: day})
		}
	}
	return q, nil
}

// counselRequests is KindCounselRequests: the defence users' requests to
// be linked to a defendant, oldest first; Name is the defendant's.
func (s *Service) counselRequests(ctx context.Context, sc Scope) (Queue, error) {
	q, _, err := s.read(ctx, sc, `SELECT r.case_id, k.number, r.defendant_id, coalesce(nullif(d.full_name, ''), d.group_name) AS name,
		(r.requested_at AT TIME ZONE '`+s.Loc.String()+`')::date AS due_on, count(*) OVER () AS total
		FROM representations r JOIN cases k ON k.id = r.case_id JOIN defendants d ON d.id = r.defendant_id
		WHERE k.court_code = ? AND r.status = 'requested'%s
		ORDER BY r.requested_at, r.id LIMIT ?`, sc.Court)
	return q, err
}

// petitions is KindPetitions: the petitions waiting in the judge's queue
// (a judge's desk: his cases) or in the clerk's (the court's), the oldest
// first, due on the day they were filed.
func (s *Service) petitions(ctx context.Context, sc Scope) (Queue, error) {
	queue := "clerk"
	if sc.JudgeID != nil {
		queue = "judge"
	}
	q, _, err := s.read(ctx, sc, `SELECT p.case_id, k.number, p.defendant_id, coalesce(nullif(d.full_name, ''), d.group_name) AS name,
		(p.filed_at AT TIME ZONE '`+s.Loc.String()+`')::date AS due_on, count(*) OVER () AS total
		FROM petitions p JOIN cases k ON k.id = p.case_id JOIN defendants d ON d.id = p.defendant_id
		WHERE k.court_code = ? AND p.status = 'pending' AND p.queue = ?%s
		ORDER BY p.filed_at, p.id LIMIT ?`, sc.Court, queue)
	return q, err
}
