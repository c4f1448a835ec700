package decisions_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// appealBy records party's appeal as to defendant d of case c (the
// transition to appeal, or the other party's appeal on a track already in
// appeal).
func appealBy(t *testing.T, e *env, c *cases.Case, d cases.Defendant, party string) {
	t.Helper()
	v, err := e.Svc.Casefile.Transition(context.Background(), e.Clerk(t), c.ID, casefile.TransitionInput{To: cases.StatusAppeal, DefendantID: &d.ID, Party: party})
	if err != nil {
		t.Fatalf("appeal by %s: %v", party, err)
	}
	c.Status = v.Status
}

// decidedInAppeal files R1, receives the accusation, signs the decision in
// (its defendant_id and reasoning filled) and records party's appeal; it
// returns the case and the defendant.
func decidedInAppeal(t *testing.T, e *env, in decisions.SentenceInput, party string) (*cases.Case, cases.Defendant) {
	t.Helper()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in.DefendantID, in.Text = d.ID, casetest.Reasoned()
	if _, err := e.Svc.Decisions.Sentence(context.Background(), j, c.ID, in); err != nil {
		t.Fatal(err)
	}
	appealBy(t, e, c, d, party)
	return c, d
}

// reformIn is a reform of defendant d's sentence to a ban of months.
func reformIn(d cases.Defendant, months int) decisions.AppealResultInput {
	return decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, DecidedOn: "2025-06-10", Ban: decisions.BanInput{Months: &months}}
}

// conversionIn is the Turma Recursal's conversion of defendant d's
// reclusão into a ban of months, with the reporting duty it must fix (Lei
// 14.597/2023, art. 201, §§ 2º and 4º).
func conversionIn(d cases.Defendant, months int) decisions.AppealResultInput {
	in := reformIn(d, months)
	in.ReportingDuty = casetest.Reporting()
	return in
}

// prisonIn is a conviction to 14 months of reclusão and 10 dias-multa with
// no conversion (Lei 14.597/2023, art. 201, § 2º found not met).
func prisonIn() decisions.SentenceInput {
	return decisions.SentenceInput{Outcome: decisions.OutcomePrison, Eligible: casetest.Ptr(false), PrisonMonths: casetest.Ptr(14), FineDays: casetest.Ptr(10)}
}

// CPP art. 617: on the defence's appeal alone the Turma Recursal may not
// make the sentence harsher (a longer term is 422 citing the article, a
// shorter one stands); once the prosecution appealed too (recorded on the
// track, the default appellants), the longer term is recorded.
func TestAppealHarsherWhenOnlyDefenceAppealed_CPP617(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, _, res := e.Sentenced(t, "R1", 12)
	appealBy(t, e, c, d, "defence")
	_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(d, 24))
	if msg := casetest.InvalidField(t, err, "ban.months", false); !strings.Contains(msg, "art. 617") {
		t.Errorf("harsher on the defence's appeal: %q, want CPP art. 617", msg)
	}
	in := reformIn(d, 24)
	in.Appellants = []string{"defence", "nobody"}
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, in)
	casetest.InvalidField(t, err, "appellants", false)
	if e.Count(t, "bans", "id = ? AND status = 'awaiting_final' AND months = 12", res.Ban.ID) != 1 {
		t.Fatal("a refused result changed the ban")
	}
	appealBy(t, e, c, d, "prosecution") // the other party's appeal on the track in appeal
	_, err = e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusAppeal, DefendantID: &d.ID, Party: "prosecution"})
	casetest.KindIs(t, err, errs.Conflict)
	v, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(d, 24))
	if err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "case_id = ? AND status = 'awaiting_final' AND months = 24", c.ID) != 1 || e.Count(t, "bans", "id = ? AND status = 'reformed'", res.Ban.ID) != 1 {
		t.Error("the prosecution's appeal: the longer term did not replace the ban")
	}
	if len(v.AppealResults) != 1 || strings.Join(v.AppealResults[0].Appellants, ",") != "defence,prosecution" {
		t.Errorf("appellants recorded %+v, want defence and prosecution", v.AppealResults)
	}

	// A shorter term on the defence's appeal (the default: none recorded).
	c, d, _, _ = e.Sentenced(t, "R1", 12)
	e.Move(t, k, c, cases.StatusAppeal)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(d, 6)); err != nil {
		t.Fatalf("milder result on the defence's appeal: %v", err)
	}
}

// CPP art. 617 a contrario; Lei 9.099/1995, art. 82: on the prosecution's
// appeal against an acquittal the Turma Recursal convicts; the ban is
// planned as a sentence's (the reporting duty of Lei 14.597/2023, art. 201,
// § 4º is required), waits for the final judgment and then reaches the
// blocklist. On the defence's appeal alone the conviction is 422.
func TestAppealConvictsOnProsecutionAppealAgainstAcquittal_CPP617_Lei9099_art82(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	// The defendant's own appeal is the defence's (CPP art. 577).
	c, d := decidedInAppeal(t, e, decisions.SentenceInput{Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VII"}, "defendant")
	in := reformIn(d, 12)
	in.Outcome = decisions.OutcomeBan
	_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, in)
	if msg := casetest.InvalidField(t, err, "outcome", false); !strings.Contains(msg, "617") {
		t.Errorf("conviction on the defence's appeal: %q", msg)
	}
	in.Appellants = []string{"prosecution"}
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, in)
	casetest.InvalidField(t, err, "appellants", false) // not recorded on the track
	if _, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusAppeal, DefendantID: &d.ID, Party: "prosecution"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, in)
	casetest.InvalidField(t, err, "reporting_duty", false) // planned as a sentence's conversion
	in.ReportingDuty = casetest.Reporting()
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, in); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "defendant_id = ? AND status = 'awaiting_final' AND months = 12 AND reporting_place <> ''", d.ID) != 1 ||
		e.Count(t, "sentences", "defendant_id = ? AND status = 'signed' AND outcome = 'ban' AND ban_id IS NOT NULL", d.ID) != 1 || e.InBlocklist(t, "66392332154") {
		t.Fatal("the conviction on appeal did not plan a ban awaiting the final judgment")
	}
	if _, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, DefendantID: &d.ID, FinalOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "defendant_id = ? AND status = 'active' AND first_day = '2025-06-10'", d.ID) != 1 || !e.InBlocklist(t, "66392332154") {
		t.Error("the ban of the conviction on appeal did not start at the final judgment")
	}
}

// Lei 14.597/2023, art. 201, § 2º: the Turma Recursal converts the
// reclusão of a sentence without conversion into the ban (a milder result,
// so on the defence's appeal too); the ban keeps the reclusão it converts
// and starts at the final judgment. The reverse (ban into reclusão) is
// harsher: 422 on the defence's appeal (CPP art. 617).
func TestAppealConvertsReclusaoIntoBan_LGE_art201_sec2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d := decidedInAppeal(t, e, prisonIn(), "defence")
	in := conversionIn(d, 8)
	in.Text = "Preenchidas as condições do § 2º: convertida a reclusão."
	v, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "defendant_id = ? AND status = 'awaiting_final' AND months = 8 AND prison_months = 14", d.ID) != 1 ||
		e.Count(t, "sentences", "defendant_id = ? AND status = 'signed' AND outcome = 'ban' AND prison_months = 14", d.ID) != 1 || tpuCodes(v)[cases.TPUOf(cases.MoveAppealGranted)] != 1 {
		t.Fatal("the conversion on appeal was not recorded")
	}

	c, d = decidedInAppeal(t, e, casetest.SentenceIn(0, "", 12), "defence")
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, Outcome: decisions.OutcomePrison, PrisonMonths: casetest.Ptr(14), FineDays: casetest.Ptr(10)})
	if msg := casetest.InvalidField(t, err, "outcome", false); !strings.Contains(msg, "617") {
		t.Errorf("ban into reclusão on the defence's appeal: %q", msg)
	}
}

// CPP art. 617 per defendant (DOMAIN.md §4, each defendant's track): the
// prosecution's appeal recorded on one defendant's track counts for his
// result even when a co-defendant is sentenced later, and does not reach
// the co-defendant's, whose harsher result is 422.
func TestAppealAppellantsPerDefendantTrack_CPP617(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, ds, _ := twoDefendants(t, e, "R1")
	e.Sentence12(t, c, ds[0])
	appealBy(t, e, c, ds[0], "prosecution")
	e.Clk.Set(testenv.T0.Add(time.Hour))
	e.Sentence12(t, c, ds[1])
	appealBy(t, e, c, ds[1], "defence")
	_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(ds[1], 24))
	casetest.InvalidField(t, err, "ban.months", false)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(ds[0], 24)); err != nil {
		t.Fatalf("the prosecution's appeal on his track: %v", err)
	}
}
