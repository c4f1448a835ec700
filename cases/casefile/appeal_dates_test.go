package casefile_test

import (
	"context"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// appealed files ref, sentences its first defendant to 12 months on the
// clock's day (10/06/2025) and lodges the appeal (Lei 9.099/1995, art. 82).
func appealed(t *testing.T, e *env, ref string) (*cases.Case, cases.Defendant, int64) {
	t.Helper()
	c, d, _, res := e.Sentenced(t, ref, 12)
	e.Move(t, e.Clerk(t), c, cases.StatusAppeal)
	return c, d, res.Ban.ID
}

// Lei 9.099/1995, art. 82: the Turma Recursal judges the appeal of a signed
// sentence, so its decision (decided_on) is not before the sentence's day;
// and the final judgment (final_on) is not before the sentence, the
// appeal's result nor the last notification: each is a 422 on its field,
// never a failed check of the bans table (first_day >= facts_date), and
// the ban keeps waiting for the final judgment (Súmula 643 STJ).
func TestAppealResult_Lei_9099_art_82_DecidedOnAndFinalOnNotBeforeSentence(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, banID := appealed(t, e, "R1") // sentence signed on 10/06/2025
	for _, day := range []string{"2025-06-09", "2020-01-01"} {
		_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed", DefendantID: d.ID, DecidedOn: day})
		casetest.InvalidField(t, err, "decided_on", false)
	}
	if n := e.Count(t, "appeal_results", "case_id = ?", c.ID); n != 0 {
		t.Fatalf("%d appeal results recorded before the sentence", n)
	}
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed", DefendantID: d.ID, DecidedOn: "2025-06-10"}); err != nil {
		t.Fatalf("decided on the sentence's day: %v", err)
	}
	for _, day := range []string{"2020-01-01", "2025-06-09"} {
		_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, FinalOn: day})
		casetest.InvalidField(t, err, "final_on", false)
	}
	if e.Count(t, "bans", "id = ? AND status = ? AND first_day IS NULL", banID, sanctions.StatusAwaitingFinal) != 1 {
		t.Error("a refused final judgment started the ban")
	}
	if _, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, FinalOn: "2025-06-10"}); err != nil {
		t.Fatalf("final on the appeal's day: %v", err)
	}
	if e.Count(t, "bans", "id = ? AND status = 'active' AND first_day = '2025-06-10'", banID) != 1 {
		t.Error("the ban did not start at the final judgment of 10/06/2025")
	}
}

// Lei 9.099/1995, art. 82, § 1º: the judgment after an appeal becomes final
// only after every notification of the sentence; a final_on before the last
// notification is a 422 on final_on.
func TestFinalJudgment_Lei_9099_art_82_sec1_FinalOnNotBeforeLastNotification(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12)); err != nil { // 10/06/2025
		t.Fatal(err)
	}
	e.Clk.Set(testenv.T0.Add(10 * 24 * time.Hour)) // 20/06/2025
	if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: d.ID, NotifiedOn: "2025-06-15"}); err != nil {
		t.Fatal(err)
	}
	e.Move(t, k, c, cases.StatusAppeal)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed", DefendantID: d.ID, DecidedOn: "2025-06-12"}); err != nil {
		t.Fatal(err)
	}
	_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, FinalOn: "2025-06-13"})
	casetest.InvalidField(t, err, "final_on", false)
	if _, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, FinalOn: "2025-06-15"}); err != nil {
		t.Fatalf("final on the day of the last notification: %v", err)
	}
}

// bans_check (first_day >= facts_date) is tested before the update: a final
// judgment that would start a ban before the facts it punishes (here a ban
// whose facts were corrected to a later day) is a 422 on final_on, not a
// failed constraint (a 500).
func TestFinalJudgment_BanNotBeforeFacts_NoConstraintFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, banID := appealed(t, e, "R1")
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed", DefendantID: d.ID, DecidedOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	if err := e.G.Exec("UPDATE bans SET facts_date = '2025-06-11' WHERE id = ?", banID).Error; err != nil {
		t.Fatal(err)
	}
	_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, FinalOn: "2025-06-10"})
	casetest.InvalidField(t, err, "final_on", false)
}

// LGE art. 183 (TAC: decisions.Service.Settle): the settlement's answer shows
// its ban as every other answer does: status is the state on the court's
// day (in_force, not_started...), with state and state_pt, the same as the
// case's view shows; never the stored "active".
func TestSettlement_TAC_Art183_BanStatusIsItsState(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	if err := e.G.Exec("INSERT INTO fan_groups (name, supported_club, court_code) VALUES ('TORCIDA ORGANIZADA GARRA DO TATUAPE', 'Corinthians', '26.0100')").Error; err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ first, state string }{{"2025-06-10", "in_force"}, {"2025-07-01", "not_started"}} {
		c, d, j := e.FileOne(t, "R5")
		e.Receive(t, c)
		e.Move(t, e.Clerk(t), c, cases.StatusHearing)
		res, err := e.Svc.Decisions.Settle(ctx, j, c.ID, decisions.SettlementInput{DefendantID: d.ID, Terms: "A torcida não comparecerá aos estádios.", StadiumBan: true, Months: casetest.Ptr(12), FirstDay: tc.first})
		if err != nil {
			t.Fatalf("first day %q: %v", tc.first, err)
		}
		b := res.Ban
		if b == nil || b.APIStatus != tc.state || b.State != tc.state || b.StatePT != sanctions.StatePT[tc.state] {
			t.Fatalf("first day %q: settlement ban %+v, want status = state = %s", tc.first, b, tc.state)
		}
		v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range v.Bans {
			if g.ID == b.ID && (g.APIStatus != b.APIStatus || g.State != b.State || g.StatePT != b.StatePT) {
				t.Errorf("first day %q: the case shows %s/%s, the settlement answered %s/%s", tc.first, g.APIStatus, g.State, b.APIStatus, b.State)
			}
		}
	}
}
