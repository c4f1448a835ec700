package decisions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
)

// Lei 9.099/1995, art. 76, § 2º, I: no plea agreement for someone finally
// convicted to prison for a crime in the court's cases (here, reclusão with
// no conversion, art. 201, § 2º not met, the judgment final),
// by CPF; § 2º, III: the prosecutor's statement on antecedents, conduct and
// circumstances, recorded with the offer, bars it when unfavourable; the
// checks of each bar are recorded with the offer.
func TestPlea_Lei9099_art76_sec2_I_III_BarsRecordedWithTheOffer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivão", "clerk")
	// A conviction of CPF X, final, whose ban was breached and converted.
	old := e.File(t, casetest.Person(t, "Carlos Alberto Nunes", "123456789"))
	od := e.Defendants(t, old.ID)[0]
	e.Receive(t, old)
	if _, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, old), old.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: od.ID, Outcome: decisions.OutcomePrison, Eligible: casetest.Ptr(false),
		PrisonMonths: casetest.Ptr(12), FineDays: casetest.Ptr(10)}); err != nil {
		t.Fatal(err)
	}
	e.MakeFinal(t, old.ID)

	c := e.File(t, casetest.Person(t, "Carlos Alberto Nunes", "123456789"))
	d := e.Defendants(t, c.ID)[0]
	e.Move(t, clerk, c, cases.StatusPreliminaryHearing)
	_, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: d.ID, Months: casetest.Ptr(6)})
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "art. 76, § 2º, I") || !strings.Contains(m, cases.FormatNumber(old.Number)) {
		t.Errorf("bar I: %q", m)
	}

	// Bar III: unfavourable needs the reasons, and bars the offer.
	c2 := e.File(t, casetest.Person(t, "Paulo Roberto Dias", "987654321"))
	d2 := e.Defendants(t, c2.ID)[0]
	e.Move(t, clerk, c2, cases.StatusPreliminaryHearing)
	_, err = e.Svc.Decisions.OfferPlea(ctx, e.Pros, c2.ID, decisions.PleaInput{DefendantID: d2.ID, Months: casetest.Ptr(6), CircumstancesFavourable: casetest.Ptr(false)})
	casetest.InvalidField(t, err, "circumstances_statement", false)
	_, err = e.Svc.Decisions.OfferPlea(ctx, e.Pros, c2.ID, decisions.PleaInput{DefendantID: d2.ID, Months: casetest.Ptr(6), CircumstancesFavourable: casetest.Ptr(false), CircumstancesStatement: "liderou a invasão"})
	if m := casetest.InvalidField(t, err, "circumstances_favourable", false); !strings.Contains(m, "art. 76, § 2º, III") {
		t.Errorf("bar III: %q", m)
	}
	// Another case of the same CPF is a known antecedent: a warning, not a bar.
	e.File(t, casetest.Person(t, "Paulo Roberto Dias", "987654321"))
	r, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c2.ID, decisions.PleaInput{DefendantID: d2.ID, Months: casetest.Ptr(6), CircumstancesFavourable: casetest.Ptr(true), CircumstancesStatement: "primário, sem registros"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(r.Warnings, " "), "Antecedentes conhecidos") {
		t.Errorf("warnings %v", r.Warnings)
	}
	checks := strings.Join(r.Plea.BarChecks, " | ")
	for _, bar := range []string{"§ 2º, I)", "§ 2º, II)", "§ 2º, III)", "primário, sem registros"} {
		if !strings.Contains(checks, bar) {
			t.Errorf("checks %q lack %s", checks, bar)
		}
	}
	v, _ := e.Svc.Casefile.Get(ctx, e.JudgeOf(t, c2), c2.ID)
	if len(v.Pleas) != 1 || v.Pleas[0].CircumstancesFavourable == nil || !*v.Pleas[0].CircumstancesFavourable || len(v.Pleas[0].BarChecks) < 3 {
		t.Errorf("stored offer %+v", v.Pleas)
	}
}
