package casefile_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// coDefendants files R1 against its defendant and a second fan with
// another CPF, distributed: two tracks in one case.
func coDefendants(t *testing.T, e *env) (*cases.Case, cases.Defendant, cases.Defendant, actor.Actor) {
	t.Helper()
	r := casetest.Fixture(t, "R1")
	second := r.Defendants[0]
	cpf := "390.996.030-88"
	second.CPF, second.FullName, second.MotherName = &cpf, "Márcia Exemplo Nogueira", "Lúcia Exemplo"
	r.Defendants = append(r.Defendants, second)
	c := e.File(t, r)
	ds := e.Defendants(t, c.ID)
	return c, ds[0], ds[1], e.JudgeOf(t, c)
}

// newTrack is a fresh environment (in parallel) with a distributed case of
// two co-defendants (coDefendants): the context, the clerk, the case, its
// defendants and its judge.
func newTrack(t *testing.T) (*env, context.Context, actor.Actor, *cases.Case, cases.Defendant, cases.Defendant, actor.Actor) {
	t.Helper()
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	c, a, b, j := coDefendants(t, e)
	return e, context.Background(), e.Clerk(t), c, a, b, j
}

// step makes transition in of case c by actor a, failing the test on error.
func step(t *testing.T, e *env, a actor.Actor, c *cases.Case, in casefile.TransitionInput) *casefile.View {
	t.Helper()
	v, err := e.Svc.Casefile.Transition(context.Background(), a, c.ID, in)
	if err != nil {
		t.Fatalf("transition %+v by %s: %v", in, a.Role, err)
	}
	c.Status = v.Status
	return v
}

// tracks reads case c and returns each defendant's status by id.
func tracks(t *testing.T, e *env, c *cases.Case) (map[int64]string, *casefile.View) {
	t.Helper()
	v, err := e.Svc.Casefile.Get(context.Background(), e.Pros, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]string{}
	for _, d := range v.Defendants {
		out[d.ID] = d.Status
	}
	return out, v
}

func wantTracks(t *testing.T, e *env, c *cases.Case, caseStatus string, want map[int64]string) *casefile.View {
	t.Helper()
	got, v := tracks(t, e, c)
	for id, st := range want {
		if got[id] != st {
			t.Errorf("defendant %d in %q, want %q", id, got[id], st)
		}
	}
	if v.Status != caseStatus {
		t.Errorf("case status %q, want %q (the least advanced open track)", v.Status, caseStatus)
	}
	return v
}

// notifyAll records, waived, the notices of defendant d: his, his
// defence's and the prosecution's as to him.
func notifyAll(t *testing.T, e *env, c *cases.Case, d cases.Defendant, day string) {
	t.Helper()
	k := e.Clerk(t)
	for _, n := range []calendar.NotificationInput{{Party: calendar.PartyDefendant, DefendantID: d.ID}, {Party: calendar.PartyDefence, DefendantID: d.ID},
		{Party: calendar.PartyProsecution, DefendantID: d.ID}} {
		n.NotifiedOn, n.WaivedAppeal = day, true
		if _, err := e.Svc.Calendar.Notify(context.Background(), k, c.ID, n); err != nil {
			t.Fatalf("notify %+v: %v", n, err)
		}
	}
}

// The plea homologated for one defendant does not move the other, who is
// accused, his accusation received and sentenced (Lei 9.099/1995, arts.
// 76 and 77; the organiser, LGE art. 201, § 6º, may not take the plea and
// must be tried); the case shows each track and summarises them.
func TestTrack_PleaForOneTrialForTheOther_Lei9099_art76_art77(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	wantTracks(t, e, c, cases.StatusPreliminaryHearing, map[int64]string{a.ID: cases.StatusPreliminaryHearing, b.ID: cases.StatusPreliminaryHearing})
	if _, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: a.ID, Months: casetest.Ptr(6)}); err != nil {
		t.Fatal(err)
	}
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPleaAccepted, DefendantID: &a.ID})
	if _, err := e.Svc.Decisions.Homologate(ctx, j, c.ID, decisions.HomologateInput{DefendantID: a.ID}); err != nil {
		t.Fatal(err)
	}
	wantTracks(t, e, c, cases.StatusPreliminaryHearing, map[int64]string{a.ID: cases.StatusExecuting, b.ID: cases.StatusPreliminaryHearing})
	// Without defendant_id, the accusation reaches the one track that allows it.
	step(t, e, e.Pros, c, casefile.TransitionInput{To: cases.StatusAccusation})
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusInstructionHearing})
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(b.ID, "", 12)); err != nil {
		t.Fatalf("the co-defendant is still tried: %v", err)
	}
	v := wantTracks(t, e, c, cases.StatusSentenced, map[int64]string{a.ID: cases.StatusExecuting, b.ID: cases.StatusSentenced})
	for _, d := range v.Defendants {
		if d.FinalOn != nil {
			t.Errorf("defendant %d final on %v before any final judgment", d.ID, d.FinalOn)
		}
	}
	// No track allows the receipt now: 422 on to, naming each track.
	_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusInstructionHearing})
	if msg := casetest.InvalidField(t, err, "to", false); !strings.Contains(msg, "executing") || !strings.Contains(msg, "sentenced") {
		t.Errorf("message %q does not name each track", msg)
	}
}

// No conviction nor acquittal without the accusation received for that
// defendant (Lei 9.099/1995, arts. 77 and 81): 422 on defendant_id, nothing
// written; the docket says the receipt, no hearing held.
func TestTrack_NoSentenceWithoutAccusationReceived_Lei9099_art77_art81(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	moves := e.Count(t, "movements", "case_id = ?", c.ID)
	for _, in := range []decisions.SentenceInput{casetest.SentenceIn(a.ID, "", 12),
		{DefendantID: a.ID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VII"}} {
		_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
		if msg := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(msg, "arts. 77 e 81") {
			t.Errorf("message %q does not cite arts. 77 and 81", msg)
		}
	}
	if n := e.Count(t, "movements", "case_id = ?", c.ID); n != moves {
		t.Errorf("a refused sentence wrote %d movements", n-moves)
	}
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	step(t, e, e.Pros, c, casefile.TransitionInput{To: cases.StatusAccusation})
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusInstructionHearing, DefendantID: &a.ID})
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(b.ID, "", 12))
	casetest.InvalidField(t, err, "defendant_id", false) // his accusation was offered, not received
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(a.ID, "", 12)); err != nil {
		t.Fatal(err)
	}
	_, v := tracks(t, e, c)
	for _, m := range v.Movements {
		if strings.Contains(m.Description, "Realizada a audiência") || strings.Contains(m.Description, "Etapas não registradas") {
			t.Errorf("the docket claims what did not happen: %q", m.Description)
		}
	}
	if n := e.Count(t, "movements", "case_id = ? AND tpu_code = ? AND description LIKE 'Quanto a %Recebida a denúncia%'", c.ID, cases.TPUOf(cases.MoveReceipt)); n != 1 {
		t.Errorf("%d receipt movements naming the defendant, want 1", n)
	}
}

// One defendant in conditional suspension and the other convicted: the
// convicted one's notices are accepted, his judgment becomes final on his
// own windows, and his ban starts then (Lei 9.099/1995, arts. 82, § 1º, and
// 89; Súmula 643 STJ); the expired suspension ends only its own track (§ 5º).
func TestTrack_SuspensionAndConvictionFinalPerDefendant_Lei9099_art82_art89(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	step(t, e, e.Pros, c, casefile.TransitionInput{To: cases.StatusAccusation})
	if _, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: a.ID, Months: casetest.Ptr(24)})); err != nil {
		t.Fatal(err)
	}
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusInstructionHearing}) // only b's track allows it
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(b.ID, "", 12))
	if err != nil {
		t.Fatal(err)
	}
	// a is not sentenced: his notice is refused, b's are taken.
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: a.ID, NotifiedOn: "2025-06-10"})
	casetest.KindIs(t, err, errs.Conflict)
	notifyAll(t, e, c, b, "2025-06-10")
	v := step(t, e, k, c, casefile.TransitionInput{To: cases.StatusFinal, DefendantID: &b.ID})
	wantTracks(t, e, c, cases.StatusConditionalSuspension, map[int64]string{a.ID: cases.StatusConditionalSuspension, b.ID: cases.StatusFinal})
	for _, d := range v.Defendants {
		if (d.ID == b.ID) != (d.FinalOn != nil) || (d.FinalOn != nil && d.FinalOn.String() != "2025-06-10") {
			t.Errorf("defendant %d final_on %v, want 2025-06-10 for %d only", d.ID, d.FinalOn, b.ID)
		}
	}
	var ban sanctions.Ban
	if err := e.G.Take(&ban, res.Ban.ID).Error; err != nil {
		t.Fatal(err)
	}
	if ban.Status != sanctions.StatusActive || ban.FirstDay == nil || ban.FirstDay.String() != "2025-06-10" {
		t.Errorf("ban %s from %v, want in force from his final judgment", ban.Status, ban.FirstDay)
	}
	// Two years later the suspension's period ended: only a's track ends.
	e.Clk.Set(testenv.T0.AddDate(2, 0, 2))
	step(t, e, j, c, casefile.TransitionInput{To: cases.StatusExtinct, Cause: cases.CauseSuspensionEnded, DefendantID: &a.ID})
	wantTracks(t, e, c, cases.StatusFinal, map[int64]string{a.ID: cases.StatusExtinct, b.ID: cases.StatusFinal})
}

// The final judgment of a defendant starts his ban whatever a
// co-defendant's appeal (DOMAIN.md §4: the trânsito em julgado is per
// defendant; Lei 9.099/1995, art. 82); without defendant_id, it reaches
// the defendants whose judgment can become final.
func TestTrack_BanStartsAtOwnFinalityDespiteCoDefendantAppeal_Lei9099_art82(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	e.Receive(t, c)
	for _, d := range []cases.Defendant{a, b} {
		if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12)); err != nil {
			t.Fatal(err)
		}
	}
	// The prosecution's notice without defendant_id is as to both.
	if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2025-06-10", WaivedAppeal: true}); err != nil {
		t.Fatal(err)
	}
	if n := e.Count(t, "notifications", "case_id = ? AND party = 'prosecution' AND defendant_id IS NOT NULL", c.ID); n != 2 {
		t.Errorf("%d prosecution notices, want one per sentenced defendant", n)
	}
	for _, d := range []cases.Defendant{a, b} {
		for _, p := range []string{calendar.PartyDefendant, calendar.PartyDefence} {
			if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: p, DefendantID: d.ID, NotifiedOn: "2025-06-10", WaivedAppeal: d.ID == b.ID}); err != nil {
				t.Fatal(err)
			}
		}
	}
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusAppeal, DefendantID: &a.ID})
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusFinal}) // b's only: a's appeal awaits its result
	wantTracks(t, e, c, cases.StatusAppeal, map[int64]string{a.ID: cases.StatusAppeal, b.ID: cases.StatusFinal})
	var active, waiting int64
	e.G.Model(&sanctions.Ban{}).Where("defendant_id = ? AND status = 'active'", b.ID).Count(&active)
	e.G.Model(&sanctions.Ban{}).Where("defendant_id = ? AND status = 'awaiting_final'", a.ID).Count(&waiting)
	if active != 1 || waiting != 1 {
		t.Errorf("b's bans in force %d (want 1), a's awaiting %d (want 1)", active, waiting)
	}
	_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, DefendantID: &a.ID})
	casetest.KindIs(t, err, errs.Conflict)
}

// Undoing a breached plea (Súmula Vinculante 35) sends only that
// defendant back to the prosecutor.
func TestTrack_UndoPleaMovesOnlyThatDefendant_SV35(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	step(t, e, e.Pros, c, casefile.TransitionInput{To: cases.StatusAccusation, DefendantID: &b.ID})
	if _, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: a.ID, Months: casetest.Ptr(6), FirstDay: "2025-06-01"}); err != nil {
		t.Fatal(err)
	}
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPleaAccepted})
	h, err := e.Svc.Decisions.Homologate(ctx, j, c.ID, decisions.HomologateInput{})
	if err != nil {
		t.Fatal(err)
	}
	br, err := e.Svc.Execution.RecordBreach(ctx, e.Pros, h.Ban.ID, execution.BreachInput{OccurredOn: "2025-06-08", Source: "gate_hit", Reference: "Catraca 3"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Execution.DecideBreach(ctx, j, br.Breach.ID, execution.BreachDecisionInput{Decision: "undo_plea", Reason: "Transação descumprida."}); err != nil {
		t.Fatal(err)
	}
	wantTracks(t, e, c, cases.StatusPreliminaryHearing, map[int64]string{a.ID: cases.StatusPreliminaryHearing, b.ID: cases.StatusAccusation})
}

// The other ends, each a docketed decision of the judge on one track: the
// archive at the prosecutor's request (CPP art. 28), the rejection of the
// accusation (Lei 9.099/1995, art. 81; CPP art. 395) and the extinction of
// punishability (CP art. 107); when every track has ended, the case is
// archived.
func TestTrack_ArchiveRejectionExtinction_CPP28_CPP395_CP107(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	_, err := e.Svc.Casefile.Transition(ctx, j, c.ID, casefile.TransitionInput{To: cases.StatusArchived, DefendantID: &a.ID})
	if msg := casetest.InvalidField(t, err, "ground", false); !strings.Contains(msg, "art. 28") {
		t.Errorf("message %q does not cite CPP art. 28", msg)
	}
	_, err = e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusArchived, DefendantID: &a.ID, Ground: cases.GroundProsecutorRequest})
	casetest.KindIs(t, err, errs.Forbidden) // the judge's
	step(t, e, j, c, casefile.TransitionInput{To: cases.StatusArchived, DefendantID: &a.ID, Ground: cases.GroundProsecutorRequest})
	wantTracks(t, e, c, cases.StatusPreliminaryHearing, map[int64]string{a.ID: cases.StatusArchived, b.ID: cases.StatusPreliminaryHearing})
	step(t, e, e.Pros, c, casefile.TransitionInput{To: cases.StatusAccusation})
	step(t, e, j, c, casefile.TransitionInput{To: cases.StatusRejected, DefendantID: &b.ID, Note: "Falta justa causa."})
	wantTracks(t, e, c, cases.StatusArchived, map[int64]string{a.ID: cases.StatusArchived, b.ID: cases.StatusRejected})
	for _, want := range []string{"CPP, art. 28", "CPP, art. 395"} {
		if n := e.Count(t, "movements", "case_id = ? AND description LIKE ?", c.ID, "%"+want+"%"); n != 1 {
			t.Errorf("%d movements citing %s, want 1", n, want)
		}
	}
	// Extinction: the cause must fit the step; death needs the certificate.
	c2, d2, _, j2 := coDefendants(t, e)
	e.Receive(t, c2)
	_, err = e.Svc.Casefile.Transition(ctx, j2, c2.ID, casefile.TransitionInput{To: cases.StatusExtinct, DefendantID: &d2.ID, Cause: cases.CausePleaFulfilled})
	casetest.InvalidField(t, err, "cause", false)
	_, err = e.Svc.Casefile.Transition(ctx, j2, c2.ID, casefile.TransitionInput{To: cases.StatusExtinct, DefendantID: &d2.ID, Cause: cases.CauseDeath})
	casetest.InvalidField(t, err, "note", false)
	step(t, e, j2, c2, casefile.TransitionInput{To: cases.StatusExtinct, DefendantID: &d2.ID, Cause: cases.CausePrescription})
	if n := e.Count(t, "movements", "case_id = ? AND description LIKE '%extinta a punibilidade%prescrição%'", c2.ID); n != 1 {
		t.Errorf("%d extinction movements, want 1", n)
	}
	if c2.Status != cases.StatusInstructionHearing {
		t.Errorf("case status %q: the co-defendant's track is still open", c2.Status)
	}
}

// The separation of a defendant's proceedings (CPP art. 80) is the
// judge's docketed decision with its reason; a step without defendant_id
// no longer reaches him.
func TestTrack_Separation_CPP80(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.Separated, DefendantID: &a.ID, Note: "x"})
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Casefile.Transition(ctx, j, c.ID, casefile.TransitionInput{To: cases.Separated, DefendantID: &a.ID})
	casetest.InvalidField(t, err, "note", false)
	v := step(t, e, j, c, casefile.TransitionInput{To: cases.Separated, DefendantID: &a.ID, Note: "Réu não localizado para a audiência."})
	for _, d := range v.Defendants {
		if (d.ID == a.ID) != (d.SeparatedOn != nil) {
			t.Errorf("defendant %d separated_on %v", d.ID, d.SeparatedOn)
		}
	}
	if n := e.Count(t, "movements", "case_id = ? AND description LIKE '%separação%CPP, art. 80%'", c.ID); n != 1 {
		t.Errorf("%d separation movements, want 1", n)
	}
	step(t, e, e.Pros, c, casefile.TransitionInput{To: cases.StatusAccusation})
	wantTracks(t, e, c, cases.StatusPreliminaryHearing, map[int64]string{a.ID: cases.StatusPreliminaryHearing, b.ID: cases.StatusAccusation})
	step(t, e, e.Pros, c, casefile.TransitionInput{To: cases.StatusAccusation, DefendantID: &a.ID})
	wantTracks(t, e, c, cases.StatusAccusation, map[int64]string{a.ID: cases.StatusAccusation, b.ID: cases.StatusAccusation})
}

// The plea agreement fulfilled extinguishes the punishability of that
// defendant only, once its ban has ended (CP art. 107; Lei 9.099/1995,
// art. 76); before, 409; the death of the agent needs the certificate
// cited (CPP art. 62) and ends his bans (CP art. 107, I).
func TestTrack_ExtinctionPleaFulfilledAndDeath_CP107(t *testing.T) {
	e, ctx, k, c, a, b, j := newTrack(t)
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	if _, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: a.ID, Months: casetest.Ptr(6)}); err != nil {
		t.Fatal(err)
	}
	step(t, e, k, c, casefile.TransitionInput{To: cases.StatusPleaAccepted})
	if _, err := e.Svc.Decisions.Homologate(ctx, j, c.ID, decisions.HomologateInput{}); err != nil {
		t.Fatal(err)
	}
	_, err := e.Svc.Casefile.Transition(ctx, j, c.ID, casefile.TransitionInput{To: cases.StatusExtinct, Cause: cases.CausePleaFulfilled, DefendantID: &a.ID})
	casetest.KindIs(t, err, errs.Conflict) // the ban still runs
	e.Receive(t, c)                        // b's track; a's is executing
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(b.ID, "", 12)); err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(testenv.T0.AddDate(0, 7, 0))
	step(t, e, j, c, casefile.TransitionInput{To: cases.StatusExtinct, Cause: cases.CausePleaFulfilled})
	wantTracks(t, e, c, cases.StatusSentenced, map[int64]string{a.ID: cases.StatusExtinct, b.ID: cases.StatusSentenced})
	step(t, e, j, c, casefile.TransitionInput{To: cases.StatusExtinct, Cause: cases.CauseDeath, DefendantID: &b.ID, Note: "Certidão de óbito às fls. 80."})
	wantTracks(t, e, c, cases.StatusArchived, map[int64]string{a.ID: cases.StatusExtinct, b.ID: cases.StatusExtinct})
	if n := e.Count(t, "bans", "defendant_id = ? AND status = 'awaiting_final'", b.ID); n != 0 {
		t.Errorf("%d bans of the dead defendant still await the final judgment", n)
	}
}
