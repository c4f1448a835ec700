package calendar_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/civil"
)

// CP art. 109: the period by the maximum of the offence charged; art. 115:
// halved for a defendant under 21 at the facts or over 70 at the sentence;
// art. 117, I: the receipt of the accusation starts it again.
func TestPrescription_CP_art109_art115_art117(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		max    int
		halved bool
		months int
	}{
		{11, false, 36}, {24, false, 48}, {36, false, 96}, {48, false, 96}, {72, false, 144}, {60, false, 144}, {24, true, 24}, {48, true, 48},
	} {
		if got := calendar.PrescriptionMonths(tc.max, tc.halved); got != tc.months {
			t.Errorf("PrescriptionMonths(%d, %v) = %d, want %d", tc.max, tc.halved, got, tc.months)
		}
	}
	facts := civil.MustParse("2021-03-30")
	adult, young, old := civil.MustParse("1990-01-01"), civil.MustParse("2001-01-01"), civil.MustParse("1953-01-01")
	// 24 months (art. 201 caput): 4 years; at 4 years and a day, over.
	at := civil.MustParse("2025-03-30")
	if w := calendar.PrescriptionWarning(24, facts, nil, at, &adult); !strings.Contains(w, "4 anos") || !strings.Contains(w, "terminou em 29/03/2025") {
		t.Errorf("adult at 4 years: %q", w)
	}
	if w := calendar.PrescriptionWarning(24, facts, nil, civil.MustParse("2023-06-01"), &adult); w != "" {
		t.Errorf("adult at 2 years: %q", w)
	}
	// Under 21 at the facts: halved, 2 years.
	if w := calendar.PrescriptionWarning(24, facts, nil, civil.MustParse("2023-06-01"), &young); !strings.Contains(w, "2 anos") || !strings.Contains(w, "art. 115") || !strings.Contains(w, "menor de 21") {
		t.Errorf("under 21: %q", w)
	}
	// Over 70 at the sentence: halved.
	if w := calendar.PrescriptionWarning(24, facts, nil, civil.MustParse("2023-06-01"), &old); !strings.Contains(w, "maior de 70") {
		t.Errorf("over 70: %q", w)
	}
	// § 6º and § 7º raise the maximum: 72 months, 12 years: no warning at 4.
	if w := calendar.PrescriptionWarning(72, facts, nil, at, &adult); w != "" {
		t.Errorf("72 months at 4 years: %q", w)
	}
	// The receipt of the accusation interrupts (art. 117, I).
	rec := civil.MustParse("2022-01-10")
	if w := calendar.PrescriptionWarning(24, facts, &rec, at, &adult); w != "" {
		t.Errorf("counted from the receipt: %q", w)
	}
	if w := calendar.PrescriptionWarning(24, facts, &rec, civil.MustParse("2025-12-01"), &adult); !strings.Contains(w, "recebimento da denúncia") {
		t.Errorf("from the receipt, near its end: %q", w)
	}
}

// CP art. 115 on the case page and the sentence: a defendant under 21 at
// the facts gets the halved period's warning (2 years for art. 201's
// maximum of 2 years), and the judge decides.
func TestPrescription_CP_art115_WarningOnCaseAndSentence(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2027, 6, 10, 12, 0, 0, 0, saoPaulo), 1)
	ctx := context.Background()
	r := casetest.Fixture(t, "R1") // facts 30/03/2025
	r.Defendants[0].BirthDate = "2005-01-01"
	c, d, j := func() (*cases.Case, cases.Defendant, cases.Actor) {
		c := e.File(t, r)
		return c, e.Defendants(t, c.ID)[0], e.JudgeOf(t, c)
	}()
	v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(v.Warnings, " "); !strings.Contains(w, "art. 115") || !strings.Contains(w, "terminou em 29/03/2027") {
		t.Errorf("case warnings %v", v.Warnings)
	}
	e.Receive(t, c)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{DefendantID: d.ID, Ban: decisions.BanInput{FirstDay: "2027-06-10", Months: casetest.Ptr(6)},
		ReportingDuty: &cases.ReportingDuty{Place: "2º DP", Club: "Corinthians"}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(res.Warnings, " "); !strings.Contains(w, "art. 115") {
		t.Errorf("sentence warnings %v", res.Warnings)
	}
}
