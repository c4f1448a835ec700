package decisions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
)

// suspend proposes the conditional suspension (Lei 9.099/1995, art. 89)
// for the sole defendant of a new case of rep, taken to the accusation.
func suspend(t *testing.T, e *env, rep cases.Representation) error {
	t.Helper()
	c, d, j := accused(t, e, rep)
	_, err := e.Svc.Decisions.Suspend(context.Background(), j, c.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24)}))
	return err
}

// barredBy asserts err is the art. 89, caput bar on defendant_id naming
// the other case (nil: any) and the words of its ground.
func barredBy(t *testing.T, err error, other *cases.Case, words string) {
	t.Helper()
	m := casetest.InvalidField(t, err, "defendant_id", false)
	if !strings.Contains(m, "art. 89, caput") || !strings.Contains(m, words) || (other != nil && !strings.Contains(m, cases.FormatNumber(other.Number))) {
		t.Errorf("bar %q: want art. 89, caput, the other case and %q", m, words)
	}
}

// Lei 9.099/1995, art. 89, caput, "não esteja sendo processado": being
// prosecuted is an accusation received in another case (art. 81), not a
// case merely filed nor an accusation only offered; a sentence awaiting the
// final judgment still is a prosecution.
func TestSuspension_Lei9099_art89_caput_ProsecutedMeansAccusationReceived(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	// Filed elsewhere: no bar.
	e.File(t, casetest.Person(t, "Carlos Alberto Nunes", "123456789"))
	if err := suspend(t, e, casetest.Person(t, "Carlos Alberto Nunes", "123456789")); err != nil {
		t.Fatalf("another case merely filed barred the suspension: %v", err)
	}
	// The accusation offered elsewhere, not received: no bar.
	other := e.File(t, casetest.Person(t, "Ana Paula Souza", "222333444"))
	e.Move(t, k, other, cases.StatusPreliminaryHearing)
	e.Move(t, e.Pros, other, cases.StatusAccusation)
	if err := suspend(t, e, casetest.Person(t, "Ana Paula Souza", "222333444")); err != nil {
		t.Fatalf("an accusation offered, not received, barred the suspension: %v", err)
	}
	// A suspended elsewhere (the judge received the accusation, art. 89, §
	// 1º): barred; and the instruction after the receipt: barred.
	barredBy(t, suspend(t, e, casetest.Person(t, "Carlos Alberto Nunes", "123456789")), nil, "suspensão condicional")
	other = e.File(t, casetest.Person(t, "Marcos Vinícius Rocha", "555666777"))
	e.Receive(t, other)
	barredBy(t, suspend(t, e, casetest.Person(t, "Marcos Vinícius Rocha", "555666777")), other, "denúncia recebida")
	// Sentenced, not final: still prosecuted.
	od := e.Defendants(t, other.ID)[0]
	if _, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, other), other.ID, casetest.SentenceIn(od.ID, "", 6)); err != nil {
		t.Fatal(err)
	}
	barredBy(t, suspend(t, e, casetest.Person(t, "Marcos Vinícius Rocha", "555666777")), other, "sentenciado")
	// Someone else is not barred.
	if err := suspend(t, e, casetest.Person(t, "Paulo Roberto Dias", "987654321")); err != nil {
		t.Errorf("another person: %v", err)
	}
}

// Lei 9.099/1995, art. 89, caput, "não tenha sido condenado por outro
// crime": a final conviction to any penalty bars, reclusão alone without a
// ban included (art. 201, § 2º not met), and so does a conversion into a
// ban (art. 41-B, § 2º).
func TestSuspension_Lei9099_art89_caput_FinalConvictionToPrisonAlone(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	other := e.File(t, casetest.Person(t, "Carlos Alberto Nunes", "123456789"))
	od := e.Defendants(t, other.ID)[0]
	e.Receive(t, other)
	if _, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, other), other.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: od.ID,
		Outcome: decisions.OutcomePrison, Eligible: casetest.Ptr(false), PrisonMonths: casetest.Ptr(12), FineDays: casetest.Ptr(10)}); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "case_id = ?", other.ID) != 0 {
		t.Fatal("a conviction to reclusão alone made a ban")
	}
	e.MakeFinal(t, other.ID)
	barredBy(t, suspend(t, e, casetest.Person(t, "Carlos Alberto Nunes", "123456789")), other, "reclusão de 12 meses")

	// A conversion into a ban (art. 41-B, § 2º, facts of 2018), final.
	conv := e.File(t, casetest.PersonIn(t, "R7", "Paulo Roberto Dias", "987654321"))
	cd := e.Defendants(t, conv.ID)[0]
	e.Receive(t, conv)
	if _, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, conv), conv.ID, casetest.SentenceIn(cd.ID, "", 6)); err != nil {
		t.Fatal(err)
	}
	e.MakeFinal(t, conv.ID)
	barredBy(t, suspend(t, e, casetest.Person(t, "Paulo Roberto Dias", "987654321")), conv, "condenado por outro crime")
}

// Lei 9.099/1995, art. 89, caput: a sentence reformed to acquittal by the
// Turma Recursal, or annulled (the track then ended otherwise, CP art.
// 107), is no conviction; the art. 39 of Lei 10.671/2003 (facts of 2008) was
// a sanction imposed by sentence, no crime: none bars the suspension.
func TestSuspension_Lei9099_art89_caput_NoBarForAcquittalOnAppealAnnulmentOrArt39(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)

	acq := e.File(t, casetest.Person(t, "Carlos Alberto Nunes", "123456789"))
	ad := e.Defendants(t, acq.ID)[0]
	e.Receive(t, acq)
	if _, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, acq), acq.ID, casetest.SentenceIn(ad.ID, "", 6)); err != nil {
		t.Fatal(err)
	}
	e.Move(t, k, acq, cases.StatusAppeal)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, acq.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: ad.ID, Outcome: decisions.OutcomeAcquittal, DecidedOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Casefile.Transition(ctx, k, acq.ID, casefile.TransitionInput{To: cases.StatusFinal, FinalOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	if err := suspend(t, e, casetest.Person(t, "Carlos Alberto Nunes", "123456789")); err != nil {
		t.Errorf("a sentence reformed to acquittal barred the suspension: %v", err)
	}

	ann := e.File(t, casetest.Person(t, "Paulo Roberto Dias", "987654321"))
	nd := e.Defendants(t, ann.ID)[0]
	e.Receive(t, ann)
	if _, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, ann), ann.ID, casetest.SentenceIn(nd.ID, "", 6)); err != nil {
		t.Fatal(err)
	}
	e.Move(t, k, ann, cases.StatusAppeal)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, ann.ID, decisions.AppealResultInput{Result: "annulled", DefendantID: nd.ID, DecidedOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	// Back to the instruction: the accusation stays received.
	barredBy(t, suspend(t, e, casetest.Person(t, "Paulo Roberto Dias", "987654321")), ann, "denúncia recebida")
	if _, err := e.Svc.Casefile.Transition(ctx, e.JudgeOf(t, ann), ann.ID, casefile.TransitionInput{To: cases.StatusExtinct, DefendantID: &nd.ID, Cause: cases.CauseDeath, Note: "certidão de óbito"}); err != nil {
		t.Fatal(err)
	}
	if err := suspend(t, e, casetest.Person(t, "Paulo Roberto Dias", "987654321")); err != nil {
		t.Errorf("an annulled sentence barred the suspension: %v", err)
	}

	old := e.File(t, casetest.PersonIn(t, "R8", "José Carlos Lima", "111444777"))
	od := e.Defendants(t, old.ID)[0]
	e.Receive(t, old)
	res, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, old), old.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: od.ID, Ban: decisions.BanInput{Months: casetest.Ptr(6)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sentence.Article != "art. 39" {
		t.Fatalf("facts of 2008 sentenced under %s, want art. 39", res.Sentence.Article)
	}
	e.MakeFinal(t, old.ID)
	if err := suspend(t, e, casetest.Person(t, "José Carlos Lima", "111444777")); err != nil {
		t.Errorf("an art. 39 (2003) sanction barred the suspension: %v", err)
	}
}

// Lei 9.099/1995, art. 76, § 2º, II: "ter sido o agente beneficiado
// anteriormente, no prazo de cinco anos, pela aplicação de pena restritiva
// ou multa": only a homologated agreement benefited him; an offer, an
// accepted offer awaiting the homologation, a refusal, or an agreement
// undone after a breach (Súmula Vinculante 35) does not bar.
func TestPlea_Lei9099_art76_sec2_II_HomologatedAgreementsOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	rep := func() cases.Representation { return casetest.Person(t, "Carlos Alberto Nunes", "123456789") }
	offer := func() (*cases.Case, cases.Defendant, error) {
		c := e.File(t, rep())
		d := e.Defendants(t, c.ID)[0]
		e.Move(t, k, c, cases.StatusPreliminaryHearing)
		_, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: d.ID, Months: casetest.Ptr(6), FirstDay: "2025-06-10", CircumstancesFavourable: casetest.Ptr(true)})
		return c, d, err
	}
	refused, _, err := offer()
	if err != nil {
		t.Fatal(err)
	}
	e.Move(t, k, refused, cases.StatusPleaRefused)
	first, _, err := offer() // one refused elsewhere: no bar
	if err != nil {
		t.Fatalf("a refused agreement barred the offer: %v", err)
	}
	e.Move(t, k, first, cases.StatusPleaAccepted)
	if _, _, err := offer(); err != nil { // one offered and accepted elsewhere, not homologated: no bar
		t.Fatalf("an accepted, not homologated, agreement barred the offer: %v", err)
	}
	h, err := e.Svc.Decisions.Homologate(ctx, e.JudgeOf(t, first), first.ID, decisions.HomologateInput{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = offer()
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "art. 76, § 2º, II") || !strings.Contains(m, cases.FormatNumber(first.Number)) {
		t.Errorf("homologated: %q", m)
	}
	br, err := e.Svc.Execution.RecordBreach(ctx, e.Pros, h.Ban.ID, execution.BreachInput{OccurredOn: "2025-06-10", Source: "gate_hit", Reference: "Catraca 3"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Execution.DecideBreach(ctx, e.JudgeOf(t, first), br.Breach.ID, execution.BreachDecisionInput{Decision: "undo_plea", Reason: "Transação descumprida."}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := offer(); err != nil {
		t.Errorf("an undone agreement barred the offer: %v", err)
	}
}
