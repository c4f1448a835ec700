package desk

import (
	"context"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/civil"
)

// Kinds of queue, in the order of urgency the desk shows them (Rank): a
// window ending or a hearing today cannot wait; a review, a conclusion or a
// judgment to certify is the day's work; the rest is the week's.
const (
	// KindWindows: appeal windows whose last day is today or one of the
	// next 5 working days (Lei 9.099/1995, art. 82, § 1º).
	KindWindows = "windows_ending"
	// KindHearingsToday: hearings scheduled for today, with the parties.
	KindHearingsToday = "hearings_today"
	// KindReviews: precautionary bans whose review is due in the next 10
	// days or overdue (CPP art. 282, § 5º; Res. CNJ 417/2021, art. 19).
	KindReviews = "precautionary_reviews"
	// KindConcluded: cases whose last docket movement is the conclusion to
	// the judge (TPU 51).
	KindConcluded = "concluded"
	// KindReadyFinal: defendants whose every window has ended or been
	// waived: the trânsito em julgado to certify (TPU 848).
	KindReadyFinal = "ready_to_certify_final"
	// KindToNotify: signed sentences whose defendant, defence or
	// prosecution has not been notified yet (Lei 9.099/1995, art. 82, § 1º).
	KindToNotify = "sentences_to_notify"
	// KindHearingsWeek: hearings of the next 6 days after today.
	KindHearingsWeek = "hearings_week"
	// KindBansEnding: bans in force whose last day is in the next 10 days.
	KindBansEnding = "bans_ending"
	// KindAwaitingID: bans of persons without a CPF (LGE art. 201: the
	// gates check by CPF), awaiting identification.
	KindAwaitingID = "awaiting_identification"
	// KindCounselRequests: defence users' requests to be linked to a
	// defendant, waiting for the clerk (CPP art. 266).
	KindCounselRequests = "counsel_requests"
	// KindPetitions: the defence's petitions waiting for an answer, in the
	// judge's queue (decisions) or the clerk's (procedural), the oldest
	// first (Lei 11.419/2006, art. 10; issue 29, item 4).
	KindPetitions = "petitions_pending"
)

// Rank is the order of urgency of the kinds of queue, most urgent first.
var Rank = []string{KindWindows, KindHearingsToday, KindReviews, KindConcluded, KindPetitions, KindReadyFinal, KindToNotify,
	KindHearingsWeek, KindBansEnding, KindAwaitingID, KindCounselRequests}

// Limit bounds the items of a queue; Count is always the full count.
const Limit = 50

// Spans of the queues: the working days of the windows ending, the
// running days of the reviews and bans ending and of the week's hearings.
const (
	WindowWorkingDays = 5
	EndingDays        = 10
	WeekDays          = 6
)

// Item is one thing to do in a case: the case (CaseID, Number formatted
// NNNNNNN-DD.AAAA.J.TR.OOOO), the day it is due (DueOn, the court's civil
// date; nil when the queue has none), the defendant or party concerned
// (DefendantID, Name, Party: "defendant", "defence", "prosecution"), and
// by queue: the hearing (HearingID, HearingKind, At, Room, Parties: the
// defendants' names), the ban (BanID), and Missing, what is still to do in
// Portuguese (the notices missing).
type Item struct {
	CaseID      int64       `json:"case_id"`
	Number      string      `json:"number"`
	DueOn       *civil.Date `json:"due_on,omitempty"`
	DefendantID *int64      `json:"defendant_id,omitempty"`
	Name        string      `json:"name,omitempty"`
	Party       string      `json:"party,omitempty"`
	HearingID   *int64      `json:"hearing_id,omitempty"`
	HearingKind string      `json:"hearing_kind,omitempty"`
	At          *time.Time  `json:"at,omitempty"`
	Room        string      `json:"room,omitempty"`
	Parties     []string    `json:"parties,omitempty"`
	BanID       *int64      `json:"ban_id,omitempty"`
	Missing     []string    `json:"missing,omitempty"`
}

// Queue is one work queue: its Kind (the constants above), the full Count
// and at most Limit Items, most urgent first.
type Queue struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
	Items []Item `json:"items"`
}

// Scope is whose queues are read: the court (TR.OOOO), the judge (a
// judge's desk shows his own cases; nil for the whole court), the party
// (calendar.PartyProsecution narrows the windows and the notices to the
// prosecution's; "" every party) and today, the court's civil date.
type Scope struct {
	Court   string
	JudgeID *int64
	Party   string
	Today   civil.Date
}

// Service reads the queues of a court.
type Service struct {
	cases.Core
	// Calendar counts the windows (WindowsEnding, FinalityMissing).
	Calendar *calendar.Service
}

// New returns the desk over core and the calendar cal.
func New(core cases.Core, cal *calendar.Service) *Service { return &Service{Core: core, Calendar: cal} }

// Today is the court's civil date now (the injectable clock, s.Loc).
func (s *Service) Today() civil.Date { return civil.Today(s.Now(), s.Loc) }

// Queue reads the queue of kind for sc; an unknown kind is an empty queue.
func (s *Service) Queue(ctx context.Context, sc Scope, kind string) (Queue, error) {
	week := func(ctx context.Context, sc Scope) (Queue, error) {
		return s.hearings(ctx, sc, sc.Today.AddDays(1), sc.Today.AddDays(WeekDays))
	}
	today := func(ctx context.Context, sc Scope) (Queue, error) { return s.hearings(ctx, sc, sc.Today, sc.Today) }
	read := map[string]func(context.Context, Scope) (Queue, error){
		KindWindows: s.windows, KindHearingsToday: today, KindHearingsWeek: week, KindReviews: s.reviews,
		KindConcluded: s.concluded, KindReadyFinal: s.readyFinal, KindToNotify: s.toNotify, KindBansEnding: s.bansEnding,
		KindAwaitingID: s.awaitingID, KindCounselRequests: s.counselRequests, KindPetitions: s.petitions,
	}
	var q Queue
	var err error
	if f, ok := read[kind]; ok {
		q, err = f(ctx, sc)
	}
	q.Kind = kind
	if q.Items == nil {
		q.Items = []Item{}
	}
	return q, err
}

// windows is KindWindows: calendar.WindowsEnding from today to the 5th
// working day after it.
func (s *Service) windows(ctx context.Context, sc Scope) (Queue, error) {
	last, err := s.Calendar.WorkingDaysAfter(ctx, sc.Court, sc.Today, WindowWorkingDays)
	if err != nil {
		return Queue{}, err
	}
	ws, err := s.Calendar.WindowsEnding(ctx, sc.Court, sc.Today, last)
	if err != nil {
		return Queue{}, err
	}
	var q Queue
	for _, w := range ws {
		if sc.Party != "" && w.Party != sc.Party {
			continue
		}
		q.Count++
		if len(q.Items) < Limit {
			day := w.LastDay
			q.Items = append(q.Items, Item{CaseID: w.CaseID, Number: cases.FormatNumber(w.Number), DueOn: &day,
				DefendantID: w.DefendantID, Name: w.Name, Party: w.Party})
		}
	}
	return q, nil
}
