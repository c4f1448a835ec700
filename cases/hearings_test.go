package cases_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
)

// CPP art. 798-A, parágrafo único (applied to the JECRIM by Lei
// 9.099/1995, art. 92): no hearing from 20 December to 20 January; 422 on
// starts_at citing the article, and nothing booked. With an exception of
// its items I to III (a defendant in custody) the hearing is booked and
// the docket names the exception; 21 January is an ordinary day.
func TestScheduleHearing_CPP798A_RefusedInTheRecess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2025, 12, 1, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	c := e.File(t, casetest.Fixture(t, "R1"))
	_, err := e.Svc.Case.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "preliminary", StartsAt: "2025-12-22T14:00:00-03:00", Room: "Sala 1"})
	if m := casetest.InvalidField(t, err, "starts_at", false); !strings.Contains(m, "art. 798-A") {
		t.Errorf("recess: %q", m)
	}
	_, err = e.Svc.Case.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "preliminary", StartsAt: "2025-12-22T14:00:00-03:00", Room: "Sala 1", RecessException: "holiday"})
	casetest.InvalidField(t, err, "recess_exception", false)
	if n := e.Count(t, "hearings", "case_id = ?", c.ID); n != 0 {
		t.Fatalf("%d hearings booked", n)
	}
	if _, err := e.Svc.Case.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "preliminary", StartsAt: "2025-12-22T14:00:00-03:00", Room: "Sala 1", RecessException: "custody"}); err != nil {
		t.Fatalf("in custody: %v", err)
	}
	if n := e.Count(t, "movements", "case_id = ? AND description LIKE ?", c.ID, "%réu preso%798-A, I%"); n != 1 {
		t.Errorf("the docket does not name the exception (%d)", n)
	}
	if _, err := e.Svc.Case.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "instruction", StartsAt: "2026-01-21T14:00:00-03:00", Room: "Sala 1"}); err != nil {
		t.Errorf("21 January: %v", err)
	}
}

// CPP art. 792 (acts on days with court business): no hearing on a
// Saturday, on a national holiday built in (20 November 2025, Lei
// 14.759/2023; Good Friday) or on a day of the court's own calendar
// (Corpus Christi, added by the clerk): 422 on starts_at naming the day.
func TestScheduleHearing_CPP792_NoHearingWithoutCourtBusiness(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	c := e.File(t, casetest.Fixture(t, "R1"))
	if _, err := e.Svc.Calendar.AddHoliday(ctx, clerk, calendar.HolidayInput{Date: "2025-06-19", Name: "Corpus Christi"}); err != nil {
		t.Fatal(err)
	}
	for at, why := range map[string]string{
		"2025-06-21T10:00:00-03:00": "sábado",
		"2025-11-20T10:00:00-03:00": "Lei 14.759/2023",
		"2026-04-03T10:00:00-03:00": "Sexta-feira da Paixão",
		"2025-06-19T10:00:00-03:00": "feriado do juizado: Corpus Christi",
	} {
		_, err := e.Svc.Case.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at, Room: "Sala 1"})
		if m := casetest.InvalidField(t, err, "starts_at", false); !strings.Contains(m, why) || !strings.Contains(m, "sem expediente") {
			t.Errorf("%s: %q, want %q", at, m, why)
		}
	}
	if _, err := e.Svc.Case.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "preliminary", StartsAt: "2025-06-20T10:00:00-03:00", Room: "Sala 1"}); err != nil {
		t.Errorf("Friday 20/06: %v", err)
	}
}

// CF art. 5º, XXXVI: once the judgment is final (trânsito em julgado, TPU
// 848) no hearing is booked in the case: 422 on starts_at.
func TestScheduleHearing_CF5_XXXVI_RefusedAfterFinalJudgment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, _, _ := e.SentenceR1(t, "", 6, nil)
	_, err := e.Svc.Case.ScheduleHearing(ctx, e.Clerk(t), c.ID, cases.HearingInput{Kind: "instruction", StartsAt: "2025-06-20T10:00:00-03:00", Room: "Sala 1"})
	if m := casetest.InvalidField(t, err, "starts_at", false); !strings.Contains(m, "transitou em julgado") {
		t.Errorf("after the final judgment: %q", m)
	}
}
