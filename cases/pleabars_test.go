package cases_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
)

// Lei 9.099/1995, art. 76, § 2º, I: no plea agreement for someone finally
// convicted to prison for a crime in the court's cases (here, reclusão with
// no conversion, art. 201, § 2º not met, the judgment final),
// by CPF; § 2º, III: the prosecutor's statement on antecedents, conduct and
// circumstances, recorded with the offer, bars it when unfavourable; the
// checks of each bar are recorded with the offer.
func TestPlea_Lei9099_art76_sec2_I_III_BarsRecordedWithTheOffer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	clerk := e.user(t, "Escrivão", "clerk")
	// A conviction of CPF X, final, whose ban was breached and converted.
	old := e.file(t, person(t, "Carlos Alberto Nunes", "123456789"))
	od := e.defendants(t, old.ID)[0]
	if _, err := e.svc.Sentence(ctx, e.judgeOf(t, old), old.ID, cases.SentenceInput{DefendantID: od.ID, Outcome: cases.OutcomePrison, Eligible: ptr(false),
		PrisonMonths: ptr(12), FineDays: ptr(10)}); err != nil {
		t.Fatal(err)
	}
	e.makeFinal(t, old.ID)

	c := e.file(t, person(t, "Carlos Alberto Nunes", "123456789"))
	d := e.defendants(t, c.ID)[0]
	e.move(t, clerk, c, cases.StatusPreliminaryHearing)
	_, err := e.svc.OfferPlea(ctx, e.pros, c.ID, cases.PleaInput{DefendantID: d.ID, Months: ptr(6)})
	if m := invalidField(t, err, "defendant_id", false); !strings.Contains(m, "art. 76, § 2º, I") || !strings.Contains(m, cases.FormatNumber(old.Number)) {
		t.Errorf("bar I: %q", m)
	}

	// Bar III: unfavourable needs the reasons, and bars the offer.
	c2 := e.file(t, person(t, "Paulo Roberto Dias", "987654321"))
	d2 := e.defendants(t, c2.ID)[0]
	e.move(t, clerk, c2, cases.StatusPreliminaryHearing)
	_, err = e.svc.OfferPlea(ctx, e.pros, c2.ID, cases.PleaInput{DefendantID: d2.ID, Months: ptr(6), CircumstancesFavourable: ptr(false)})
	invalidField(t, err, "circumstances_statement", false)
	_, err = e.svc.OfferPlea(ctx, e.pros, c2.ID, cases.PleaInput{DefendantID: d2.ID, Months: ptr(6), CircumstancesFavourable: ptr(false), CircumstancesStatement: "liderou a invasão"})
	if m := invalidField(t, err, "circumstances_favourable", false); !strings.Contains(m, "art. 76, § 2º, III") {
		t.Errorf("bar III: %q", m)
	}
	// Another case of the same CPF is a known antecedent: a warning, not a bar.
	e.file(t, person(t, "Paulo Roberto Dias", "987654321"))
	r, err := e.svc.OfferPlea(ctx, e.pros, c2.ID, cases.PleaInput{DefendantID: d2.ID, Months: ptr(6), CircumstancesFavourable: ptr(true), CircumstancesStatement: "primário, sem registros"})
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
	v, _ := e.svc.Get(ctx, e.judgeOf(t, c2), c2.ID)
	if len(v.Pleas) != 1 || v.Pleas[0].CircumstancesFavourable == nil || !*v.Pleas[0].CircumstancesFavourable || len(v.Pleas[0].BarChecks) < 3 {
		t.Errorf("stored offer %+v", v.Pleas)
	}
}
