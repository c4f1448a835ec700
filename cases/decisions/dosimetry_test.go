package decisions_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// cause is a cause of the third phase with its fraction as the API takes it.
func cause(kind, fraction, article string) decisions.CauseInput {
	raw, _ := json.Marshal(fraction)
	return decisions.CauseInput{Kind: kind, Fraction: raw, Article: article}
}

// prisonSentence is a conviction to reclusão and fine with no conversion
// (art. 201, § 2º not met) with the dosimetry dz.
func prisonSentence(defID int64, dz *decisions.Dosimetry) decisions.SentenceInput {
	return decisions.SentenceInput{DefendantID: defID, Outcome: decisions.OutcomePrison, Eligible: casetest.Ptr(false), FineDays: casetest.Ptr(10),
		Text: casetest.Reasoned(), Dosimetry: dz}
}

// CP art. 14, II and art. 68 (Súmula 231 STJ binds the second phase only):
// the attempt decreases the penalty by 1/3 to 2/3 in the third phase, below
// the offence's minimum of 12 months (Lei 14.597/2023, art. 201); the cause
// is recorded with its article and fraction, the term with its days, the
// docket and the stored dosimetry say so. Without the cause, a final
// penalty below the minimum is refused; a fraction the article does not
// allow or that is no fraction is 422 naming dosimetry.causes[i].fraction.
func TestDosimetryThirdPhase_AttemptBelowMinimum_CP14II_Sumula231(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)

	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, prisonSentence(d.ID, &decisions.Dosimetry{BaseMonths: 14, IntermediateMonths: 14, FinalMonths: 9}))
	if m := casetest.InvalidField(t, err, "dosimetry.final_months", false); !strings.Contains(m, "dosimetry.causes") {
		t.Errorf("below the minimum without a cause: %q", m)
	}
	for _, bad := range []struct{ fraction, why string }{{"3/4", "CP, art. 14, II"}, {"um terço", "1/3"}, {"1/0", "1/3"}} {
		_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, prisonSentence(d.ID, &decisions.Dosimetry{BaseMonths: 14, IntermediateMonths: 14,
			Causes: []decisions.CauseInput{cause("decrease", bad.fraction, "CP, art. 14, II")}}))
		if m := casetest.InvalidField(t, err, "dosimetry.causes[0].fraction", false); !strings.Contains(m, bad.why) {
			t.Errorf("fraction %s: %q", bad.fraction, m)
		}
	}
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, prisonSentence(d.ID, &decisions.Dosimetry{BaseMonths: 14, IntermediateMonths: 14,
		Causes: []decisions.CauseInput{cause("increase", "1/3", "CP, art. 14, II")}}))
	casetest.InvalidField(t, err, "dosimetry.causes[0].kind", false)

	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, prisonSentence(d.ID, &decisions.Dosimetry{BaseMonths: 14, BaseReasons: "culpabilidade acentuada",
		IntermediateMonths: 14, Causes: []decisions.CauseInput{cause("decrease", "1/3", "CP, art. 14, II")}, FinalReasons: "tentativa: iter criminis percorrido em boa parte"}))
	if err != nil {
		t.Fatal(err)
	}
	// 14 months = 420 days; less 1/3: 280 days = 9 months and 10 days.
	if res.Prison == nil || res.Prison.Months != 9 || res.Prison.Days != 10 || *res.Sentence.PrisonMonths != 9 || res.Sentence.PrisonDays == nil || *res.Sentence.PrisonDays != 10 {
		t.Fatalf("prison %+v, sentence %+v: want 9 months and 10 days", res.Prison, res.Sentence)
	}
	var stored decisions.Dosimetry
	var row struct {
		Dosimetry  string
		PrisonDays int
	}
	e.G.Raw("SELECT dosimetry::text AS dosimetry, prison_days FROM sentences WHERE id = ?", res.Sentence.ID).Scan(&row)
	if err := json.Unmarshal([]byte(row.Dosimetry), &stored); err != nil || row.PrisonDays != 10 {
		t.Fatalf("stored %q %d: %v", row.Dosimetry, row.PrisonDays, err)
	}
	tp := stored.ThirdPhase
	if tp == nil || len(tp.Steps) != 1 || tp.Steps[0].Cause.Article != "CP, art. 14, II" || tp.Steps[0].Cause.Fraction != (sanctions.Fraction{Num: 1, Den: 3}) ||
		tp.Steps[0].Name != "tentativa" || !tp.BelowMinimum || tp.Final != (sanctions.Penalty{Months: 9, Days: 10}) || stored.FinalMonths != 9 || stored.FinalDays != 10 {
		t.Errorf("stored third phase %+v", tp)
	}
	var docket string
	e.G.Raw("SELECT description FROM movements WHERE case_id = ? AND tpu_code = 219", c.ID).Scan(&docket)
	if !strings.Contains(docket, "reclusão de 9 meses e 10 dias") {
		t.Errorf("docket %q", docket)
	}
}

// CP art. 71 and art. 68: the continued offence increases the penalty by
// 1/6 to 2/3 in the third phase, above the offence's maximum of 24 months;
// the final penalty the judge states must be the one the causes give; the
// conversion into a ban keeps the reclusão converted.
func TestDosimetryThirdPhase_ContinuedOffenceAboveMaximum_CP71(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in := prisonSentence(d.ID, &decisions.Dosimetry{BaseMonths: 24, IntermediateMonths: 24, FinalMonths: 30,
		Causes: []decisions.CauseInput{cause("increase", "1/2", "CP, art. 71, caput")}})
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	casetest.InvalidField(t, err, "dosimetry.final_months", false)
	in.Dosimetry.FinalMonths = 36
	in.PrisonMonths = casetest.Ptr(36)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Prison == nil || res.Prison.Months != 36 || res.Prison.Days != 0 || res.Sentence.PrisonDays != nil {
		t.Fatalf("prison %+v", res.Prison)
	}

	// A conversion (art. 201, § 2º) of a third phase below the minimum.
	c2, d2, j2 := e.FileOne(t, "R2")
	e.Receive(t, c2)
	conv := casetest.SentenceIn(d2.ID, "", 6)
	conv.Dosimetry = &decisions.Dosimetry{BaseMonths: 12, IntermediateMonths: 12, Causes: []decisions.CauseInput{cause("decrease", "1/2", "CP, art. 14, II")}}
	res, err = e.Svc.Decisions.Sentence(ctx, j2, c2.ID, conv)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ban == nil || res.Ban.PrisonMonths == nil || *res.Ban.PrisonMonths != 6 || *res.Sentence.PrisonMonths != 6 {
		t.Errorf("conversion of 6 months of reclusão: ban %+v sentence %+v", res.Ban, res.Sentence)
	}
}

// Lei 14.597/2023, art. 201, § 6º, in the third phase (CP art. 68): the
// organiser's flag is a cause of increase of 1/3 to 1/2, so causes that
// leave it out are refused naming dosimetry.causes; with it and an attempt
// (CP art. 14, II) the term is where both lead.
func TestDosimetryThirdPhase_OrganiserCauseRequired_LGE201sec6(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R4")
	e.Receive(t, c)
	in := decisions.SentenceInput{DefendantID: d.ID, Outcome: decisions.OutcomePrison, Organiser: casetest.Ptr(true), FineDays: casetest.Ptr(10), Text: casetest.Reasoned(),
		Dosimetry: &decisions.Dosimetry{BaseMonths: 18, IntermediateMonths: 18, Causes: []decisions.CauseInput{cause("decrease", "1/3", "CP, art. 14, II")}}}
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if m := casetest.InvalidField(t, err, "dosimetry.causes", false); !strings.Contains(m, "§ 6º") {
		t.Errorf("organiser without the § 6º cause: %q", m)
	}
	in.Dosimetry.Causes = append(in.Dosimetry.Causes, cause("increase", "1/2", "Lei 14.597/2023, art. 201, § 6º"))
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	// 18 months = 540 days; less 1/3: 360; plus 1/2: 540 days = 18 months.
	if res.Prison == nil || res.Prison.Months != 18 || res.Prison.Days != 0 {
		t.Errorf("prison %+v, want 18 months", res.Prison)
	}
}

// CP art. 68, parágrafo único: the organiser's increase (Lei 14.597/2023,
// art. 201, § 6º: 1/3 to 1/2) and § 7º's (doubled) are causes of increase
// of the special part that concur when both flags are set; the judge may
// apply both or limit himself to the one that increases most, § 7º's, and
// the choice is recorded with the stored third phase; § 6º's alone is 422
// naming dosimetry.causes and citing the article, and so is neither.
func TestDosimetryThirdPhase_Sec6AndSec7_CP68ParUnico_LargerOrBoth(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	sec6 := cause("increase", "1/2", "Lei 14.597/2023, art. 201, § 6º")
	sec7 := cause("increase", "1/1", "Lei 14.597/2023, art. 201, § 7º")
	both := func(d int64, causes ...decisions.CauseInput) decisions.SentenceInput {
		return decisions.SentenceInput{DefendantID: d, Outcome: decisions.OutcomePrison, Organiser: casetest.Ptr(true), Sec7: casetest.Ptr(true), Sec7Ground: "racism",
			FineDays: casetest.Ptr(10), Text: casetest.Reasoned(), Dosimetry: &decisions.Dosimetry{BaseMonths: 18, IntermediateMonths: 18, Causes: causes}}
	}
	storedNotes := func(t *testing.T, sentenceID int64) string {
		t.Helper()
		var raw string
		e.G.Raw("SELECT dosimetry::text FROM sentences WHERE id = ?", sentenceID).Scan(&raw)
		var dz decisions.Dosimetry
		if err := json.Unmarshal([]byte(raw), &dz); err != nil || dz.ThirdPhase == nil {
			t.Fatalf("stored dosimetry %q: %v", raw, err)
		}
		return strings.Join(dz.ThirdPhase.Notes, " ")
	}

	c, d, j := e.FileOne(t, "R4")
	e.Receive(t, c)
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, both(d.ID, sec6))
	if m := casetest.InvalidField(t, err, "dosimetry.causes", false); !strings.Contains(m, "CP, art. 68, parágrafo único") || !strings.Contains(m, "§ 7º") {
		t.Errorf("§ 6º alone with both flags: %q", m)
	}
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, both(d.ID))
	casetest.InvalidField(t, err, "dosimetry.final_months", false) // no causes: the final of 0 months is outside 32 to 72
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, both(d.ID, cause("decrease", "1/3", "CP, art. 14, II")))
	if m := casetest.InvalidField(t, err, "dosimetry.causes", false); !strings.Contains(m, "§ 7º") {
		t.Errorf("neither increase with both flags: %q", m)
	}

	// prison_months alone is checked against the range with both
	// increases (32 to 72 months); the message says how to apply § 7º's alone.
	plain := both(d.ID)
	plain.Dosimetry, plain.PrisonMonths = nil, casetest.Ptr(30)
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, plain)
	if m := casetest.InvalidField(t, err, "prison_months", false); !strings.Contains(m, "CP, art. 68, parágrafo único") || !strings.Contains(m, "dosimetry.causes") {
		t.Errorf("prison_months outside 32 to 72 with both flags: %q", m)
	}

	// § 7º alone, the larger: 18 months doubled, 36; the choice recorded.
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, both(d.ID, sec7))
	if err != nil {
		t.Fatal(err)
	}
	if res.Prison == nil || res.Prison.Months != 36 || res.Prison.Days != 0 {
		t.Errorf("§ 7º alone: prison %+v, want 36 months", res.Prison)
	}
	if n := storedNotes(t, res.Sentence.ID); !strings.Contains(n, "limitou-se à do § 7º") || !strings.Contains(n, "CP, art. 68, parágrafo único") {
		t.Errorf("§ 7º alone: stored notes %q do not record the judge's choice", n)
	}

	// Both: 18 months plus 1/2, 27, doubled, 54.
	c2, d2, j2 := e.FileOne(t, "R4")
	e.Receive(t, c2)
	res, err = e.Svc.Decisions.Sentence(ctx, j2, c2.ID, both(d2.ID, sec6, sec7))
	if err != nil {
		t.Fatal(err)
	}
	if res.Prison == nil || res.Prison.Months != 54 || res.Prison.Days != 0 {
		t.Errorf("both increases: prison %+v, want 54 months", res.Prison)
	}
	if n := storedNotes(t, res.Sentence.ID); !strings.Contains(n, "aplicadas todas") || strings.Contains(n, "limitou-se") {
		t.Errorf("both increases: stored notes %q", n)
	}
}
