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
	"github.com/juizado/juizado/internal/civil"
)

// A court calendar of 2025–2026 national holidays.
var calendar2025 = calendar.Holidays{
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

func count(t *testing.T, kind, notified string, hol calendar.Holidays) calendar.Period {
	t.Helper()
	p, err := calendar.CountPeriod(kind, civil.MustParse(notified), hol)
	if err != nil {
		t.Fatalf("CountPeriod(%s, %s): %v", kind, notified, err)
	}
	return p
}

func skippedDays(p calendar.Period) string {
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
			p := count(t, calendar.KindCriminalAppeal, tc.notified, calendar2025)
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
	p := count(t, calendar.KindCriminalAppeal, "2025-06-09", calendar2025)
	if len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0].Why, "Corpus Christi") {
		t.Errorf("skipped %+v", p.Skipped)
	}
	// Deadline (the last day alone) agrees with CountPeriod.
	isHol := func(d civil.Date) bool { _, ok := calendar2025[d]; return ok }
	for _, n := range []string{"2025-06-06", "2025-04-17", "2025-06-07", "2025-12-24"} {
		if got, want := deadline(civil.MustParse(n), calendar.AppealDays, isHol), count(t, calendar.KindCriminalAppeal, n, calendar2025).LastDay; got != want {
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
			p := count(t, calendar.KindCivilAppeal, tc.notified, calendar2025)
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
	p := count(t, calendar.KindCivilAppeal, "2025-12-15", nil)
	found := false
	for _, s := range p.Skipped {
		if s.Date.String() == "2026-01-10" && strings.Contains(s.Why, "art. 220") {
			found = true
		}
	}
	if !found {
		t.Errorf("recess day not skipped with CPC art. 220: %+v", p.Skipped)
	}
	if _, err := calendar.CountPeriod("appeal", civil.MustParse("2025-06-02"), nil); err == nil {
		t.Error("an unknown kind was counted")
	} else {
		casetest.InvalidField(t, err, "kind", false)
	}
}

// GET /api/v1/legal/deadline in the service: the court's calendar counts
// when the court is named (CPP art. 798, § 3º); bad parameters are
// errs.Invalid naming the field.
func TestLegalDeadline_CPP_art798_sec3_CourtCalendar(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	if _, err := e.Svc.Calendar.AddHoliday(ctx, clerk, calendar.HolidayInput{Date: "2025-06-19", Name: "Corpus Christi"}); err != nil {
		t.Fatal(err)
	}
	p, err := e.Svc.Calendar.LegalDeadline(ctx, calendar.DeadlineQuery{NotifiedOn: "2025-06-09", Kind: "criminal_appeal", Court: court})
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
	mon := time.Date(2025, 6, 2, 12, 0, 0, 0, saoPaulo)
	e := newEnv(t, mon, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	c5, d5, j5 := e.FileOne(t, "R5")
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{DefendantID: d.ID, Ban: decisions.BanInput{FirstDay: "2025-06-10", Months: casetest.Ptr(6)},
		ReportingDuty: &cases.ReportingDuty{Place: "2º DP", Club: "Corinthians"}}); err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(mon.AddDate(0, 0, 4)) // Friday 06/06/2025
	dv, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, calendar.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-06-06"})
	if err != nil {
		t.Fatal(err)
	}
	if dv.FirstDay.String() != "2025-06-09" || dv.LastDay.String() != "2025-06-18" || dv.DeadlineKind != calendar.KindCriminalAppeal || dv.MovedFrom != nil {
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
	e.Clk.Set(time.Date(2025, 6, 25, 10, 0, 0, 0, saoPaulo))
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
	if dv.DeadlineKind != calendar.KindCivilAppeal || dv.Days != 15 || !dv.WorkingDays || dv.FirstDay.String() != "2025-06-24" || dv.LastDay.String() != "2025-07-14" ||
		!strings.Contains(dv.Rule, "1.003") {
		t.Errorf("civil deadline %+v", dv)
	}
	v, _ = e.Svc.Casefile.Get(ctx, j5, c5.ID)
	if len(v.Deadlines) != 1 || v.Deadlines[0].DeadlineKind != calendar.KindCivilAppeal || v.Deadlines[0].LastDay.String() != "2025-07-14" {
		t.Errorf("civil deadlines on the case: %+v", v.Deadlines)
	}
}

// CPP art. 798 §§ 1º and 3º, Lei 9.099/1995 art. 82 § 1º: ten days from the
// notification, the notification day excluded and the last day included;
// a last day on a weekend or a court holiday moves to the next working day.
func TestDeadline_Lei9099_art82_sec1_CPP_art798(t *testing.T) {
	t.Parallel()
	holidays := map[string]bool{
		"2025-04-18": true, // Paixão de Cristo (Friday)
		"2025-04-21": true, // Tiradentes (Monday)
		"2025-06-19": true, // Corpus Christi (Thursday)
		"2025-11-20": true, // Consciência Negra (Thursday)
		"2026-01-01": true, // Confraternização Universal (Thursday)
	}
	isHoliday := func(d civil.Date) bool { return holidays[d.String()] }
	for _, tc := range []struct{ name, notified, want string }{
		{"weekday to weekday", "2025-06-02", "2025-06-12"},
		{"ends on Saturday: Monday", "2025-06-04", "2025-06-16"},
		{"ends on Sunday: Monday", "2025-06-05", "2025-06-16"},
		{"notified on Friday: the count starts on Monday (Súmula 310 STF)", "2025-06-06", "2025-06-18"},
		{"ends on a holiday: next day", "2025-06-09", "2025-06-20"},
		{"holiday, weekend and holiday again", "2025-04-08", "2025-04-22"},
		{"Consciência Negra", "2025-11-10", "2025-11-21"},
		{"year end: 1 January", "2025-12-22", "2026-01-02"},
		{"year end: notified on Friday 26/12, starts Monday 29/12", "2025-12-26", "2026-01-07"},
		{"leap year", "2024-02-19", "2024-02-29"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := deadline(civil.MustParse(tc.notified), calendar.AppealDays, isHoliday)
			if got.String() != tc.want {
				t.Errorf("deadline(%s) = %s, want %s", tc.notified, got, tc.want)
			}
		})
	}
	// Without the court's calendar a holiday is a working day.
	if got := deadline(civil.MustParse("2025-06-09"), calendar.AppealDays, nil); got.String() != "2025-06-19" {
		t.Errorf("without holidays: %s, want 2025-06-19", got)
	}
}

// weekend reports whether d is a Saturday or a Sunday.
func weekend(d civil.Date) bool {
	switch time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Weekday() {
	case time.Saturday, time.Sunday:
		return true
	}
	return false
}

// deadline is the last day of a procedural term of days running days
// counted from the notification (ciência) on notified, written out as the
// law says it, to check calendar.CountPeriod against: a notification on a
// day without court business (weekend or court holiday) counts as made on
// the next working day; the term starts on the first working day after it
// (CPP art. 798, § 1º, with Súmula 310 do STF: a notice on a Friday starts
// it on Monday), counts running days, and a last day on a weekend or a
// court holiday moves to the next working day (§ 3º). holiday may be nil.
func deadline(notified civil.Date, days int, holiday func(civil.Date) bool) civil.Date {
	off := func(d civil.Date) bool { return weekend(d) || (holiday != nil && holiday(d)) }
	walk := func(d civil.Date) civil.Date {
		for i := 0; off(d) && i < 400; i++ { // 400: calendar's bound on skipped days
			d = d.AddDays(1)
		}
		return d
	}
	first := walk(walk(notified).AddDays(1))
	return walk(first.AddDays(days - 1))
}
