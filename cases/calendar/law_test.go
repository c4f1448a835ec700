package calendar_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// sentencedR1 files R1 with the clock at now and signs its sentence (a
// ban of 6 months with the reporting duty), returning the case, the
// defendant and a clerk.
func sentencedR1(t *testing.T, e *env, first string) (*cases.Case, cases.Defendant, actor.Actor) {
	t.Helper()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c) // Lei 9.099/1995, arts. 77 and 81: no sentence without it
	if _, err := e.Svc.Decisions.Sentence(context.Background(), j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID,
		Ban: decisions.BanInput{FirstDay: first, Months: casetest.Ptr(6)}, ReportingDuty: &cases.ReportingDuty{Place: "2º DP", Club: "Corinthians"}}); err != nil {
		t.Fatal(err)
	}
	return c, d, e.User(t, "Escrivã", "clerk")
}

// skippedWhy is the reason the window gave for skipping day, "" if none.
func skippedWhy(dv *calendar.DeadlineView, day string) string {
	for _, s := range dv.Skipped {
		if s.Date.String() == day {
			return s.Why
		}
	}
	return ""
}

// CPP art. 798-A (applied to the JECRIM by Lei 9.099/1995, art. 92): the
// defendant's window, notified on Monday 15/12/2025, runs 16 to 19/12 (4
// days), is suspended from 20/12 to 20/01 and resumes on Wednesday 21/01
// with 6 days left: its last day is Monday 26/01/2026; each day of the
// recess is in skipped and the rule says so. The defence of the same
// defendant in custody (art. 798-A, I) runs through: 16/12 + 9 = 25/12,
// Natal (built in), then Friday 26/12. A notice during the recess counts
// from 21/01.
func TestNotify_CPP798A_DeadlineSuspendedAcrossRecess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2025, 12, 1, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	ctx := context.Background()
	c, d, clerk := sentencedR1(t, e, "2025-12-10")
	e.Clk.Set(time.Date(2026, 1, 8, 12, 0, 0, 0, testenv.SaoPaulo))
	dv, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-12-15"})
	if err != nil {
		t.Fatal(err)
	}
	if dv.FirstDay.String() != "2025-12-16" || dv.LastDay.String() != "2026-01-26" || dv.Days != 10 {
		t.Errorf("across the recess: first %s last %s days %d, want 2025-12-16 2026-01-26 10", dv.FirstDay, dv.LastDay, dv.Days)
	}
	if !strings.Contains(dv.Rule, "art. 798-A") || !strings.Contains(skippedWhy(dv, "2026-01-10"), "798-A") || !strings.Contains(skippedWhy(dv, "2025-12-20"), "recesso") {
		t.Errorf("rule %q, skipped %+v", dv.Rule, dv.Skipped)
	}
	dv, err = e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, NotifiedOn: "2025-12-15",
		RecessException: string(sanctions.RecessCustody)})
	if err != nil {
		t.Fatal(err)
	}
	if dv.LastDay.String() != "2025-12-26" || !strings.Contains(skippedWhy(dv, "2025-12-25"), "Natal") || !strings.Contains(dv.Rule, "798-A, I") || dv.RecessException != "custody" {
		t.Errorf("custody: last %s rule %q skipped %+v", dv.LastDay, dv.Rule, dv.Skipped)
	}
	dv, err = e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2026-01-05"})
	if err != nil {
		t.Fatal(err)
	}
	// Counts on Monday 05/01; the course resumes Wednesday 21/01 + 9 = Friday 30/01.
	if dv.CountedFrom.String() != "2026-01-05" || dv.FirstDay.String() != "2026-01-21" || dv.LastDay.String() != "2026-01-30" {
		t.Errorf("notice in the recess: counted %s first %s last %s", dv.CountedFrom, dv.FirstDay, dv.LastDay)
	}
	// The case shows the same windows.
	v, err := e.Svc.Casefile.Get(ctx, e.JudgeOf(t, c), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := map[string]string{}
	for _, w := range v.Deadlines {
		last[w.Party] = w.LastDay.String()
	}
	if last["defendant"] != "2026-01-26" || last["defence"] != "2025-12-26" || last["prosecution"] != "2026-01-30" {
		t.Errorf("case deadlines %v", last)
	}
}

// Lei 14.759/2023: 20 November is a national holiday from 2024, built in
// with no court calendar: a window notified on Friday 08/11/2024 starts on
// Monday 11/11 and would end on Wednesday 20/11/2024, so it ends on
// Thursday 21/11 (CPP art. 798, § 3º); in 2023 (before the law) the same
// count ends on 20/11.
func TestLegalDeadline_Lei14759_20November2024(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	p, err := e.Svc.Calendar.LegalDeadline(ctx, calendar.DeadlineQuery{NotifiedOn: "2024-11-08", Kind: "criminal_appeal", Court: testenv.Court})
	if err != nil {
		t.Fatal(err)
	}
	if p.FirstDay.String() != "2024-11-11" || p.LastDay.String() != "2024-11-21" || len(p.Skipped) < 3 || !strings.Contains(p.Skipped[len(p.Skipped)-1].Why, "Lei 14.759/2023") {
		t.Errorf("20/11/2024: %+v", p)
	}
	// 10/11/2023 is a Friday too: Monday 13/11 + 9 = Wednesday 22/11; and
	// 20/11/2023 inside the window counts as any running day.
	p, err = e.Svc.Calendar.LegalDeadline(ctx, calendar.DeadlineQuery{NotifiedOn: "2023-11-10", Kind: "criminal_appeal"})
	if err != nil || p.LastDay.String() != "2023-11-22" {
		t.Errorf("2023: %+v %v", p, err)
	}
	p, err = e.Svc.Calendar.LegalDeadline(ctx, calendar.DeadlineQuery{NotifiedOn: "2023-11-09", Kind: "criminal_appeal"})
	if err != nil || p.LastDay.String() != "2023-11-20" {
		t.Errorf("20/11/2023 was a working day: %+v %v", p, err)
	}
}

// Good Friday (Lei 9.093/1995, art. 2º; every state court observes it),
// built in with Easter: 03/04/2026. A window notified on Tuesday 24/03/2026
// starts on 25/03 and would end on 03/04: it ends on Monday 06/04.
func TestLegalDeadline_Lei9093_GoodFridayBuiltIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	p, err := e.Svc.Calendar.LegalDeadline(context.Background(), calendar.DeadlineQuery{NotifiedOn: "2026-03-24", Kind: "criminal_appeal", Court: testenv.Court})
	if err != nil {
		t.Fatal(err)
	}
	if p.LastDay.String() != "2026-04-06" || len(p.Skipped) != 3 || !strings.Contains(p.Skipped[0].Why, "Sexta-feira da Paixão") {
		t.Errorf("Good Friday: %+v", p)
	}
}

// LC 80/1994, arts. 44, I, 89, I, and 128, I: the Defensoria Pública's
// window is doubled (20 running days in the JECRIM) and the rule says it;
// with the court's setting turned off (the Turmas Recursais that deny the
// doubling) the case shows 10 days and the rule says the doubling was
// turned off. public_defender for the defendant himself is 422.
func TestNotify_LC80_art128_I_DefensoriaDoubledAndCourtSetting(t *testing.T) {
	t.Parallel()
	mon := time.Date(2025, 6, 2, 12, 0, 0, 0, testenv.SaoPaulo)
	e := newEnv(t, mon, 1)
	ctx := context.Background()
	c, d, clerk := sentencedR1(t, e, "2025-06-10")
	e.Clk.Set(mon.AddDate(0, 0, 1))
	_, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-06-03", PublicDefender: true})
	casetest.InvalidField(t, err, "public_defender", false)
	dv, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, NotifiedOn: "2025-06-03", PublicDefender: true})
	if err != nil {
		t.Fatal(err)
	}
	// Tuesday 03/06: 04/06 + 19 = Monday 23/06.
	if dv.Days != 20 || dv.LastDay.String() != "2025-06-23" || !dv.PublicDefender || !strings.Contains(dv.Rule, "LC 80/1994") {
		t.Errorf("Defensoria: %+v", dv)
	}
	if found, err := cases.SetDefensoriaDoubling(ctx, e.G, testenv.Court, false); err != nil || !found {
		t.Fatal(found, err)
	}
	v, err := e.Svc.Casefile.Get(ctx, e.JudgeOf(t, c), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Deadlines) != 1 || v.Deadlines[0].Days != 10 || v.Deadlines[0].LastDay.String() != "2025-06-13" || !strings.Contains(v.Deadlines[0].Rule, "afastado no JECRIM") {
		t.Errorf("setting off: %+v", v.Deadlines)
	}
}

// CPC art. 180: the prosecution's window in a group (civil) case is
// doubled, 30 working days, and the rule cites it; CPC art. 186: so is the
// Defensoria's; CPC art. 220 has no exception, so recess_exception in a
// civil case is 422.
func TestNotify_CPC180_CPC186_CivilWindowsDoubled(t *testing.T) {
	t.Parallel()
	mon := time.Date(2025, 6, 2, 12, 0, 0, 0, testenv.SaoPaulo)
	e := newEnv(t, mon, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	c, d, _ := e.FileOne(t, "R5")
	if c.Flow != cases.FlowCivil {
		t.Fatalf("R5 flow %s", c.Flow)
	}
	e.G.Exec("UPDATE cases SET status = 'judgment' WHERE id = ?", c.ID)
	e.Clk.Set(time.Date(2025, 6, 24, 12, 0, 0, 0, testenv.SaoPaulo))
	_, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2025-06-23", RecessException: "urgent"})
	casetest.InvalidField(t, err, "recess_exception", false)
	dv, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2025-06-23"})
	if err != nil {
		t.Fatal(err)
	}
	// Monday 23/06/2025: 30 working days from Tuesday 24/06 end on Monday
	// 04/08 (no holiday in July in the national calendar).
	if dv.Days != 30 || !dv.WorkingDays || dv.LastDay.String() != "2025-08-04" || !strings.Contains(dv.Rule, "CPC, art. 180") {
		t.Errorf("prosecution, civil: %+v", dv)
	}
	dv, err = e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-06-23"})
	if err != nil || dv.Days != 15 || dv.LastDay.String() != "2025-07-14" {
		t.Errorf("defendant, civil: %+v %v", dv, err)
	}
	// A court holiday added later moves both windows (CPC art. 219), the
	// prosecution's with its own docket movement.
	if _, err := e.Svc.Calendar.AddHoliday(ctx, clerk, calendar.HolidayInput{Date: "2025-07-01", Name: "Feriado municipal"}); err != nil {
		t.Fatal(err)
	}
	v, err := e.Svc.Casefile.Get(ctx, e.JudgeOf(t, c), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	moved := false
	for _, m := range v.Movements {
		moved = moved || strings.Contains(m.Description, "Prazo de recurso do Ministério Público movido pelo feriado de 01/07/2025")
	}
	if !moved || v.Deadlines[0].Party != calendar.PartyProsecution || v.Deadlines[0].LastDay.String() != "2025-08-05" {
		t.Errorf("prosecution's window after the holiday: moved %v, %+v", moved, v.Deadlines[0])
	}
}

// The court's calendar, which the clerk edits: a holiday removed moves an
// open window back (CPP art. 798, § 3º) with a docket movement; another
// court's holiday, or none, is not found.
func TestRemoveHoliday_CPP798_sec3_MovesOpenWindowBack(t *testing.T) {
	t.Parallel()
	mon := time.Date(2025, 6, 2, 12, 0, 0, 0, testenv.SaoPaulo)
	e := newEnv(t, mon, 1)
	ctx := context.Background()
	c, d, clerk := sentencedR1(t, e, "2025-06-10")
	h, err := e.Svc.Calendar.AddHoliday(ctx, clerk, calendar.HolidayInput{Date: "2025-06-18", Name: "Aniversário da cidade"})
	if err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(mon.AddDate(0, 0, 4)) // Friday 06/06/2025
	dv, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-06-06"})
	if err != nil || dv.LastDay.String() != "2025-06-19" {
		t.Fatalf("with the holiday: %+v %v", dv, err)
	}
	if _, err := e.Svc.Calendar.RemoveHoliday(ctx, clerk, h.ID+1000); errs.KindOf(err) != errs.NotFound {
		t.Errorf("unknown holiday: %v", err)
	}
	if _, err := e.Svc.Calendar.RemoveHoliday(ctx, clerk, h.ID); err != nil {
		t.Fatal(err)
	}
	v, err := e.Svc.Casefile.Get(ctx, e.JudgeOf(t, c), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Deadlines[0].LastDay.String() != "2025-06-18" {
		t.Errorf("after the removal: %+v", v.Deadlines[0])
	}
	moved := false
	for _, m := range v.Movements {
		moved = moved || strings.Contains(m.Description, "retirado do calendário do juizado: último dia passou de 19/06/2025 para 18/06/2025")
	}
	if !moved {
		t.Error("no docket movement says the window moved back")
	}
	if n := e.Count(t, "court_holidays", "id = ?", h.ID); n != 0 {
		t.Errorf("holiday still there: %d", n)
	}
}
