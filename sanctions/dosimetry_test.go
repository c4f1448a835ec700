package sanctions_test

import (
	"strings"
	"testing"

	"github.com/juizado/juizado/sanctions"
)

// months is a penalty of whole months; md one of months and days.
func months(m int) sanctions.Penalty   { return sanctions.Penalty{Months: m} }
func md(m, d int) sanctions.Penalty    { return sanctions.Penalty{Months: m, Days: d} }
func frac(n, d int) sanctions.Fraction { return sanctions.Fraction{Num: n, Den: d} }

// decrease and increase are causes of the third phase (CP art. 68).
func decrease(article string, n, d int) sanctions.Cause {
	return sanctions.Cause{Kind: sanctions.CauseDecrease, Fraction: frac(n, d), Article: article}
}

func increase(article string, n, d int) sanctions.Cause {
	return sanctions.Cause{Kind: sanctions.CauseIncrease, Fraction: frac(n, d), Article: article}
}

// third runs DosimetryThirdPhase on the range of Lei 14.597/2023, art. 201,
// caput (12 to 24 months), failing the test on an error.
func third(t *testing.T, inter sanctions.Penalty, causes ...sanctions.Cause) sanctions.ThirdPhase {
	t.Helper()
	r, err := sanctions.DosimetryThirdPhase(sanctions.ThirdPhaseInput{MinMonths: 12, MaxMonths: 24, Intermediate: inter, Causes: causes})
	if err != nil {
		t.Fatalf("DosimetryThirdPhase: %v", err)
	}
	return r
}

// thirdErr runs DosimetryThirdPhase on the caput's range and wants
// errs.Invalid on field.
func thirdErr(t *testing.T, field string, inter sanctions.Penalty, causes ...sanctions.Cause) {
	t.Helper()
	_, err := sanctions.DosimetryThirdPhase(sanctions.ThirdPhaseInput{MinMonths: 12, MaxMonths: 24, Intermediate: inter, Causes: causes})
	invalidOn(t, err, field)
}

// CP art. 14, II: the attempt decreases by 1/3 to 2/3, below the abstract
// minimum (Súmula 231 do STJ binds the second phase only).
func TestDosimetry_CP14II_AttemptBelowMinimum(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    sanctions.Fraction
		want sanctions.Penalty
	}{
		{frac(1, 3), months(8)}, // 360 days × 2/3 = 240 days = 8 months
		{frac(1, 2), months(6)}, // 360 × 1/2 = 180 = 6 months
		{frac(2, 3), months(4)}, // 360 × 1/3 = 120 = 4 months
	} {
		r := third(t, months(12), decrease("CP, art. 14, II", tc.f.Num, tc.f.Den))
		if r.Final != tc.want || !r.BelowMinimum || r.AboveMaximum {
			t.Errorf("12 months − %s = %+v (below %v), want %+v below the minimum", tc.f, r.Final, r.BelowMinimum, tc.want)
		}
	}
	r := third(t, months(12), decrease("CP, art. 14, II", 1, 2))
	if len(r.Steps) != 1 || r.Steps[0].Name != "tentativa" || r.Steps[0].Before != months(12) || r.Steps[0].After != months(6) {
		t.Errorf("trail %+v", r.Steps)
	}
	wantText(t, "notes", strings.Join(r.Notes, " "), "CP, art. 14, II (tentativa; de 1/3 a 2/3): diminuída de 1/2, de 1 ano para 6 meses", "abaixo do mínimo abstrato de 1 ano", "Súmula 231 do STJ limita só a segunda fase")
	// Outside 1/3 to 2/3, or as an increase: refused. The citation may be
	// written otherwise.
	thirdErr(t, "dosimetry.causes[0].fraction", months(12), decrease("CP, art. 14, II", 3, 4))
	thirdErr(t, "dosimetry.causes[0].fraction", months(12), decrease("art. 14, inciso II, do Código Penal", 1, 4))
	thirdErr(t, "dosimetry.causes[0].kind", months(12), increase("CP art. 14, II", 1, 3))
}

// CP art. 71, caput: the continued offence increases by 1/6 to 2/3, above
// the abstract maximum.
func TestDosimetry_CP71_ContinuedAboveMaximum(t *testing.T) {
	t.Parallel()
	// 24 months = 720 days × 5/3 = 1200 days = 40 months = 3 years and 4
	// months, above the maximum of 2 years.
	r := third(t, months(24), increase("CP, art. 71", 2, 3))
	if r.Final != months(40) || !r.AboveMaximum || r.BelowMinimum {
		t.Errorf("24 months + 2/3 = %+v (above %v), want 40 months above", r.Final, r.AboveMaximum)
	}
	wantText(t, "notes", strings.Join(r.Notes, " "), "crime continuado", "3 anos e 4 meses", "acima do máximo abstrato de 2 anos")
	// 13 months = 390 days × 7/6 = 455 days = 15 months and 5 days.
	if r := third(t, months(13), increase("CP, art. 71, caput", 1, 6)); r.Final != md(15, 5) || r.Final.Text() != "1 ano, 3 meses e 5 dias" {
		t.Errorf("13 months + 1/6 = %+v %q, want 15 months 5 days", r.Final, r.Final.Text())
	}
	thirdErr(t, "dosimetry.causes[0].fraction", months(13), increase("CP, art. 71", 3, 4))
	thirdErr(t, "dosimetry.causes[0].fraction", months(13), increase("CP, art. 71", 1, 7))
	// CP art. 71, parágrafo único: up to the triple (+ 2/1): 12 months ×
	// 3 = 36 months; beyond it refused.
	if r := third(t, months(12), increase("CP, art. 71, parágrafo único", 2, 1)); r.Final != months(36) {
		t.Errorf("12 months up to the triple = %+v", r.Final)
	}
	thirdErr(t, "dosimetry.causes[0].fraction", months(12), increase("CP, art. 71, par. único", 5, 2))
}

// CP art. 16: the arrependimento posterior decreases by 1/3 to 2/3.
func TestDosimetry_CP16_ArrependimentoPosterior(t *testing.T) {
	t.Parallel()
	// 18 months = 540 days × 2/3 = 360 days = 12 months.
	if r := third(t, months(18), decrease("CP, art. 16", 1, 3)); r.Final != months(12) || r.BelowMinimum {
		t.Errorf("18 months − 1/3 = %+v", r.Final)
	}
	thirdErr(t, "dosimetry.causes[0].fraction", months(18), decrease("CP, art. 16", 1, 4))
}

// CP art. 29, § 1º: minor participation decreases by 1/6 to 1/3.
func TestDosimetry_CP29Par1_MinorParticipation(t *testing.T) {
	t.Parallel()
	// 14 months = 420 days × 5/6 = 350 days = 11 months and 20 days.
	if r := third(t, months(14), decrease("CP, art. 29, § 1º", 1, 6)); r.Final != md(11, 20) || !r.BelowMinimum {
		t.Errorf("14 months − 1/6 = %+v", r.Final)
	}
	thirdErr(t, "dosimetry.causes[0].fraction", months(14), decrease("CP, art. 29, §1º", 1, 2))
}

// CP art. 68 with CP art. 11: the causes apply in cascade, exactly, and
// only the final penalty discards fractions of a day — so the order of the
// causes does not change it.
func TestDosimetry_CP68_CP11_CascadeDiscardsDayFractionsOnce(t *testing.T) {
	t.Parallel()
	// 13 months and 1 day = 391 days × 2/3 × 7/6 = 391 × 14/18 = 304.11…
	// → 304 days = 10 months and 4 days. Rounding each step would give 391
	// × 2/3 = 260.67 → 260, × 7/6 = 303.33 → 303.
	a := third(t, md(13, 1), decrease("CP, art. 14, II", 1, 3), increase("CP, art. 71", 1, 6))
	b := third(t, md(13, 1), increase("CP, art. 71", 1, 6), decrease("CP, art. 14, II", 1, 3))
	if a.Final != md(10, 4) || b.Final != md(10, 4) {
		t.Errorf("finals %+v and %+v, want 10 months 4 days", a.Final, b.Final)
	}
	// The trail shows each step with the day fraction discarded: 391 × 2/3
	// = 260.67 → 8 months and 20 days.
	if len(a.Steps) != 2 || a.Steps[0].After != md(8, 20) || a.Steps[1].Before != md(8, 20) || a.Steps[1].After != md(10, 4) {
		t.Errorf("trail %+v", a.Steps)
	}
	// No cause: the final is the intermediate.
	if r := third(t, md(15, 10)); r.Final != md(15, 10) || len(r.Steps) != 0 {
		t.Errorf("no cause: %+v", r)
	}
}

// Lei 14.597/2023, art. 201, §§ 6º and 7º as causes of increase: 24 months
// × 3/2 × 2 = 72 months, the maximum Range.PrisonMaxMonths gives; two
// causes of the special part bring the note of CP art. 68, parágrafo único.
func TestDosimetry_LGE201Par6Par7_CP68ParUnico(t *testing.T) {
	t.Parallel()
	r := third(t, months(24), increase("Lei 14.597/2023, art. 201, § 6º", 1, 2), increase("Lei 14.597/2023, art. 201, § 7º", 1, 1))
	if r.Final != months(72) {
		t.Errorf("24 months with §§ 6º and 7º = %+v, want 72 months", r.Final)
	}
	wantText(t, "notes", strings.Join(r.Notes, " "), "CP, art. 68, parágrafo único")
	thirdErr(t, "dosimetry.causes[0].fraction", months(24), increase("LGE, art. 201, § 7º", 1, 2))
	thirdErr(t, "dosimetry.causes[0].fraction", months(24), increase("Lei 14.597/2023, art. 201, § 6º", 2, 3))
	// A cause of the general part with one of the special part: no such
	// note.
	r = third(t, months(24), increase("Lei 14.597/2023, art. 201, § 6º", 1, 3), increase("CP, art. 71", 1, 6))
	if strings.Contains(strings.Join(r.Notes, " "), "parágrafo único") {
		t.Errorf("notes %v", r.Notes)
	}
}

// Súmula 231 do STJ: the second phase stays inside the abstract range.
func TestDosimetry_Sumula231STJ_SecondPhaseInRange(t *testing.T) {
	t.Parallel()
	if err := sanctions.CheckIntermediate(12, 24, months(12)); err != nil {
		t.Errorf("12 months: %v", err)
	}
	if err := sanctions.CheckIntermediate(12, 24, months(24)); err != nil {
		t.Errorf("24 months: %v", err)
	}
	invalidOn(t, sanctions.CheckIntermediate(12, 24, md(11, 29)), "dosimetry.intermediate_months")
	invalidOn(t, sanctions.CheckIntermediate(12, 24, md(24, 1)), "dosimetry.intermediate_months")
	invalidOn(t, sanctions.CheckIntermediate(12, 24, md(12, 30)), "dosimetry.intermediate_days")
	thirdErr(t, "dosimetry.intermediate_months", months(11), decrease("CP, art. 14, II", 1, 3))
}

// CP art. 68: an article the system does not know is taken with the
// fraction given; the general rules still hold.
func TestDosimetry_CP68_UnknownArticleAndGeneralRules(t *testing.T) {
	t.Parallel()
	// 12 months × (1 − 2/3) = 4 months; 12 × (1 + 5) = 72 months.
	if r := third(t, months(12), decrease("Lei 11.343/2006, art. 33, § 4º", 2, 3)); r.Final != months(4) || r.Steps[0].Name != "" {
		t.Errorf("unknown decrease: %+v", r)
	}
	if r := third(t, months(12), increase("CP, art. 157, § 2º", 5, 1)); r.Final != months(72) {
		t.Errorf("unknown increase: %+v", r.Final)
	}
	thirdErr(t, "dosimetry.causes[0].fraction", months(12), decrease("Lei 11.343/2006, art. 33, § 4º", 1, 1))
	thirdErr(t, "dosimetry.causes[0].fraction", months(12), decrease("CP, art. 26, parágrafo único", 0, 3))
	thirdErr(t, "dosimetry.causes[0].fraction", months(12), increase("CP, art. 26", 1, 0))
	thirdErr(t, "dosimetry.causes[0].article", months(12), decrease(" ", 1, 3))
	thirdErr(t, "dosimetry.causes[1].kind", months(12), decrease("CP, art. 16", 1, 3), sanctions.Cause{Kind: "both", Fraction: frac(1, 3), Article: "CP, art. 16"})
	many := make([]sanctions.Cause, sanctions.MaxCauses+1)
	for i := range many {
		many[i] = increase("CP, art. 71", 1, 6)
	}
	thirdErr(t, "dosimetry.causes", months(12), many...)
	// Ten decreases of 2/3 leave 360 / 3^10 < 1 day: no penalty (CP art. 11).
	tiny := make([]sanctions.Cause, sanctions.MaxCauses)
	for i := range tiny {
		tiny[i] = decrease("Lei 11.343/2006, art. 33, § 4º", 2, 3)
	}
	thirdErr(t, "dosimetry.causes", months(12), tiny...)
}

// CP art. 68: the judge's final penalty must be the one the causes give.
func TestDosimetry_CP68_FinalStatedByTheJudge(t *testing.T) {
	t.Parallel()
	in := sanctions.ThirdPhaseInput{MinMonths: 12, MaxMonths: 24, Intermediate: months(12), Causes: []sanctions.Cause{decrease("CP, art. 14, II", 1, 3)}}
	ok, wrong := months(8), months(6)
	in.Final = &ok
	if _, err := sanctions.DosimetryThirdPhase(in); err != nil {
		t.Errorf("final 8 months: %v", err)
	}
	in.Final = &wrong
	_, err := sanctions.DosimetryThirdPhase(in)
	invalidOn(t, err, "dosimetry.final_months")
}

// Penalty.Text and ParseFraction, as the sentence writes and reads them.
func TestDosimetry_PenaltyTextAndFraction(t *testing.T) {
	t.Parallel()
	for p, want := range map[sanctions.Penalty]string{
		months(8): "8 meses", months(12): "1 ano", months(24): "2 anos", md(14, 10): "1 ano, 2 meses e 10 dias",
		md(12, 1): "1 ano e 1 dia", md(1, 0): "1 mês", md(0, 20): "20 dias", md(40, 0): "3 anos e 4 meses",
	} {
		if got := p.Text(); got != want {
			t.Errorf("%+v.Text() = %q, want %q", p, got, want)
		}
	}
	if f, ok := sanctions.ParseFraction(" 2 / 3 "); !ok || f != frac(2, 3) {
		t.Errorf("ParseFraction(2/3) = %v %v", f, ok)
	}
	for _, s := range []string{"1/0", "1", "a/3", "1/3/4"} {
		if _, ok := sanctions.ParseFraction(s); ok {
			t.Errorf("ParseFraction(%q) ok", s)
		}
	}
}

// CP art. 75 (as amended by Lei 13.964/2019): no chain of causes of an
// article the table does not know takes the penalty past 40 years; the
// cause that crosses it is named (before: a 500 when the term did not fit
// the store, or a sentence of millions of years signed).
func TestDosimetryThirdPhase_BoundedByFortyYears_CP75(t *testing.T) {
	t.Parallel()
	big := increase("Lei X, art. 1", 100, 1)
	thirdErr(t, "dosimetry.causes[0].fraction", months(14), big, big, big, big, big)
	thirdErr(t, "dosimetry.causes[1].fraction", months(14), increase("Lei X, art. 1", 1, 1), big)
	r := third(t, months(14), increase("Lei X, art. 1", 1, 1))
	if r.Final != months(28) {
		t.Errorf("14 months doubled = %+v, want 28 months", r.Final)
	}
}
