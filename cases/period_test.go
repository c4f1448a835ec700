package cases_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
)

// A court calendar of 2025–2026 national holidays.
var calendar2025 = cases.Holidays{
	civil.MustParse("2025-04-18"): "Paixão de Cristo",
	civil.MustParse("2025-04-21"): "Tiradentes",
	civil.MustParse("2025-05-01"): "Dia do Trabalho",
	civil.MustParse("2025-06-19"): "Corpus Christi",
	civil.MustParse("2025-11-20"): "Consciência Negra",
	civil.MustParse("2025-12-25"): "Natal",
	civil.MustParse("2026-01-01"): "Confraternização Universal",
	civil.MustParse("2026-02-16"): "Carnaval",
	civil.MustParse("2026-02-17"): "Carnaval",
}

func count(t *testing.T, kind, notified string, hol cases.Holidays) cases.Period {
	t.Helper()
	p, err := cases.CountPeriod(kind, civil.MustParse(notified), hol)
	if err != nil {
		t.Fatalf("CountPeriod(%s, %s): %v", kind, notified, err)
	}
	return p
}

func skippedDays(p cases.Period) string {
	var out []string
	for _, s := range p.Skipped {
		out = append(out, s.Date.String())
	}
	return strings.Join(out, ",")
}

// CPP art. 798, § 1º, with Súmula 310 do STF: a notice on a Friday starts
// the period on Monday, and on the eve of a holiday on the next working
// day; Lei 9.099/1995, art. 82, § 1º: 10 running days; CPP art. 798, § 3º:
// a last day without court business moves to the next working day.
func TestCountPeriod_Lei9099_art82_sec1_CPP_art798_Sumula310(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, notified, counted, first, last, skipped string
	}{
		{"Tuesday: Wednesday to the next Friday", "2025-06-03", "2025-06-03", "2025-06-04", "2025-06-13", ""},
		{"Friday (Súmula 310): starts on Monday", "2025-06-06", "2025-06-06", "2025-06-09", "2025-06-18", "2025-06-07,2025-06-08"},
		{"Thursday before Good Friday: starts on the Tuesday after Tiradentes", "2025-04-17", "2025-04-17", "2025-04-22", "2025-05-02",
			"2025-04-18,2025-04-19,2025-04-20,2025-04-21,2025-05-01"},
		{"Saturday notice counts as made on Monday: starts Tuesday", "2025-06-07", "2025-06-09", "2025-06-10", "2025-06-20",
			"2025-06-07,2025-06-08,2025-06-19"},
		{"ends on Saturday: Monday (§ 3º)", "2025-06-04", "2025-06-04", "2025-06-05", "2025-06-16", "2025-06-14,2025-06-15"},
		{"ends on a holiday: next day (§ 3º)", "2025-06-09", "2025-06-09", "2025-06-10", "2025-06-20", "2025-06-19"},
		{"Christmas eve notice", "2025-12-24", "2025-12-24", "2025-12-26", "2026-01-05", "2025-12-25,2026-01-04"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := count(t, cases.KindCriminalAppeal, tc.notified, calendar2025)
			if p.CountedFrom.String() != tc.counted || p.FirstDay.String() != tc.first || p.LastDay.String() != tc.last {
				t.Errorf("%s: counted %s first %s last %s, want %s %s %s", tc.notified, p.CountedFrom, p.FirstDay, p.LastDay, tc.counted, tc.first, tc.last)
			}
			if p.Days != 10 || p.WorkingDays || !strings.Contains(p.Rule, "art. 82, § 1º") || !strings.Contains(p.Rule, "Súmula 310") {
				t.Errorf("days %d working %v rule %q", p.Days, p.WorkingDays, p.Rule)
			}
			want := map[string]bool{}
			for _, d := range strings.Split(tc.skipped, ",") {
				if d != "" {
					want[d] = true
				}
			}
			got := map[string]bool{}
			for _, s := range p.Skipped {
				got[s.Date.String()] = true
				if s.Why == "" {
					t.Errorf("skipped %s without a reason", s.Date)
				}
			}
			if len(got) != len(want) {
				t.Errorf("skipped %s, want %s", skippedDays(p), tc.skipped)
			}
			for d := range want {
				if !got[d] {
					t.Errorf("skipped %s, want %s", skippedDays(p), tc.skipped)
				}
			}
		})
	}
	// The holiday's name is the reason given.
	p := count(t, cases.KindCriminalAppeal, "2025-06-09", calendar2025)
	if len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0].Why, "Corpus Christi") {
		t.Errorf("skipped %+v", p.Skipped)
	}
	// Deadline (the last day alone) agrees with CountPeriod.
	isHol := func(d civil.Date) bool { _, ok := calendar2025[d]; return ok }
	for _, n := range []string{"2025-06-06", "2025-04-17", "2025-06-07", "2025-12-24"} {
		if got, want := cases.Deadline(civil.MustParse(n), cases.AppealDays, isHol), count(t, cases.KindCriminalAppeal, n, calendar2025).LastDay; got != want {
			t.Errorf("Deadline(%s) = %s, CountPeriod %s", n, got, want)
		}
	}
}

// CPC arts. 1.003, § 5º, and 219: the civil appeal of group cases is 15
// working days; art. 220: no day from 20 December to 20 January counts;
// art. 224: the count starts on the first working day after the notice.
func TestCountPeriod_CPC_art1003_sec5_art219_art220_CivilWorkingDays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, notified, counted, first, last string }{
		{"Monday, Corpus Christi skipped", "2025-06-02", "2025-06-02", "2025-06-03", "2025-06-24"},
		{"across Corpus Christi", "2025-06-16", "2025-06-16", "2025-06-17", "2025-07-08"},
		{"across Good Friday, Tiradentes and 1 May", "2025-04-14", "2025-04-14", "2025-04-15", "2025-05-08"},
		{"Friday: starts Monday", "2025-06-06", "2025-06-06", "2025-06-09", "2025-06-30"},
		{"before the recess: suspended 20/12–20/01 (art. 220)", "2025-12-15", "2025-12-15", "2025-12-16", "2026-02-04"},
		{"notice during the recess counts as made on 21/01", "2026-01-05", "2026-01-21", "2026-01-22", "2026-02-11"},
		{"across Carnaval", "2026-02-09", "2026-02-09", "2026-02-10", "2026-03-04"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := count(t, cases.KindCivilAppeal, tc.notified, calendar2025)
			if p.CountedFrom.String() != tc.counted || p.FirstDay.String() != tc.first || p.LastDay.String() != tc.last {
				t.Errorf("%s: counted %s first %s last %s, want %s %s %s", tc.notified, p.CountedFrom, p.FirstDay, p.LastDay, tc.counted, tc.first, tc.last)
			}
			if p.Days != 15 || !p.WorkingDays || !strings.Contains(p.Rule, "1.003, § 5º") {
				t.Errorf("days %d working %v rule %q", p.Days, p.WorkingDays, p.Rule)
			}
			// Every day from the first to the last day is counted or skipped:
			// 15 counted, the rest skipped with a reason.
			counted := 0
			skipped := map[civil.Date]bool{}
			for _, s := range p.Skipped {
				skipped[s.Date] = true
			}
			for d := p.FirstDay; !d.After(p.LastDay); d = d.AddDays(1) {
				if !skipped[d] {
					counted++
				}
			}
			if counted != 15 {
				t.Errorf("%d working days counted between %s and %s, want 15", counted, p.FirstDay, p.LastDay)
			}
		})
	}
	p := count(t, cases.KindCivilAppeal, "2025-12-15", nil)
	found := false
	for _, s := range p.Skipped {
		if s.Date.String() == "2026-01-10" && strings.Contains(s.Why, "art. 220") {
			found = true
		}
	}
	if !found {
		t.Errorf("recess day not skipped with CPC art. 220: %+v", p.Skipped)
	}
	if _, err := cases.CountPeriod("appeal", civil.MustParse("2025-06-02"), nil); err == nil {
		t.Error("an unknown kind was counted")
	} else {
		invalidField(t, err, "kind", false)
	}
}

// GET /api/v1/legal/deadline in the service: the court's calendar counts
// when the court is named (CPP art. 798, § 3º); bad parameters are
// errs.Invalid naming the field.
func TestLegalDeadline_CPP_art798_sec3_CourtCalendar(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	clerk := e.user(t, "Escrivã", "clerk")
	if _, err := e.svc.AddHoliday(ctx, clerk, cases.HolidayInput{Date: "2025-06-19", Name: "Corpus Christi"}); err != nil {
		t.Fatal(err)
	}
	p, err := e.svc.LegalDeadline(ctx, cases.DeadlineQuery{NotifiedOn: "2025-06-09", Kind: "criminal_appeal", Court: court})
	if err != nil || p.LastDay.String() != "2025-06-20" || len(p.Skipped) != 1 {
		t.Fatalf("with the court's calendar: %+v %v", p, err)
	}
	p, err = e.svc.LegalDeadline(ctx, cases.DeadlineQuery{NotifiedOn: "2025-06-09", Kind: "criminal_appeal"})
	if err != nil || p.LastDay.String() != "2025-06-19" {
		t.Fatalf("without a court: %+v %v", p, err)
	}
	for _, tc := range []struct {
		q     cases.DeadlineQuery
		field string
	}{
		{cases.DeadlineQuery{Kind: "criminal_appeal"}, "notified_on"},
		{cases.DeadlineQuery{NotifiedOn: "2025-02-30", Kind: "criminal_appeal"}, "notified_on"},
		{cases.DeadlineQuery{NotifiedOn: "10/06/2025", Kind: "criminal_appeal"}, "notified_on"},
		{cases.DeadlineQuery{NotifiedOn: "1999-06-10", Kind: "criminal_appeal"}, "notified_on"},
		{cases.DeadlineQuery{NotifiedOn: "2025-06-10"}, "kind"},
		{cases.DeadlineQuery{NotifiedOn: "2025-06-10", Kind: "appeal"}, "kind"},
		{cases.DeadlineQuery{NotifiedOn: "2025-06-10", Kind: "civil_appeal", Court: "26-0100"}, "court"},
		{cases.DeadlineQuery{NotifiedOn: "2025-06-10", Kind: "civil_appeal", Court: "26.0999"}, "court"},
	} {
		_, err := e.svc.LegalDeadline(ctx, tc.q)
		invalidField(t, err, tc.field, false)
	}
}

// CPP art. 798, § 3º, and CPC art. 219 with the court's calendar kept by
// the clerk: a holiday added later moves a deadline not yet ended, and the
// case shows that it moved (moved_from and a docket movement); one added
// after the deadline ended moves nothing. The civil (group) case counts 15
// working days (CPC art. 1.003, § 5º).
func TestDeadlines_CPP_art798_sec3_HolidayAddedLaterMovesOpenDeadline(t *testing.T) {
	t.Parallel()
	mon := time.Date(2025, 6, 2, 12, 0, 0, 0, saoPaulo)
	e := newEnv(t, mon, 1)
	ctx := context.Background()
	clerk := e.user(t, "Escrivã", "clerk")
	c, d, j := e.fileOne(t, "R1")
	c5, d5, j5 := e.fileOne(t, "R5")
	if _, err := e.svc.Sentence(ctx, j, c.ID, cases.SentenceInput{DefendantID: d.ID, Ban: cases.BanInput{FirstDay: "2025-06-10", Months: ptr(6)},
		ReportingDuty: &cases.ReportingDuty{Place: "2º DP", Club: "Corinthians"}}); err != nil {
		t.Fatal(err)
	}
	e.clk.Set(mon.AddDate(0, 0, 4)) // Friday 06/06/2025
	dv, err := e.svc.Notify(ctx, clerk, c.ID, cases.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-06-06"})
	if err != nil {
		t.Fatal(err)
	}
	if dv.FirstDay.String() != "2025-06-09" || dv.LastDay.String() != "2025-06-18" || dv.DeadlineKind != cases.KindCriminalAppeal || dv.MovedFrom != nil {
		t.Fatalf("Friday notice: first %s last %s kind %s moved %v", dv.FirstDay, dv.LastDay, dv.DeadlineKind, dv.MovedFrom)
	}
	// The next day the clerk adds a municipal holiday on 18/06.
	e.clk.Set(mon.AddDate(0, 0, 5))
	if _, err := e.svc.AddHoliday(ctx, clerk, cases.HolidayInput{Date: "2025-06-18", Name: "Aniversário da cidade"}); err != nil {
		t.Fatal(err)
	}
	v, err := e.svc.Get(ctx, j, c.ID)
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
	e.clk.Set(time.Date(2025, 6, 25, 10, 0, 0, 0, saoPaulo))
	if _, err := e.svc.AddHoliday(ctx, clerk, cases.HolidayInput{Date: "2025-06-19", Name: "Corpus Christi"}); err != nil {
		t.Fatal(err)
	}
	v, _ = e.svc.Get(ctx, j, c.ID)
	if v.Deadlines[0].LastDay.String() != "2025-06-19" || v.Deadlines[0].Open {
		t.Errorf("a holiday after the end moved the deadline: %+v", v.Deadlines[0])
	}

	// A group case (civil): 15 working days.
	if c5.Flow != cases.FlowCivil {
		t.Fatalf("R5 flow %s", c5.Flow)
	}
	e.g.Exec("UPDATE cases SET status = 'judgment' WHERE id = ?", c5.ID)
	dv, err = e.svc.Notify(ctx, clerk, c5.ID, cases.NotificationInput{DefendantID: d5.ID, NotifiedOn: "2025-06-23"})
	if err != nil {
		t.Fatal(err)
	}
	if dv.DeadlineKind != cases.KindCivilAppeal || dv.Days != 15 || !dv.WorkingDays || dv.FirstDay.String() != "2025-06-24" || dv.LastDay.String() != "2025-07-14" ||
		!strings.Contains(dv.Rule, "1.003") {
		t.Errorf("civil deadline %+v", dv)
	}
	v, _ = e.svc.Get(ctx, j5, c5.ID)
	if len(v.Deadlines) != 1 || v.Deadlines[0].DeadlineKind != cases.KindCivilAppeal || v.Deadlines[0].LastDay.String() != "2025-07-14" {
		t.Errorf("civil deadlines on the case: %+v", v.Deadlines)
	}
}
