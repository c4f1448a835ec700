package cases_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

type reprs = cases.Representation

// Bad input is refused naming the field: text limits, control characters,
// days that do not exist, the first occurrence of a repeated CPF, a kick-off
// far from the facts.
func TestFile_TextLimitsAndDates(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	for _, tc := range []struct {
		name, field, want string
		mutate            func(r *reprs)
	}{
		{"long name", "defendants[0].full_name", "máximo", func(r *reprs) { r.Defendants[0].FullName = "Ana " + strings.Repeat("x", 300) }},
		{"control char", "defendants[0].full_name", "controle", func(r *reprs) { r.Defendants[0].FullName = "Ana\x07 Souza" }},
		{"long description", "facts.description", "máximo", func(r *reprs) { r.Facts.Description = strings.Repeat("a", 20001) }},
		{"many reports", "facts.police_reports", "máximo", func(r *reprs) { r.Facts.PoliceReports = make([]string, 51) }},
		{"29 Feb of a common year", "defendants[0].birth_date", "não existe", func(r *reprs) { r.Defendants[0].BirthDate = "2001-02-29" }},
		{"month 13", "defendants[0].birth_date", "não existe", func(r *reprs) { r.Defendants[0].BirthDate = "2001-13-01" }},
		{"kick-off years away", "event.kickoff", "48 horas", func(r *reprs) { r.Event.Kickoff = "2019-03-30T16:00:00-03:00" }},
	} {
		r := casetest.Fixture(t, "R1")
		tc.mutate(&r)
		_, err := e.Svc.Case.File(ctx, e.Pros, r)
		if msg := casetest.InvalidField(t, err, tc.field, false); !strings.Contains(msg, tc.want) {
			t.Errorf("%s: message %q lacks %q", tc.name, msg, tc.want)
		}
	}
	r := casetest.Fixture(t, "R1")
	r.Defendants = append(r.Defendants, r.Defendants[0], r.Defendants[0])
	_, err := e.Svc.Case.File(ctx, e.Pros, r)
	if msg := casetest.InvalidField(t, err, "defendants[2].cpf", false); !strings.Contains(msg, "defendants[0]") {
		t.Errorf("third copy of a CPF points to %q, want defendants[0]", msg)
	}
}

// The judge's last-day override stays within the legal range (Lei
// 14.597/2023, art. 201, § 2º: 3 months to 3 years); prison_months within
// reclusão of 1 to 2 years; facts older than 3 years warn about
// prescription (CP art. 109).
func TestSentence_OverridePrisonAndPrescription_Art201(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in := casetest.SentenceIn(d.ID, "2025-07-01", 36)
	in.Ban.LastDayOverride, in.Ban.OverrideReason = "2035-01-01", "motivo"
	if msg := casetest.InvalidField(t, func() error { _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in); return err }(), "ban.last_day_override", false); !strings.Contains(msg, "art. 201") {
		t.Errorf("override message %q does not name art. 201", msg)
	}
	in = casetest.SentenceIn(d.ID, "2025-07-01", 12)
	in.PrisonMonths = casetest.Ptr(100)
	casetest.InvalidField(t, func() error { _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in); return err }(), "prison_months", false)
	in = casetest.SentenceIn(d.ID, "2025-07-01", 12)
	in.Ban.FirstDay = "2025-02-30"
	if msg := casetest.InvalidField(t, func() error { _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in); return err }(), "ban.first_day", false); !strings.Contains(msg, "não existe") {
		t.Errorf("first day message %q", msg)
	}
	// Upper bound accepted: the last day of the maximum term (2028-06-30).
	in = casetest.SentenceIn(d.ID, "2025-07-01", 12)
	in.Ban.LastDayOverride, in.Ban.OverrideReason = "2028-06-30", "leitura do juízo"
	in.PrisonMonths = casetest.Ptr(18)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ban.LastDay.String() != "2028-06-30" || res.Ban.ComputedLastDay.String() != "2026-06-30" {
		t.Errorf("last day %v computed %v", res.Ban.LastDay, res.Ban.ComputedLastDay)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "prescrição") {
			t.Errorf("facts of 2025 sentenced in %v warn about prescription: %q", testenv.T0, w)
		}
	}
	// R8: facts of 2008 → prescription warning.
	c8, d8, j8 := e.FileOne(t, "R8")
	e.Receive(t, c8)
	res, err = e.Svc.Decisions.Sentence(ctx, j8, c8.ID, casetest.SentenceIn(d8.ID, "", 6))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, " "), "prescrição") {
		t.Errorf("facts of 2008: no prescription warning in %v", res.Warnings)
	}
}

// A ban's state follows the court's calendar: not started, in force, ended
// (the status stays active), lifted.
func TestBanStateFollowsTheCalendar(t *testing.T) {
	last := civil.MustParse("2025-08-31")
	first := civil.MustParse("2025-06-01")
	b := sanctions.Ban{Status: "active", FirstDay: &first, LastDay: &last}
	for day, want := range map[string]string{"2025-05-31": "not_started", "2025-06-01": "in_force", "2025-08-31": "in_force", "2025-09-01": "ended"} {
		if got := b.State(civil.MustParse(day)); got != want {
			t.Errorf("%s: %s, want %s", day, got, want)
		}
	}
	b.Status = "lifted"
	if got := b.State(civil.MustParse("2025-07-01")); got != "lifted" {
		t.Errorf("lifted ban: %s", got)
	}
	b.Status, b.LastDay = "active", nil
	if got := b.State(civil.MustParse("2030-01-01")); got != "in_force" {
		t.Errorf("precautionary ban: %s", got)
	}
}
