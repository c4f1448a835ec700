package decisions_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
)

// caseWarnings is the warnings of case c as its judge reads it.
func caseWarnings(t *testing.T, e *env, c *cases.Case) string {
	t.Helper()
	v, err := e.Svc.Casefile.Get(context.Background(), e.JudgeOf(t, c), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(v.Warnings, " | ")
}

// CP art. 115 on the case page and the sentence: a defendant under 21 at
// the facts gets the halved period's warning (2 years for art. 201's
// maximum of 2 years), and the judge decides. (Moved from cases/calendar
// with the count, now sanctions.PrescriptionOf.)
func TestPrescription_CP_art115_WarningOnCaseAndSentence(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2027, 6, 10, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	ctx := context.Background()
	r := casetest.Fixture(t, "R1") // facts 30/03/2025
	r.Defendants[0].BirthDate = "2005-01-01"
	c := e.File(t, r)
	d, j := e.Defendants(t, c.ID)[0], e.JudgeOf(t, c)
	if w := caseWarnings(t, e, c); !strings.Contains(w, "art. 115") || !strings.Contains(w, "terminou em 29/03/2027") {
		t.Errorf("case warnings %v", w)
	}
	// The receipt today comes after the span ran out: the warning stays
	// (CP art. 117 I interrupts only a running period).
	e.Receive(t, c)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Ban: decisions.BanInput{FirstDay: "2027-06-10", Months: casetest.Ptr(6)},
		ReportingDuty: &cases.ReportingDuty{Place: "2º DP", Club: "Corinthians"}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(res.Warnings, " "); !strings.Contains(w, "art. 115") {
		t.Errorf("sentence warnings %v", res.Warnings)
	}
}

// CP arts. 109 and 117, I: the prescription runs from the facts to the
// receipt of the accusation; when those 4 years (art. 201's maximum of 2
// years, art. 109, V) ran out before the receipt, the warning stays after
// it: the later receipt does not revive the claim. Facts on 30/03/2025,
// accusation received on 10/06/2029.
func TestPrescription_CP117I_WarningKeptAfterReceipt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2029, 6, 10, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	clerk := e.User(t, "Cartório", "clerk")
	c, _, _ := e.FileOne(t, "R1")
	before := caseWarnings(t, e, c)
	if !strings.Contains(before, "terminou em 29/03/2029") {
		t.Fatalf("before the receipt: %s", before)
	}
	e.Move(t, clerk, c, cases.StatusPreliminaryHearing)
	e.Move(t, e.Pros, c, cases.StatusAccusation)
	e.Move(t, clerk, c, cases.StatusInstructionHearing) // TPU 132: the receipt
	after := caseWarnings(t, e, c)
	if !strings.Contains(after, "terminou em 29/03/2029, antes da interrupção") || !strings.Contains(after, "recebimento da denúncia em 10/06/2029") ||
		!strings.Contains(after, "prescreveu") {
		t.Errorf("after the receipt the warning must stay: %s", after)
	}
}

// Lei 9.099/1995, art. 89, § 6º: the prescription does not run during the
// conditional suspension. Facts on 30/03/2025, accusation received and
// the process suspended for 24 months on 10/06/2025 (art. 89, § 1º:
// "recebendo a denúncia"): the 4 years from the receipt end on 09/06/2029
// plus the 730 days of the suspension, on 09/06/2031; the warning comes 6
// months before.
func TestPrescription_Lei9099_art89_sec6_SuspensionNotCounted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := accused(t, e, casetest.Fixture(t, "R1"))
	sp, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24)}))
	if err != nil {
		t.Fatal(err)
	}
	if sp.FirstDay.String() != "2025-06-10" || sp.LastDay.String() != "2027-06-09" {
		t.Fatalf("suspension %s to %s", sp.FirstDay, sp.LastDay)
	}
	e.Clk.Set(time.Date(2029, 7, 1, 12, 0, 0, 0, testenv.SaoPaulo))
	if w := caseWarnings(t, e, c); strings.Contains(w, "Prescrição") {
		t.Errorf("the suspension's days counted: %s", w)
	}
	e.Clk.Set(time.Date(2031, 1, 10, 12, 0, 0, 0, testenv.SaoPaulo))
	if w := caseWarnings(t, e, c); !strings.Contains(w, "acrescidos 730 dias") || !strings.Contains(w, "89, § 6º") || !strings.Contains(w, "termina em 09/06/2031") {
		t.Errorf("warning %s", w)
	}
}

// CF art. 5º, XLII: racism (Lei 7.716/1989, art. 20, § 2º-A) is
// imprescriptible: the case says so, years after the facts, and counts no
// period.
func TestPrescription_CF5_XLII_Lei7716Imprescriptible(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2040, 6, 10, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	c, _, _ := e.FileOne(t, "R3")
	if w := caseWarnings(t, e, c); !strings.Contains(w, "imprescritível") || !strings.Contains(w, "XLII") || strings.Contains(w, "prescreveu") {
		t.Errorf("racism: %s", w)
	}
}
