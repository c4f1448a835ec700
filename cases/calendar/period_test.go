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
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// GET /api/v1/legal/deadline in the service: the court's calendar counts
// when the court is named (CPP art. 798, § 3º); bad parameters are
// errs.Invalid naming the field.
func TestLegalDeadline_CPP_art798_sec3_CourtCalendar(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	if _, err := e.Svc.Calendar.AddHoliday(ctx, clerk, calendar.HolidayInput{Date: "2025-06-19", Name: "Corpus Christi"}); err != nil {
		t.Fatal(err)
	}
	p, err := e.Svc.Calendar.LegalDeadline(ctx, calendar.DeadlineQuery{NotifiedOn: "2025-06-09", Kind: "criminal_appeal", Court: testenv.Court})
	if err != nil || p.LastDay.String() != "2025-06-20" || len(p.Skipped) != 1 {
		t.Fatalf("with the court's calendar: %+v %v", p, err)
	}
	p, err = e.Svc.Calendar.LegalDeadline(ctx, calendar.DeadlineQuery{NotifiedOn: "2025-06-09", Kind: "criminal_appeal"})
	if err != nil || p.LastDay.String() != "2025-06-19" {
		t.Fatalf("without a court: %+v %v", p, err)
	}
	for _, tc := range []struct {
		q     calendar.DeadlineQuery
		field string
	}{
		{calendar.DeadlineQuery{Kind: "criminal_appeal"}, "notified_on"},
		{calendar.DeadlineQuery{NotifiedOn: "2025-02-30", Kind: "criminal_appeal"}, "notified_on"},
		{calendar.DeadlineQuery{NotifiedOn: "10/06/2025", Kind: "criminal_appeal"}, "notified_on"},
		{calendar.DeadlineQuery{NotifiedOn: "1999-06-10", Kind: "criminal_appeal"}, "notified_on"},
		{calendar.DeadlineQuery{NotifiedOn: "2025-06-10"}, "kind"},
		{calendar.DeadlineQuery{NotifiedOn: "2025-06-10", Kind: "appeal"}, "kind"},
		{calendar.DeadlineQuery{NotifiedOn: "2025-06-10", Kind: "civil_appeal", Court: "26-0100"}, "court"},
		{calendar.DeadlineQuery{NotifiedOn: "2025-06-10", Kind: "civil_appeal", Court: "26.0999"}, "court"},
	} {
		_, err := e.Svc.Calendar.LegalDeadline(ctx, tc.q)
		casetest.InvalidField(t, err, tc.field, false)
	}
}

// CPP art. 798, § 3º, and CPC art. 219 with the court's calendar kept by
// the clerk: a holiday added later moves a deadline not yet ended, and the
// case shows that it moved (moved_from and a docket movement); one added
// after the deadline ended moves nothing. The civil (group) case counts 15
// working days (CPC art. 1.003, § 5º).
func TestDeadlines_CPP_art798_sec3_HolidayAddedLaterMovesOpenDeadline(t *testing.T) {
	t.Parallel()
	mon := time.Date(2025, 6, 2, 12, 0, 0, 0, testenv.SaoPaulo)
	e := newEnv(t, mon, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	c5, d5, j5 := e.FileOne(t, "R5")
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Ban: decisions.BanInput{FirstDay: "2025-06-10", Months: casetest.Ptr(6)},
		ReportingDuty: &cases.ReportingDuty{Place: "2º DP", Club: "Corinthians"}}); err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(mon.AddDate(0, 0, 4)) // Friday 06/06/2025
	dv, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-06-06"})
	if err != nil {
		t.Fatal(err)
	}
	if dv.FirstDay.String() != "2025-06-09" || dv.LastDay.String() != "2025-06-18" || dv.DeadlineKind != sanctions.KindCriminalAppeal || dv.MovedFrom != nil {
		t.Fatalf("Friday notice: first %s last %s kind %s moved %v", dv.FirstDay, dv.LastDay, dv.DeadlineKind, dv.MovedFrom)
	}
	// The next day the clerk adds a municipal holiday on 18/06.
	e.Clk.Set(mon.AddDate(0, 0, 5))
	if _, err := e.Svc.Calendar.AddHoliday(ctx, clerk, calendar.HolidayInput{Date: "2025-06-18", Name: "Aniversário da cidade"}); err != nil {
		t.Fatal(err)
	}
	v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Deadlines) != 1 || v.Deadlines[0].LastDay.String() != "2025-06-19" || v.Deadlines[0].MovedFrom == nil || v.Deadlines[0].MovedFrom.String() != "2025-06-18" {
		t.Fatalf("after the holiday: %+v", v.Deadlines)
	}
	moved := false
	for _, m := range v.Movements {
		if strings.Contains(m.Description, "movido pelo feriado de 18/06/2025") && strings.Contains(m.Description, "de 18/06/2025 para 19/06/2025") {
			moved = true
		}
	}
	if !moved {
		t.Error("no docket movement says the deadline moved")
	}
	// After the deadline ended a holiday on its last day moves nothing.
	e.Clk.Set(time.Date(2025, 6, 25, 10, 0, 0, 0, testenv.SaoPaulo))
	if _, err := e.Svc.Calendar.AddHoliday(ctx, clerk, calendar.HolidayInput{Date: "2025-06-19", Name: "Corpus Christi"}); err != nil {
		t.Fatal(err)
	}
	v, _ = e.Svc.Casefile.Get(ctx, j, c.ID)
	if v.Deadlines[0].LastDay.String() != "2025-06-19" || v.Deadlines[0].Open {
		t.Errorf("a holiday after the end moved the deadline: %+v", v.Deadlines[0])
	}

	// A group case (civil): 15 working days.
	if c5.Flow != cases.FlowCivil {
		t.Fatalf("R5 flow %s", c5.Flow)
	}
	e.G.Exec("UPDATE cases SET status = 'judgment' WHERE id = ?", c5.ID)
	dv, err = e.Svc.Calendar.Notify(ctx, clerk, c5.ID, calendar.NotificationInput{DefendantID: d5.ID, NotifiedOn: "2025-06-23"})
	if err != nil {
		t.Fatal(err)
	}
	if dv.DeadlineKind != sanctions.KindCivilAppeal || dv.Days != 15 || !dv.WorkingDays || dv.FirstDay.String() != "2025-06-24" || dv.LastDay.String() != "2025-07-14" ||
		!strings.Contains(dv.Rule, "1.003") {
		t.Errorf("civil deadline %+v", dv)
	}
	v, _ = e.Svc.Casefile.Get(ctx, j5, c5.ID)
	if len(v.Deadlines) != 1 || v.Deadlines[0].DeadlineKind != sanctions.KindCivilAppeal || v.Deadlines[0].LastDay.String() != "2025-07-14" {
		t.Errorf("civil deadlines on the case: %+v", v.Deadlines)
	}
}
