package decisions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// finalFor records every party's notice with a waiver as to defendant d of
// case c (Lei 9.099/1995, art. 82, § 1º) and certifies his final judgment.
func finalFor(t *testing.T, e *env, c *cases.Case, d cases.Defendant) {
	t.Helper()
	ctx := context.Background()
	k := e.Clerk(t)
	for _, p := range []string{calendar.PartyProsecution, calendar.PartyDefendant, calendar.PartyDefence} {
		if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: p, DefendantID: d.ID, NotifiedOn: "2025-06-10", WaivedAppeal: true}); err != nil {
			t.Fatalf("notice to %s: %v", p, err)
		}
	}
	if _, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, DefendantID: &d.ID}); err != nil {
		t.Fatalf("final judgment of %s: %v", d.FullName, err)
	}
}

// annulled is the Turma Recursal's annulment of defendant d's sentence
// (d 0: without defendant_id).
func annulled(d int64) decisions.AppealResultInput {
	return decisions.AppealResultInput{Result: "annulled", DefendantID: d, DecidedOn: "2025-06-10"}
}

// trackOf is defendant d's own status (DOMAIN.md §4) in case c's view.
func trackOf(t *testing.T, e *env, c *cases.Case, d cases.Defendant) string {
	t.Helper()
	v, err := e.Svc.Casefile.Get(context.Background(), e.Clerk(t), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range v.Defendants {
		if x.ID == d.ID {
			return x.Status
		}
	}
	t.Fatalf("defendant %d not in case %d", d.ID, c.ID)
	return ""
}

// CF art. 5º, XXXVI (coisa julgada) and DOMAIN.md §4 (each defendant's
// track): an annulment recorded without defendant_id reaches only the
// tracks in appeal; a co-defendant who did not appeal keeps his sentence
// and its ban awaiting the final judgment, one whose judgment is final
// keeps his ban in force. Naming a co-defendant not in appeal is 409; an
// annulment without defendant_id when no track is in appeal is 422 on
// defendant_id (a confirmation stays 409).
func TestAppealAnnulledWithoutDefendant_OnlyTracksInAppeal_CF_art5_XXXVI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	sentence := e.Sentence12

	// Both sentenced; only the second appealed.
	c, ds, _ := twoDefendants(t, e, "R1")
	stay, gone := sentence(t, c, ds[0]), sentence(t, c, ds[1])
	appealBy(t, e, c, ds[1], "defence")
	_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, annulled(ds[0].ID))
	casetest.KindIs(t, err, errs.Conflict) // his track is not in appeal
	v, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, annulled(0))
	if err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "sentences", "defendant_id = ? AND status = 'signed'", ds[0].ID) != 1 || e.Count(t, "bans", "id = ? AND status = 'awaiting_final'", stay) != 1 {
		t.Error("the annulment reached the sentence of a co-defendant who did not appeal")
	}
	if e.Count(t, "sentences", "defendant_id = ? AND status = 'annulled'", ds[1].ID) != 1 || e.Count(t, "bans", "id = ? AND status = 'annulled'", gone) != 1 {
		t.Error("the annulment did not reach the track in appeal")
	}
	if trackOf(t, e, c, ds[0]) != cases.StatusSentenced || trackOf(t, e, c, ds[1]) != cases.StatusInstructionHearing {
		t.Errorf("tracks after the annulment: %s, %s", trackOf(t, e, c, ds[0]), trackOf(t, e, c, ds[1]))
	}
	if len(v.AppealResults) != 1 || v.AppealResults[0].DefendantID == nil || *v.AppealResults[0].DefendantID != ds[1].ID {
		t.Errorf("appeal results %+v, want one for the defendant in appeal", v.AppealResults)
	}
	// No track in appeal now.
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, annulled(0))
	if msg := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(msg, "XXXVI") {
		t.Errorf("annulment with no track in appeal: %q", msg)
	}
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed"})
	casetest.KindIs(t, err, errs.Conflict)

	// The first's judgment final, the second in appeal.
	c, ds, _ = twoDefendants(t, e, "R1")
	final := sentence(t, c, ds[0])
	finalFor(t, e, c, ds[0])
	gone = sentence(t, c, ds[1])
	appealBy(t, e, c, ds[1], "defence")
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, annulled(0)); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "sentences", "defendant_id = ? AND status = 'signed'", ds[0].ID) != 1 || e.Count(t, "bans", "id = ? AND status = 'active'", final) != 1 || !e.InBlocklist(t, "66392332154") {
		t.Error("the annulment reached a sentence whose judgment is final (res judicata)")
	}
	if e.Count(t, "bans", "id = ? AND status = 'annulled'", gone) != 1 || trackOf(t, e, c, ds[0]) != cases.StatusFinal {
		t.Error("the annulment of the track in appeal")
	}
}

// CPP art. 386, parágrafo único, II: the Turma Recursal's acquittal (the
// sentence reformed, not signed as an acquittal) ends the precautionary
// ban in force, off the blocklist in the same transaction, and a new
// precautionary ban for the acquitted defendant is 422 on defendant_id.
func TestPrecautionaryAfterAcquittalOnAppeal_CPP_art386_par_unico_II(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in := casetest.SentenceIn(d.ID, "", 12)
	in.PrecautionaryUntilFinal = &decisions.PrecautionaryInput{ReviewOn: "2025-09-10"}
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.PrecautionaryBan == nil || !e.InBlocklist(t, "66392332154") {
		t.Fatal("the precautionary ban until the final judgment is not in force")
	}
	appealBy(t, e, c, d, "defence")
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, DecidedOn: "2025-06-10", Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VII"}); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "id = ? AND status = 'lifted' AND lifted_on = '2025-06-10'", res.PrecautionaryBan.ID) != 1 || e.InBlocklist(t, "66392332154") {
		t.Error("the acquittal on appeal did not end the precautionary ban")
	}
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-10"})
	if msg := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(msg, "386") {
		t.Errorf("a precautionary ban after the acquittal on appeal: %q", msg)
	}
	if e.Count(t, "bans", "defendant_id = ? AND precautionary AND status = 'active'", d.ID) != 0 || e.InBlocklist(t, "66392332154") {
		t.Error("a precautionary ban was ordered for a defendant acquitted on appeal")
	}
}

// CPP art. 617 when the outcome changes: on the defence's appeal alone the
// Turma Recursal may convert the reclusão into the ban of Lei 14.597/2023,
// art. 201, § 2º (favourable as such), but no part of the penalty may be
// heavier: a higher reclusão, a higher fine, or a ban longer than the
// reclusão it converts is 422 on that field citing the article; the ban as
// long as the reclusão, keeping the reclusão and the fine, stands.
func TestAppealConversionComparesEveryPenalty_CPP617_LGE_art201_sec2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d := decidedInAppeal(t, e, prisonIn(), "defence")
	for _, tc := range []struct {
		field  string
		months int
		mod    func(*decisions.AppealResultInput)
	}{
		{"prison_months", 8, func(in *decisions.AppealResultInput) { in.PrisonMonths = casetest.Ptr(20) }},
		{"fine_days", 8, func(in *decisions.AppealResultInput) { in.FineDays = casetest.Ptr(30) }},
		{"ban.months", 18, func(*decisions.AppealResultInput) {}},
	} {
		in := conversionIn(d, tc.months)
		tc.mod(&in)
		_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, in)
		if msg := casetest.InvalidField(t, err, tc.field, false); !strings.Contains(msg, "art. 617") {
			t.Errorf("conversion heavier on %s: %q, want CPP art. 617", tc.field, msg)
		}
	}
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, conversionIn(d, 14)); err != nil {
		t.Fatalf("the conversion into a ban as long as the reclusão: %v", err)
	}
	if e.Count(t, "sentences", "defendant_id = ? AND status = 'signed' AND outcome = 'ban' AND prison_months = 14 AND fine_days = 10", d.ID) != 1 ||
		e.Count(t, "bans", "defendant_id = ? AND status = 'awaiting_final' AND months = 14", d.ID) != 1 {
		t.Error("the conversion on the defence's appeal was not recorded")
	}
}

// CPP art. 617 by extension (reformatio in pejus indireta, settled case
// law of the STF and the STJ): after an annulment on the defence's appeal
// alone, the new sentence may not be heavier than the annulled one (a
// longer ban, a higher fine: 422 on the field); as heavy stands; after an
// annulment the prosecution appealed too, the new sentence is free.
func TestSentenceAfterAnnulment_ReformatioInPejusIndireta_CPP617(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, j, _ := e.Sentenced(t, "R1", 12)
	appealBy(t, e, c, d, "defence")
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, annulled(d.ID)); err != nil {
		t.Fatal(err)
	}
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 24))
	if msg := casetest.InvalidField(t, err, "ban.months", false); !strings.Contains(msg, "617") || !strings.Contains(msg, "indireta") {
		t.Errorf("a heavier sentence after the annulment: %q", msg)
	}
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12)); err != nil {
		t.Fatalf("the same term after the annulment: %v", err)
	}

	prison := prisonIn()
	c, d = decidedInAppeal(t, e, prison, "defence")
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, annulled(0)); err != nil {
		t.Fatal(err)
	}
	j = e.JudgeOf(t, c)
	prison.DefendantID, prison.Text, prison.FineDays = d.ID, casetest.Reasoned(), casetest.Ptr(20)
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, prison)
	casetest.InvalidField(t, err, "fine_days", false)

	c, d, j, _ = e.Sentenced(t, "R1", 12)
	appealBy(t, e, c, d, "defence")
	appealBy(t, e, c, d, "prosecution")
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, annulled(d.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 24)); err != nil {
		t.Fatalf("a heavier sentence after the annulment the prosecution appealed for: %v", err)
	}
}

// CPC arts. 1.002 and 1.013 (tantum devolutum quantum appellatum) in a
// group (civil) case: on the prosecution's appeal alone the Turma Recursal
// may not reduce the group's ban nor dismiss the claim (422 citing the
// articles) and may increase it; on the group's appeal alone it may not
// increase it (reformatio in pejus, CPC art. 1.013) and may reduce it.
func TestGroupAppeal_TantumDevolutum_CPC_arts1002_1013(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	if err := e.G.Exec("INSERT INTO fan_groups (name, supported_club, court_code) VALUES ('TORCIDA ORGANIZADA GARRA DO TATUAPE', 'Corinthians', ?)", testenv.Court).Error; err != nil {
		t.Fatal(err)
	}
	groupInAppeal := func(party string) (*cases.Case, cases.Defendant) {
		t.Helper()
		c, d, j := e.FileOne(t, "R5")
		if d.Kind != "fan_group" || d.GroupID == nil {
			t.Fatalf("defendant %+v: want a group linked to the register", d)
		}
		if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.GroupSentenceIn(d.ID, 24)); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusAppeal, Party: party}); err != nil {
			t.Fatalf("appeal by %s: %v", party, err)
		}
		return c, d
	}
	c, d := groupInAppeal("prosecution")
	_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(d, 12))
	if msg := casetest.InvalidField(t, err, "ban.months", false); !strings.Contains(msg, "1.002") || !strings.Contains(msg, "1.013") {
		t.Errorf("a shorter group ban on the prosecution's appeal: %q", msg)
	}
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, DecidedOn: "2025-06-10", Outcome: decisions.OutcomeAcquittal})
	casetest.InvalidField(t, err, "outcome", false)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(d, 36)); err != nil {
		t.Fatalf("a longer group ban on the prosecution's appeal: %v", err)
	}

	c, d = groupInAppeal("defence")
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(d, 36))
	if msg := casetest.InvalidField(t, err, "ban.months", false); !strings.Contains(msg, "1.013") {
		t.Errorf("a longer group ban on the group's appeal: %q", msg)
	}
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, reformIn(d, 12)); err != nil {
		t.Fatalf("a shorter group ban on the group's appeal: %v", err)
	}
	if e.Count(t, "bans", "case_id = ? AND status = 'awaiting_final' AND months = 12 AND group_ban_id IS NULL", c.ID) != 1 {
		t.Error("the reduced group ban was not recorded")
	}
}

// Lei 9.099/1995, art. 82 and DOMAIN.md §4 (each defendant's track): a
// confirmation recorded without defendant_id is the result of each track
// then in appeal, recorded per defendant, so a co-defendant who appeals
// later has his own appeal judged (it was 409); a second result for the
// same appeal stays 409, with or without defendant_id.
func TestAppealConfirmedWithoutDefendant_CoDefendantJudgedLater_Lei9099_art82(t *testing.T) {
	t.Parallel()
	e, k, c, ds := twoSentenced(t)
	ctx := context.Background()
	confirmed := func(d int64) decisions.AppealResultInput {
		return decisions.AppealResultInput{Result: "confirmed", DefendantID: d, DecidedOn: "2025-06-10"}
	}
	appealBy(t, e, c, ds[0], "defence")
	v, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, confirmed(0))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.AppealResults) != 1 || v.AppealResults[0].DefendantID == nil || *v.AppealResults[0].DefendantID != ds[0].ID {
		t.Fatalf("appeal results %+v, want one for the defendant in appeal", v.AppealResults)
	}
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, confirmed(ds[0].ID))
	casetest.KindIs(t, err, errs.Conflict)

	appealBy(t, e, c, ds[1], "prosecution")
	v, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, confirmed(ds[1].ID))
	if err != nil {
		t.Fatalf("the co-defendant's later appeal could not be judged: %v", err)
	}
	if len(v.AppealResults) != 2 {
		t.Errorf("appeal results %+v, want one per defendant", v.AppealResults)
	}
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, confirmed(0))
	casetest.KindIs(t, err, errs.Conflict)
}

// Lei 9.099/1995, art. 82 and DOMAIN.md §4: with two co-defendants in
// appeal, a result without defendant_id is 422 on defendant_id naming
// both (the Turma Recursal may judge them apart; a result is never
// guessed onto a track), and nothing is recorded.
func TestAppealResultWithoutDefendant_TwoInAppeal_NamesThem(t *testing.T) {
	t.Parallel()
	e, k, c, ds := twoSentenced(t)
	ctx := context.Background()
	for _, d := range ds {
		appealBy(t, e, c, d, "defence")
	}
	for _, result := range []string{"confirmed", "annulled"} {
		_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: result, DecidedOn: "2025-06-10"})
		if msg := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(msg, ds[0].FullName) || !strings.Contains(msg, ds[1].FullName) {
			t.Errorf("%s without defendant_id, two in appeal: %q", result, msg)
		}
	}
	if n := e.Count(t, "appeal_results", "case_id = ?", c.ID); n != 0 {
		t.Errorf("%d results recorded", n)
	}
}

// twoSentenced is a fresh world with R1 filed against two defendants, the
// accusation received and each sentenced to a 12-month ban; it returns the
// world, its clerk, the case and the defendants.
func twoSentenced(t *testing.T) (*env, actor.Actor, *cases.Case, []cases.Defendant) {
	t.Helper()
	e := newEnv(t, testenv.T0, 1)
	c, ds, _ := twoDefendants(t, e, "R1")
	for _, d := range ds {
		e.Sentence12(t, c, d)
	}
	return e, e.Clerk(t), c, ds
}
