package execution_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// LGE art. 201, § 3º: a breach records the days served and the balance (at
// least 30 days), with a movement, in one transaction.
func TestRecordBreach_LGE_art_201_sec3(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, banID, _ := e.SentenceR1(t, "2025-04-01", 12, casetest.Ptr(12))
	moves := e.Count(t, "movements", "case_id = ?", c.ID)
	in := execution.BreachInput{OccurredOn: "2025-05-01", Source: "gate_hit", Reference: "Catraca 12 – Arena Corinthians", Description: "Tentou entrar no setor Leste."}
	res, err := e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, in)
	if err != nil {
		t.Fatal(err)
	}
	cv := res.Conversion
	if cv == nil || cv.DaysServed != 30 || *cv.QuantumDays != 365 || *cv.BalanceDays != 335 || cv.FloorApplied {
		t.Fatalf("conversion %+v, want 30 served, 365 quantum, 335 balance", cv)
	}
	if e.Count(t, "breaches", "ban_id = ? AND days_served = 30 AND balance_days = 335", banID) != 1 || e.Count(t, "movements", "case_id = ?", c.ID) != moves+1 {
		t.Errorf("breach or movement not stored")
	}
	_, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, in)
	casetest.KindIs(t, err, errs.Conflict)
	for day, rule := range map[string]string{"2025-03-31": "in_term", "2025-06-11": "not_future", "2025-02-30": "date"} {
		_, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, execution.BreachInput{OccurredOn: day, Source: "police_report", Reference: "BO 1/2025"})
		if msg := casetest.InvalidField(t, err, "occurred_on", false); msg == "" {
			t.Errorf("%s (%s): empty message", day, rule)
		}
	}
	_, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, execution.BreachInput{OccurredOn: "2025-05-02", Source: "rumour"})
	casetest.InvalidField(t, err, "source", false)
	casetest.InvalidField(t, err, "reference", false)
	if n := e.Count(t, "breaches", ""); n != 1 {
		t.Errorf("%d breaches after refusals, want 1", n)
	}
	// Without prison months: the days served, and the quantum must be fixed.
	_, ban2, _ := e.SentenceR1(t, "2025-04-01", 12, nil)
	res, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, ban2, execution.BreachInput{OccurredOn: "2025-04-11", Source: "police_report", Reference: "BO 99/2025"})
	if err != nil || res.Conversion == nil || res.Conversion.QuantumFixed || res.Conversion.DaysServed != 10 || res.Conversion.BalanceDays != nil {
		t.Fatalf("no quantum: %+v %v", res, err)
	}
	// The 30-day floor.
	_, ban3, _ := e.SentenceR1(t, "2025-04-01", 12, casetest.Ptr(12))
	e.Clk.Set(e.Clk.Now().AddDate(1, 0, 0))
	res, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, ban3, execution.BreachInput{OccurredOn: "2026-03-20", Source: "police_report", Reference: "BO 7/2026"})
	if err != nil || *res.Conversion.BalanceDays != 30 || !res.Conversion.FloorApplied {
		t.Fatalf("floor: %+v %v", res, err)
	}
}

// CPP art. 319, II: a precautionary ban (no last day) is in force until the
// judge of the case lifts it; lifting sets status lifted, records the
// decision and a movement, and refreshes the blocklist.
func TestLift_CPP_art_319_II_Precautionary(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 2)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	in := decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-01"}
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	res.Ban = res.PrecautionaryBan
	if res.Ban.LastDay != nil || e.Count(t, "bans", "id = ? AND last_day IS NULL AND status = 'active'", res.Ban.ID) != 1 {
		t.Fatalf("precautionary ban stored with a last day")
	}
	other := e.Judges[0]
	if other.UserID == j.UserID {
		other = e.Judges[1]
	}
	_, err = e.Svc.Execution.Lift(ctx, other, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "x"})
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Execution.Lift(ctx, j, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-11"})
	casetest.InvalidField(t, err, "lifted_on", false)
	casetest.InvalidField(t, err, "reason", false)
	versions := e.Count(t, "blocklist_versions", "")
	b, err := e.Svc.Execution.Lift(ctx, j, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "Cessaram os motivos da cautelar."})
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != "lifted" || b.LiftedOn == nil || b.LiftedOn.String() != "2025-06-10" {
		t.Errorf("lifted view %+v", b)
	}
	if e.Count(t, "bans", "id = ? AND status = 'lifted' AND lifted_on = '2025-06-10' AND lift_reason <> ''", res.Ban.ID) != 1 {
		t.Errorf("ban not lifted in the database")
	}
	if e.Count(t, "blocklist_versions", "") <= versions {
		t.Errorf("blocklist not refreshed by the lifting")
	}
	if e.Count(t, "movements", "case_id = ? AND description LIKE 'Revogada%'", c.ID) != 1 {
		t.Errorf("no movement for the lifting")
	}
	_, err = e.Svc.Execution.Lift(ctx, j, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "de novo"})
	casetest.KindIs(t, err, errs.Conflict)
	v, err := e.Svc.Casefile.Get(ctx, e.Pros, c.ID)
	if err != nil || len(v.Bans) != 1 || v.Bans[0].LiftedOn == nil || v.Bans[0].Status != "lifted" {
		t.Errorf("case view bans %+v %v", v.Bans, err)
	}
	// A sentence ban is not lifted by this route.
	_, banID, j2 := e.SentenceR1(t, "2025-04-01", 12, nil)
	_, err = e.Svc.Execution.Lift(ctx, j2, banID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "x"})
	casetest.KindIs(t, err, errs.Conflict)
}

// CF art. 5º, XXXVI (res judicata): a final ban is never extended; a
// material error of its last day is corrected, with its reason, as its own
// movement, within the range counted from the first day. Only a
// precautionary ban is renewed (CPP art. 319, II): a new review date with a
// reason.
func TestExtend_CF_art_5_XXXVI_FinalBanNeverExtended_PrecautionaryRenewed(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 2)
	ctx := context.Background()
	c, banID, j := e.SentenceR1(t, "2025-05-31", 6, nil)
	if e.Count(t, "bans", "id = ? AND last_day = '2025-11-30'", banID) != 1 {
		t.Fatal("6 months from 31/05/2025 should end on 30/11/2025")
	}
	other := e.Judges[0]
	if other.UserID == j.UserID {
		other = e.Judges[1]
	}
	_, err := e.Svc.Execution.Extend(ctx, other, banID, execution.ExtendInput{Months: casetest.Ptr(1), Reason: "x"})
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Execution.Extend(ctx, j, banID, execution.ExtendInput{Months: casetest.Ptr(1), Reason: "Reincidência no curso do impedimento."})
	casetest.KindIs(t, err, errs.Conflict)
	if !strings.Contains(err.Error(), "XXXVI") {
		t.Errorf("refusal %q should cite CF art. 5º, XXXVI", err)
	}
	if e.Count(t, "bans", "id = ? AND months = 6 AND last_day = '2025-11-30'", banID) != 1 {
		t.Error("the refused extension changed the ban")
	}
	// Correction of a material error: within the range, its own movement.
	_, err = e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-12-30", Reason: "x"})
	casetest.InvalidField(t, err, "last_day", false)
	_, err = e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-11-29"})
	casetest.InvalidField(t, err, "reason", false)
	b, err := e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-11-29", Reason: "Leitura do último dia pelo juízo (CP, art. 10)."})
	if err != nil || b.LastDay.String() != "2025-11-29" {
		t.Fatalf("correction: %+v %v", b, err)
	}
	if e.Count(t, "movements", "case_id = ? AND description LIKE 'Correção de erro material%'", c.ID) != 1 {
		t.Error("no movement for the correction")
	}
	// A precautionary ban is renewed: new review date and reason.
	c2, d2, j2 := e.FileOne(t, "R1")
	p, err := e.Svc.Decisions.Sentence(ctx, j2, c2.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d2.ID, Precautionary: true, ReviewOn: "2025-07-10", Ban: decisions.BanInput{FirstDay: "2025-06-10"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Execution.Extend(ctx, j2, p.PrecautionaryBan.ID, execution.ExtendInput{Months: casetest.Ptr(3), Reason: "x"})
	casetest.InvalidField(t, err, "months", false)
	_, err = e.Svc.Execution.Renew(ctx, j2, p.PrecautionaryBan.ID, execution.RenewInput{ReviewOn: "2025-07-01", Reason: "x"})
	casetest.InvalidField(t, err, "review_on", false) // not after the current review
	r, err := e.Svc.Execution.Extend(ctx, j2, p.PrecautionaryBan.ID, execution.ExtendInput{ReviewOn: "2025-10-10", Reason: "Persistem os motivos: novo confronto anunciado."})
	if err != nil || r.Ban.ReviewOn == nil || r.Ban.ReviewOn.String() != "2025-10-10" || r.Renewal.PreviousReview.String() != "2025-07-10" {
		t.Fatalf("renewal: %+v %v", r, err)
	}
	if e.Count(t, "ban_renewals", "ban_id = ?", p.PrecautionaryBan.ID) != 1 || e.Count(t, "movements", "case_id = ? AND description LIKE 'Renovada%'", c2.ID) != 1 {
		t.Error("renewal not recorded with a movement")
	}
}

// DOMAIN.md §8: a breach of a conversion ban opens the conversion (Lei
// 10.671/2003, art. 41-B, § 3º for facts of 2018; LGE art. 201, § 3º from
// 15/06/2023) with a proposed balance the judge fixes (CP art. 44, § 4º: at
// least 30 days); a plea-agreement ban's breach undoes the agreement and
// returns the case to the prosecutor (Súmula Vinculante 35); an art. 39
// ban has no conversion (CP art. 359).
func TestBreachByKind_LGE_art_201_sec3_Estatuto_41B_SV_35_CP_359(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	ctx := context.Background()
	_, banID, j := e.FinalBan(t, "R7", "2025-04-01", 12, func(in *decisions.SentenceInput) { in.PrisonMonths = casetest.Ptr(12) })
	br, err := e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, execution.BreachInput{OccurredOn: "2025-05-01", Source: "police_report", Reference: "BO 5/2025"})
	if err != nil {
		t.Fatal(err)
	}
	if br.Kind != "conversion" || br.Conversion == nil || !strings.Contains(br.Conversion.Note, "art. 41-B, § 3º") || strings.Contains(br.Conversion.Note, "14.597") ||
		!strings.Contains(br.Conversion.Note, "proposto") {
		t.Errorf("41-B breach: %+v", br.Conversion)
	}
	_, err = e.Svc.Execution.DecideBreach(ctx, j, br.Breach.ID, execution.BreachDecisionInput{Decision: "convert", BalanceDays: casetest.Ptr(29), Reason: "x"})
	casetest.InvalidField(t, err, "balance_days", false)
	_, err = e.Svc.Execution.DecideBreach(ctx, j, br.Breach.ID, execution.BreachDecisionInput{Decision: "undo_plea", Reason: "x"})
	casetest.InvalidField(t, err, "decision", false)
	if _, err := e.Svc.Execution.DecideBreach(ctx, j, br.Breach.ID, execution.BreachDecisionInput{Decision: "convert", BalanceDays: casetest.Ptr(200), Reason: "Descumprimento injustificado."}); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "id = ? AND status = 'converted'", banID) != 1 || e.InBlocklist(t, "66392332154") {
		t.Error("the converted ban is still in force")
	}

	// Art. 39 (2008): no conversion.
	_, ban39, j39 := e.FinalBan(t, "R8", "2025-04-01", 6, nil)
	br, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, ban39, execution.BreachInput{OccurredOn: "2025-05-01", Source: "police_report", Reference: "BO 6/2025"})
	if err != nil || br.Conversion != nil || br.Kind != "no_conversion" || !strings.Contains(strings.Join(br.Warnings, " "), "art. 359") {
		t.Fatalf("art. 39 breach: %+v %v", br, err)
	}
	_, err = e.Svc.Execution.DecideBreach(ctx, j39, br.Breach.ID, execution.BreachDecisionInput{Decision: "convert", BalanceDays: casetest.Ptr(30), Reason: "x"})
	casetest.InvalidField(t, err, "decision", false)

	// A plea-agreement ban: undone, back to the prosecutor.
	k := e.Clerk(t)
	c, d, jp := e.FileOne(t, "R2")
	e.Move(t, k, c, cases.StatusPreliminaryHearing)
	if _, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: d.ID, Months: casetest.Ptr(6), FirstDay: "2025-06-01"}); err != nil {
		t.Fatal(err)
	}
	e.Move(t, k, c, cases.StatusPleaAccepted)
	h, err := e.Svc.Decisions.Homologate(ctx, jp, c.ID, decisions.HomologateInput{})
	if err != nil {
		t.Fatal(err)
	}
	br, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, h.Ban.ID, execution.BreachInput{OccurredOn: "2025-06-08", Source: "gate_hit", Reference: "Catraca 3"})
	if err != nil || br.Kind != "plea_agreement" || br.Conversion != nil || !strings.Contains(strings.Join(br.Warnings, " "), "Súmula Vinculante 35") {
		t.Fatalf("plea breach: %+v %v", br, err)
	}
	if _, err := e.Svc.Execution.DecideBreach(ctx, jp, br.Breach.ID, execution.BreachDecisionInput{Decision: "undo_plea", Reason: "Transação descumprida."}); err != nil {
		t.Fatal(err)
	}
	var got cases.Case
	e.G.Take(&got, c.ID)
	if got.Status != cases.StatusPreliminaryHearing || e.Count(t, "bans", "id = ? AND status = 'undone'", h.Ban.ID) != 1 ||
		e.Count(t, "plea_agreements", "ban_id = ? AND status = 'undone'", h.Ban.ID) != 1 {
		t.Errorf("plea not undone: case %s", got.Status)
	}
	if _, err := e.Svc.Casefile.Transition(ctx, e.Pros, c.ID, casefile.TransitionInput{To: cases.StatusAccusation}); err != nil {
		t.Errorf("the prosecutor cannot accuse after the plea was undone: %v", err)
	}
}

// CF art. 5º, XXXVI: a correction of a material error may only give the
// last day counted from the first day (CP art. 10) or the day before it,
// never below the statutory minimum (LGE art. 201, § 2º: 3 months); it never
// lengthens the ban.
func TestCorrect_MaterialErrorOnly_CF_art_5_XXXVI(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	ctx := context.Background()
	_, banID, j := e.FinalBan(t, "R1", "2025-05-31", 3, nil) // 30/08/2025, the minimum
	_, err := e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2028-05-30", Reason: "erro"})
	if msg := casetest.InvalidField(t, err, "last_day", false); !strings.Contains(msg, "XXXVI") {
		t.Errorf("lengthening by correction: %q", msg)
	}
	_, err = e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-08-29", Reason: "leitura do dia inexistente"})
	casetest.InvalidField(t, err, "last_day", false)        // one day below the 3-month minimum
	_, banID, j = e.FinalBan(t, "R1", "2025-05-31", 6, nil) // 30/11/2025
	b, err := e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-11-29", Reason: "leitura do dia inexistente"})
	if err != nil || b.LastDay.String() != "2025-11-29" {
		t.Fatalf("clamp reading: %+v %v", b, err)
	}
}

// CP art. 10 and DOMAIN.md §3: the clamp reading (one day earlier) exists
// only where the day-number of the first day is missing in the final month;
// 01/12/2026 + 12 months ends on 30/11/2027 and no correction moves it.
func TestCorrect_ClampOnlyForAMissingDay_CP_art_10(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	_, banID, j := e.FinalBan(t, "R1", "", 12, func(in *decisions.SentenceInput) { in.Ban.FirstDay = "2026-12-01" })
	_, err := e.Svc.Execution.Correct(context.Background(), j, banID, execution.CorrectInput{LastDay: "2027-11-29", Reason: "erro"})
	casetest.InvalidField(t, err, "last_day", false)
	// An acquittal carries no fine either (CPP art. 386).
	c, d, j2 := e.FileOne(t, "R2")
	e.Receive(t, c)
	_, err = e.Svc.Decisions.Sentence(context.Background(), j2, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VII", FineDays: casetest.Ptr(20)})
	casetest.InvalidField(t, err, "outcome", false)
}
