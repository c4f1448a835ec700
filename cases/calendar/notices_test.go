package calendar_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// at is noon of day (AAAA-MM-DD) in São Paulo.
func at(t *testing.T, day string) time.Time {
	t.Helper()
	d, err := time.ParseInLocation("2006-01-02", day, testenv.SaoPaulo)
	if err != nil {
		t.Fatal(err)
	}
	return d.Add(12 * time.Hour)
}

// counsel makes the defence user name (a lawyer with oab, or the
// Defensoria of uf) and, when d is not nil, links it to d.
func counsel(t *testing.T, e *env, c *cases.Case, d *cases.Defendant, name, oab, uf string) actor.Actor {
	t.Helper()
	ctx := context.Background()
	u, _, err := accounts.EnsureUser(ctx, e.G, accounts.UserSpec{Name: name, Role: accounts.RoleDefence, OAB: oab, Defensoria: uf})
	if err != nil {
		t.Fatal(err)
	}
	if d != nil {
		if _, _, err := e.Svc.Case.LinkCounsel(ctx, e.Clerk(t), c.ID, d.ID, name); err != nil {
			t.Fatal(err)
		}
	}
	return actor.Actor{UserID: u.ID, Name: u.Name, Role: accounts.RoleDefence}
}

// electronicCase is R1 sentenced on T0 (10/06/2025), the prosecution and
// the defendant notified with a waiver (only the defence's window keeps
// the judgment from becoming final), the lawyer linked to the defendant
// and an electronic notice to the defence made available on day.
func electronicCase(t *testing.T, e *env, day, oab, uf string) (*cases.Case, cases.Defendant, actor.Actor, *calendar.DeadlineView) {
	t.Helper()
	ctx := context.Background()
	c, d, k := sentencedR1(t, e, "")
	for _, p := range []string{calendar.PartyProsecution, calendar.PartyDefendant} {
		if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: p, DefendantID: d.ID, NotifiedOn: "2025-06-10", WaivedAppeal: true}); err != nil {
			t.Fatal(err)
		}
	}
	lawyer := counsel(t, e, c, &d, "Dra. Ana Advogada", oab, uf)
	e.Clk.Set(at(t, day))
	v, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, Electronic: true})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Electronic || !v.Pending || v.AvailableOn == nil || v.AvailableOn.String() != day || v.OpenedOn != nil {
		t.Fatalf("notice made available on %s: %+v", day, v)
	}
	return c, d, lawyer, v
}

// only is the one notice the defence a lists.
func only(t *testing.T, e *env, a actor.Actor) calendar.NoticeView {
	t.Helper()
	ns, err := e.Svc.Calendar.DefenceNotices(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 1 {
		t.Fatalf("the defence lists %d notices, want 1: %+v", len(ns), ns)
	}
	return ns[0]
}

// openOn opens, with the clock at noon of day, the one notice the
// defence a lists.
func openOn(t *testing.T, e *env, a actor.Actor, day string) *calendar.NoticeView {
	t.Helper()
	e.Clk.Set(at(t, day))
	v, err := e.Svc.Calendar.OpenNotice(context.Background(), a, only(t, e, a).ID)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// window checks a notice's counts_on, first and last day of the window.
func window(t *testing.T, what string, n calendar.NoticeView, counts, first, last string, days int) {
	t.Helper()
	if n.CountsOn.String() != counts || n.FirstDay.String() != first || n.LastDay.String() != last || n.Days != days {
		t.Errorf("%s: counts_on %s, window %s to %s (%d days); want %s, %s to %s (%d)", what, n.CountsOn, n.FirstDay, n.LastDay, n.Days, counts, first, last, days)
	}
}

// Lei 11.419/2006, art. 5º, § 1º: a notice opened on a Friday (a working
// day) counts on that Friday; the appeal window (Lei 9.099/1995, art. 82,
// § 1º) starts on the Monday (CPP art. 798, § 1º; Súmula 310 STF) and ends
// on Wednesday 25/06/2025; opening again is recorded and changes nothing;
// the opening is a docket movement; the judgment becomes final the day
// after the last day.
func TestElectronicNoticeOpenedOnFriday_Lei11419_art5_sec1(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, lawyer, _ := electronicCase(t, e, "2025-06-10", "SP123456", "")
	n := only(t, e, lawyer)
	if !n.Pending || n.OpenedOn != nil || n.CountsOn.String() != "2025-06-20" {
		t.Errorf("before the opening: %+v (want pending, counting on 20/06 if not opened)", n)
	}
	e.Clk.Set(at(t, "2025-06-13"))
	v, err := e.Svc.Calendar.OpenNotice(ctx, lawyer, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Pending || v.OpenedOn == nil || v.OpenedOn.String() != "2025-06-13" || !strings.Contains(v.NoticeRule, "§ 1º") {
		t.Errorf("opened on Friday: %+v", v)
	}
	window(t, "opened on Friday 13/06", *v, "2025-06-13", "2025-06-16", "2025-06-25", 10)
	if v.DaysLeft != 13 { // 13/06 to 25/06, both included
		t.Errorf("days left on 13/06: %d, want 13", v.DaysLeft)
	}
	e.Clk.Set(at(t, "2025-06-17"))
	again, err := e.Svc.Calendar.OpenNotice(ctx, lawyer, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.OpenedOn.String() != "2025-06-13" || again.CountsOn.String() != "2025-06-13" || again.Openings != 2 {
		t.Errorf("opened again on 17/06: %+v (want the first opening kept, 2 openings)", again)
	}
	if got := e.Count(t, "movements", "case_id = ? AND kind = ?", c.ID, string(cases.MoveNoticeOpened)); got != 1 {
		t.Errorf("%d docket movements of the opening, want 1", got)
	}
	if got := e.Count(t, "movements", "case_id = ? AND kind = ?", c.ID, string(cases.MoveNoticeAvailable)); got != 1 {
		t.Errorf("%d docket movements of the availability, want 1", got)
	}
	// The case's deadlines and the final judgment count from the opening.
	ds, err := e.Svc.Calendar.Deadlines(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ds {
		if w.Party == calendar.PartyDefence && (w.NotifiedOn.String() != "2025-06-13" || w.LastDay.String() != "2025-06-25") {
			t.Errorf("the defence's deadline on the case: %+v", w)
		}
	}
	e.Clk.Set(at(t, "2025-06-25"))
	if err := finalErr(e, t, c, d); err == nil || !strings.Contains(err.Error(), "25/06/2025") {
		t.Errorf("final judgment on the last day: %v", err)
	}
	finalOnIs(t, e, c, d, at(t, "2025-06-26").Add(-12*time.Hour), "2025-06-26")
}

// Lei 11.419/2006, art. 5º, § 2º: opened on a Saturday, the notice counts
// on the next working day, Monday 16/06/2025, and the window runs from
// Tuesday 17 to Thursday 26/06.
func TestElectronicNoticeOpenedOnSaturdayCountsMonday_Lei11419_art5_sec2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	_, _, lawyer, _ := electronicCase(t, e, "2025-06-10", "SP123456", "")
	v := openOn(t, e, lawyer, "2025-06-14")
	window(t, "opened on Saturday 14/06", *v, "2025-06-16", "2025-06-17", "2025-06-26", 10)
	if v.OpenedOn.String() != "2025-06-14" || !strings.Contains(v.NoticeRule, "§ 2º") || !strings.Contains(v.NoticeRule, "sábado") {
		t.Errorf("opened on Saturday: opened_on %v, rule %q", v.OpenedOn, v.NoticeRule)
	}
}

// Lei 11.419/2006, art. 5º, § 3º: made available on Wednesday 11/06/2025
// and never opened, the notice counts on the tenth running day, Saturday
// 21/06, which has no court business: the next working day, Monday 23/06
// (STJ, REsp 1.663.172/TO). It is pending until then (computed on read
// from the clock: no job), the final judgment waits saying so, and the
// window runs from Tuesday 24/06 to Thursday 03/07; an opening after the
// tenth day changes nothing; the judgment becomes final on 04/07.
func TestElectronicNoticeNeverOpenedCountsOnTenthDay_Lei11419_art5_sec3(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, lawyer, _ := electronicCase(t, e, "2025-06-11", "SP123456", "")
	e.Clk.Set(at(t, "2025-06-20"))
	n := only(t, e, lawyer)
	if !n.Pending {
		t.Errorf("on 20/06, unopened: not pending: %+v", n)
	}
	window(t, "pending on 20/06", n, "2025-06-23", "2025-06-24", "2025-07-03", 10)
	if n.DaysLeft != 14 {
		t.Errorf("days left on 20/06: %d, want 14 (to 03/07)", n.DaysLeft)
	}
	e.Clk.Set(at(t, "2025-06-22"))
	err := finalErr(e, t, c, d)
	if casetest.KindIs(t, err, errs.Conflict); err == nil || !strings.Contains(err.Error(), "não foi aberta") {
		t.Errorf("final judgment while the notice is pending: %v", err)
	}
	e.Clk.Set(at(t, "2025-06-23"))
	n = only(t, e, lawyer)
	if n.Pending || n.OpenedOn != nil || !strings.Contains(n.NoticeRule, "§ 3º") || !strings.Contains(n.NoticeRule, "REsp 1.663.172") {
		t.Errorf("on the day it counts, unopened: %+v", n)
	}
	window(t, "counted on 23/06 unopened", n, "2025-06-23", "2025-06-24", "2025-07-03", 10)
	e.Clk.Set(at(t, "2025-06-24"))
	v, err := e.Svc.Calendar.OpenNotice(ctx, lawyer, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	window(t, "opened after the tenth day", *v, "2025-06-23", "2025-06-24", "2025-07-03", 10)
	finalOnIs(t, e, c, d, at(t, "2025-07-04").Add(-12*time.Hour), "2025-07-04")
}

// LC 80/1994, art. 128, I: the Defensoria Pública's client has its window
// doubled: opened on Friday 13/06/2025, 20 days from Monday 16/06 end on
// Saturday 05/07, moved to Monday 07/07 (CPP art. 798, § 3º).
func TestElectronicNoticeDefensoriaDoubled_LC80_art128_I(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	_, _, dp, _ := electronicCase(t, e, "2025-06-10", "", "SP")
	v := openOn(t, e, dp, "2025-06-13")
	if !v.PublicDefender {
		t.Error("the Defensoria's notice is not public_defender")
	}
	window(t, "the Defensoria's, opened on Friday", *v, "2025-06-13", "2025-06-16", "2025-07-07", 20)
}

// Only the defence linked to the defendant lists and opens his notice:
// another lawyer lists nothing and gets 404 (errs.NotFound) on opening,
// and the notice stays unopened. An electronic notice goes only to the
// defence, without a date, to a defendant with counsel in the system.
func TestElectronicNoticeOnlyItsCounsel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, lawyer, _ := electronicCase(t, e, "2025-06-10", "SP123456", "")
	other := counsel(t, e, c, nil, "Dr. Outro Advogado", "RJ654321", "")
	ns, err := e.Svc.Calendar.DefenceNotices(ctx, other)
	if err != nil || len(ns) != 0 {
		t.Errorf("another lawyer lists %v (%v)", ns, err)
	}
	id := only(t, e, lawyer).ID
	_, err = e.Svc.Calendar.OpenNotice(ctx, other, id)
	casetest.KindIs(t, err, errs.NotFound)
	if n := only(t, e, lawyer); n.OpenedOn != nil || n.Openings != 0 {
		t.Errorf("another lawyer's try opened it: %+v", n)
	}

	k := e.Clerk(t)
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: d.ID, Electronic: true, NotifiedOn: "2025-06-10"})
	casetest.InvalidField(t, err, "electronic", false)
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, Electronic: true})
	casetest.KindIs(t, err, errs.Conflict) // already made available

	c2, d2, _ := sentencedR1(t, e, "")
	_, err = e.Svc.Calendar.Notify(ctx, k, c2.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d2.ID, Electronic: true, NotifiedOn: "2025-06-10"})
	casetest.InvalidField(t, err, "notified_on", false)
	_, err = e.Svc.Calendar.Notify(ctx, k, c2.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d2.ID, Electronic: true})
	if casetest.KindIs(t, err, errs.Conflict); err == nil || !strings.Contains(err.Error(), "vinculado") {
		t.Errorf("electronic notice without counsel linked: %v", err)
	}
}
