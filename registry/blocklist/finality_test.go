package blocklist_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// Súmula 643 STJ (CF art. 5º, LVII): a ban decided in a sentence is on no
// list while the appeal windows run. The final judgment is refused while a
// window is open (Lei 9.099/1995, art. 82, § 1º); once every window ended,
// the judgment is final from the day after the last one ended, the ban
// starts that day and its last day is counted from it (CP art. 10): only
// then is the CPF blocked and the name on the public list.
func TestLists_Sumula643STJ_SentenceBanOnNoListUntilTheWindowsEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	caseID, d := e.file(t, e.reps["R1"])
	months := 3
	res, err := e.svc.Decisions.Sentence(ctx, e.judge, caseID, decisions.SentenceInput{Text: reasoned, ReportingDuty: reporting, DefendantID: d.ID, Ban: decisions.BanInput{Months: &months}})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Ban
	if b.Status != sanctions.StatusAwaitingFinal || b.FirstDay != nil || b.LastDay != nil {
		t.Fatalf("sentence's ban: %s %v–%v, want awaiting_final with no days", b.Status, b.FirstDay, b.LastDay)
	}
	absent := func(when string) {
		t.Helper()
		s := e.look(t, *b)
		if s.public || s.entry != nil || s.blocked {
			t.Errorf("%s: public %v blocklist %v blocked %v; want on no list (Súmula 643 STJ)", when, s.public, s.entry != nil, s.blocked)
		}
	}
	absent("on the day of the sentence")
	windows := e.notifyAll(t, caseID, false)
	last := windows[0].LastDay
	for _, w := range windows {
		if w.LastDay.After(last) {
			last = w.LastDay
		}
	}
	absent("with the appeal windows open")
	_, err = e.svc.Casefile.Transition(ctx, e.clerk, caseID, casefile.TransitionInput{To: cases.StatusFinal})
	if errs.KindOf(err) != errs.Conflict {
		t.Fatalf("final judgment with the windows open: %v, want a conflict (Lei 9.099/1995, art. 82, § 1º)", err)
	}
	e.at(time.Date(last.Year, last.Month, last.Day, 23, 59, 0, 0, saoPaulo))
	absent("on the last day of the last window")
	e.at(time.Date(last.Year, last.Month, last.Day, 12, 0, 0, 0, saoPaulo).AddDate(0, 0, 3))
	absent("after the windows ended, before the final judgment is certified")
	if _, err := e.svc.Casefile.Transition(ctx, e.clerk, caseID, casefile.TransitionInput{To: cases.StatusFinal}); err != nil {
		t.Fatalf("final judgment: %v", err)
	}
	got := e.ban(t, b.ID)
	first := last.AddDays(1)
	wantLast, err := sanctions.LastDay(first, months)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != sanctions.StatusActive || got.FirstDay == nil || *got.FirstDay != first || got.LastDay == nil || *got.LastDay != wantLast {
		t.Fatalf("after the final judgment: %s %v–%v, want active %s–%s (the day after the last window, CP art. 10)", got.Status, got.FirstDay, got.LastDay, first, wantLast)
	}
	s := e.look(t, got)
	if !s.public || s.entry == nil || !s.blocked {
		t.Errorf("after the final judgment: public %v blocklist %v blocked %v; want all true", s.public, s.entry != nil, s.blocked)
	}
	if s.entry != nil && (s.entry.FirstDay != first || s.entry.LastDay == nil || *s.entry.LastDay != wantLast) {
		t.Errorf("blocklist entry %v–%v, want %s–%s", s.entry.FirstDay, s.entry.LastDay, first, wantLast)
	}
}

// Súmula 643 STJ with a later start the judge fixes (ban.first_day): after
// the final judgment the ban is on the lists only from that day; a first
// day in the past is refused on ban.first_day.
func TestLists_Sumula643STJ_LaterStartFixedByTheJudge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	caseID, d := e.file(t, e.reps["R1"])
	months := 3
	_, err := e.svc.Decisions.Sentence(ctx, e.judge, caseID, decisions.SentenceInput{Text: reasoned, ReportingDuty: reporting, DefendantID: d.ID, Ban: decisions.BanInput{FirstDay: "2025-06-01", Months: &months}})
	if fe := fieldOf(err); fe != "ban.first_day" {
		t.Fatalf("a first day before today: %v, want 422 on ban.first_day", err)
	}
	res, err := e.svc.Decisions.Sentence(ctx, e.judge, caseID, decisions.SentenceInput{Text: reasoned, ReportingDuty: reporting, DefendantID: d.ID, Ban: decisions.BanInput{FirstDay: "2025-07-01", Months: &months}})
	if err != nil {
		t.Fatal(err)
	}
	e.final(t, caseID)
	b := e.ban(t, res.Ban.ID)
	if b.FirstDay == nil || b.FirstDay.String() != "2025-07-01" || b.LastDay == nil || b.LastDay.String() != "2025-09-30" {
		t.Fatalf("final ban %v–%v, want 2025-07-01–2025-09-30", b.FirstDay, b.LastDay)
	}
	if s := e.look(t, b); s.public || s.entry != nil || s.blocked {
		t.Errorf("final, before the day the judge fixed: public %v blocklist %v blocked %v; want none", s.public, s.entry != nil, s.blocked)
	}
	e.at(time.Date(2025, 7, 1, 0, 0, 1, 0, saoPaulo))
	if s := e.look(t, b); !s.public || s.entry == nil || !s.blocked {
		t.Errorf("on the day the judge fixed: public %v blocklist %v blocked %v; want all true", s.public, s.entry != nil, s.blocked)
	}
}

// CPP art. 319, II: a precautionary ban ordered in the sentence until it
// is final is in force at once (on the blocklist), while the final ban
// waits (Súmula 643 STJ); at the final judgment the precautionary ban is
// replaced by the final ban, which takes its place on the lists.
func TestLists_CPP319II_PrecautionaryUntilFinalThenTheFinalBan(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	caseID, d := e.file(t, e.reps["R1"])
	months := 6
	res, err := e.svc.Decisions.Sentence(ctx, e.judge, caseID, decisions.SentenceInput{Text: reasoned, ReportingDuty: reporting, DefendantID: d.ID, Ban: decisions.BanInput{Months: &months},
		PrecautionaryUntilFinal: &decisions.PrecautionaryInput{ReviewOn: "2025-09-10"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.PrecautionaryBan == nil {
		t.Fatal("no precautionary ban")
	}
	prec, final := *res.PrecautionaryBan, *res.Ban
	if s := e.look(t, prec); s.entry == nil || !s.blocked {
		t.Errorf("precautionary ban: blocklist %v blocked %v; want in force at once", s.entry != nil, s.blocked)
	}
	if s := e.look(t, final); s.entry != nil {
		t.Errorf("the sentence's ban is on the blocklist before the final judgment")
	}
	e.at(time.Date(2025, 6, 20, 12, 0, 0, 0, saoPaulo))
	e.final(t, caseID)
	prec, final = e.ban(t, prec.ID), e.ban(t, final.ID)
	if prec.Status != sanctions.StatusReplaced {
		t.Errorf("precautionary ban after the final judgment: %s, want replaced", prec.Status)
	}
	if final.FirstDay == nil || *final.FirstDay != civil.New(2025, 6, 20) {
		t.Errorf("final ban starts %v, want 2025-06-20 (the day of the last waiver)", final.FirstDay)
	}
	if s := e.look(t, prec); s.entry != nil {
		t.Error("the replaced precautionary ban stays on the blocklist")
	}
	if s := e.look(t, final); s.entry == nil || !s.blocked || !s.public {
		t.Errorf("final ban: public %v blocklist %v blocked %v; want all true", s.public, s.entry != nil, s.blocked)
	}
}

// fieldOf is the field of an errs.Invalid with one field, or "".
func fieldOf(err error) string {
	if errs.KindOf(err) != errs.Invalid {
		return ""
	}
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return ""
	}
	return e.Fields[0].Field
}
