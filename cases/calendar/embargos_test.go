package calendar_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// notifyAll records the notice of the decision on day to the prosecution,
// defendant d and his defence (no waiver).
func notifyAll(t *testing.T, e *env, c *cases.Case, d cases.Defendant, day string) {
	t.Helper()
	k := e.Clerk(t)
	for _, p := range []string{calendar.PartyProsecution, calendar.PartyDefendant, calendar.PartyDefence} {
		if _, err := e.Svc.Calendar.Notify(context.Background(), k, c.ID, calendar.NotificationInput{Party: p, DefendantID: d.ID, NotifiedOn: day}); err != nil {
			t.Fatalf("notify %s on %s: %v", p, day, err)
		}
	}
}

// finalErr is the error of certifying defendant d's final judgment.
func finalErr(e *env, t *testing.T, c *cases.Case, d cases.Defendant) error {
	_, err := e.Svc.Casefile.Transition(context.Background(), e.Clerk(t), c.ID, casefile.TransitionInput{To: cases.StatusFinal, DefendantID: &d.ID})
	return err
}

// finalOnIs certifies defendant d's final judgment with the clock at
// day's noon and checks the day it records (final_on).
func finalOnIs(t *testing.T, e *env, c *cases.Case, d cases.Defendant, day time.Time, want string) {
	t.Helper()
	e.Clk.Set(day.Add(12 * time.Hour))
	if err := finalErr(e, t, c, d); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "defendants", "id = ? AND final_on = ?", d.ID, want) != 1 {
		t.Errorf("final judgment certified on %s: want final_on %s", day.Format("2006-01-02"), want)
	}
}

// Lei 9.099/1995, art. 83, § 2º (as amended by Lei 13.105/2015): embargos
// de declaração interrupt every party's appeal window as to the defendant;
// while they wait no notice is taken and the final judgment is refused
// (409 naming them); after the ruling (the judge of the case, reasoned)
// each window runs again in full from the party's notice of the ruling,
// and the judgment becomes final the day after the last one ends.
func TestEmbargosInterruptWindowsRunAgainFromRuling_Lei9099_art83_sec2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, k := sentencedR1(t, e, "")
	j := e.JudgeOf(t, c)
	notifyAll(t, e, c, d, "2025-06-10")
	e.Clk.Set(time.Date(2025, 6, 13, 12, 0, 0, 0, testenv.SaoPaulo))
	_, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefence, FiledOn: "2025-06-13"})
	casetest.InvalidField(t, err, "text", false)
	_, err = e.Svc.Calendar.FileEmbargos(ctx, j, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefence, FiledOn: "2025-06-13", Text: "Omissão quanto à detração."})
	casetest.KindIs(t, err, errs.Forbidden)
	emb, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefence, FiledOn: "2025-06-13", Text: "Omissão quanto à detração."})
	if err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "notifications", "case_id = ? AND NOT superseded", c.ID) != 0 {
		t.Error("the embargos did not interrupt the windows")
	}
	err = finalErr(e, t, c, d)
	if casetest.KindIs(t, err, errs.Conflict); err == nil || !strings.Contains(err.Error(), "embargos") {
		t.Errorf("final judgment while the embargos wait: %v", err)
	}
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, DefendantID: d.ID, NotifiedOn: "2025-06-13"})
	casetest.KindIs(t, err, errs.Conflict)

	_, err = e.Svc.Calendar.RuleEmbargos(ctx, k, emb.ID, calendar.RulingInput{Granted: casetest.Ptr(false), Text: "Não há omissão."})
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Calendar.RuleEmbargos(ctx, j, emb.ID, calendar.RulingInput{Granted: casetest.Ptr(false)})
	casetest.InvalidField(t, err, "text", false) // CF art. 93, IX
	if _, err := e.Svc.Calendar.RuleEmbargos(ctx, j, emb.ID, calendar.RulingInput{DecidedOn: "2025-06-13", Granted: casetest.Ptr(false), Text: "Não há omissão a suprir."}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Calendar.RuleEmbargos(ctx, j, emb.ID, calendar.RulingInput{DecidedOn: "2025-06-13", Granted: casetest.Ptr(true), Text: "De novo."})
	casetest.KindIs(t, err, errs.Conflict)
	err = finalErr(e, t, c, d)
	if casetest.KindIs(t, err, errs.Conflict); err == nil || !strings.Contains(err.Error(), "art. 83, § 2º") {
		t.Errorf("final judgment before the notices of the ruling: %v", err)
	}

	// The old windows (from 10/06) would end on 20/06; from the notices of
	// the ruling (16/06) they run in full again: to 26/06.
	e.Clk.Set(time.Date(2025, 6, 16, 12, 0, 0, 0, testenv.SaoPaulo))
	notifyAll(t, e, c, d, "2025-06-16")
	e.Clk.Set(time.Date(2025, 6, 24, 12, 0, 0, 0, testenv.SaoPaulo))
	casetest.KindIs(t, finalErr(e, t, c, d), errs.Conflict)
	finalOnIs(t, e, c, d, time.Date(2025, 6, 27, 0, 0, 0, 0, testenv.SaoPaulo), "2025-06-27")
}

// Lei 9.099/1995, art. 83, § 2º against the Turma Recursal's judgment
// (case 8 of a new user: a track in appeal, embargos ruled, the final
// judgment certified the same day while no notice of the ruling could be
// recorded): while the embargos wait the final judgment is refused (409
// naming them); once ruled, the notice of the ruling is recorded on the
// track in appeal (not before the ruling: 422 on notified_on) and opens
// the window against the judgment again in full (the recurso
// extraordinário's: CF art. 102, III; CPC art. 1.003, § 5º, 15 running
// days); the final judgment is 409 naming the notices and then the open
// windows, and its day is the one after the last window (an earlier
// final_on is 422).
func TestEmbargosAgainstAppealJudgment_NoticeOfRulingOnAppealTrack_Lei9099_art83_sec2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, k := sentencedR1(t, e, "")
	j := e.JudgeOf(t, c)
	e.Move(t, k, c, cases.StatusAppeal)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed", DecidedOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	emb, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefendant, FiledOn: "2025-06-10", Text: "Obscuridade no acórdão."})
	if err != nil {
		t.Fatal(err)
	}
	if emb.Against != calendar.AgainstAppealResult || emb.Late {
		t.Errorf("embargos against the judgment: %+v", emb)
	}
	if err := finalErr(e, t, c, d); err == nil || !strings.Contains(err.Error(), "embargos") {
		t.Errorf("final judgment while the embargos against the judgment wait: %v", err)
	}
	e.Clk.Set(time.Date(2025, 6, 12, 12, 0, 0, 0, testenv.SaoPaulo))
	if _, err := e.Svc.Calendar.RuleEmbargos(ctx, j, emb.ID, calendar.RulingInput{Granted: casetest.Ptr(true), Text: "Esclarecido o acórdão, sem efeito modificativo."}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, DefendantID: &d.ID, FinalOn: "2025-06-11"})
	casetest.InvalidField(t, err, "final_on", false)
	err = finalErr(e, t, c, d)
	if casetest.KindIs(t, err, errs.Conflict); err == nil || !strings.Contains(err.Error(), "falta a intimação") {
		t.Errorf("final judgment the day of the ruling, no notice of it: %v", err)
	}
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, NotifiedOn: "2025-06-11"})
	casetest.InvalidField(t, err, "notified_on", false)
	notifyAll(t, e, c, d, "2025-06-12")
	v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range v.Deadlines {
		if w.Kind != calendar.NoticeExtraordinary || w.DeadlineKind != sanctions.KindCriminalExtraordinary || w.Days != 15 || w.LastDay.String() != "2025-06-27" {
			t.Errorf("window against the judgment from the notice of 12/06: %+v", w)
		}
	}
	e.Clk.Set(time.Date(2025, 6, 20, 12, 0, 0, 0, testenv.SaoPaulo))
	err = finalErr(e, t, c, d)
	if casetest.KindIs(t, err, errs.Conflict); err == nil || !strings.Contains(err.Error(), "corre até 27/06/2025") {
		t.Errorf("final judgment while the windows run: %v", err)
	}
	e.Clk.Set(time.Date(2025, 6, 30, 12, 0, 0, 0, testenv.SaoPaulo))
	_, err = e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, DefendantID: &d.ID, FinalOn: "2025-06-27"})
	casetest.InvalidField(t, err, "final_on", false)
	finalOnIs(t, e, c, d, time.Date(2025, 6, 30, 0, 0, 0, 0, testenv.SaoPaulo), "2025-06-28")
}
