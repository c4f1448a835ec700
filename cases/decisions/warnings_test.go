package decisions_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
)

func hasWarning(ws []string, parts ...string) bool {
	for _, w := range ws {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(w, p)
		}
		if all {
			return true
		}
	}
	return false
}

// Súmula 643 STJ: a sentence's ban starts at the final judgment, so it can
// no longer lie in the past: a first day before today is refused, and the
// sentence's answer says the ban waits for the final judgment.
func TestSentence_BanWaitsForFinalJudgment_Sumula_643_STJ(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2025, 10, 1, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "2025-04-01", 3))
	casetest.InvalidField(t, err, "ban.first_day", false)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Ban.Status != "awaiting_final" || res.Ban.FirstDay != nil || res.Ban.LastDay != nil || !hasWarning(res.Warnings, "aguarda o trânsito em julgado") {
		t.Errorf("ban %+v, warnings %q: want awaiting_final with no days", res.Ban, res.Warnings)
	}
	if hasWarning(res.Warnings, "inteiramente no passado") {
		t.Errorf("a ban awaiting the final judgment warns it is past: %q", res.Warnings)
	}
}

// Lei 14.597/2023, art. 201, § 2º: the ban replaces the reclusão only for an
// agent "não ter sido punido anteriormente pela prática de condutas
// previstas neste artigo". A CPF already sentenced under art. 201, sentenced
// again without eligible, gets a warning pointing to § 2º (the legal result
// stays the default, eligible); with eligible given, or for a first
// punishment, no such warning.
func TestSentence_WarnsPriorPunishmentArt201Sec2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j, res := e.Sentenced(t, "R1", 6)
	if hasWarning(res.Warnings, "punido") {
		t.Errorf("first punishment warns: %q", res.Warnings)
	}
	first := c.Number
	c, d, j = e.FileOne(t, "R1") // the same person (CPF 663.923.321-54) again
	e.Receive(t, c)
	in := casetest.SentenceIn(d.ID, "", 6)
	in.Eligible = casetest.Ptr(true)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if hasWarning(res.Warnings, "punido") {
		t.Errorf("eligible given by the judge, still warned: %q", res.Warnings)
	}
	c, d, j, res = e.Sentenced(t, "R1", 6)
	if !hasWarning(res.Warnings, "663.923.321-54", "art. 201, § 2º", "não tiver sido punido anteriormente", "eligible", first[:7]) {
		t.Errorf("warnings %q: want the prior art. 201 punishment pointing to § 2º", res.Warnings)
	}
	if !res.Ban.Eligible {
		t.Error("the warning changed the legal result (eligible)")
	}
	warns, err := e.Svc.Casefile.SentenceWarnings(ctx, j, c.ID, d.ID)
	if err != nil || !hasWarning(warns, "art. 201, § 2º", "não tiver sido punido anteriormente") {
		t.Errorf("sentence form warnings %q (%v): want the § 2º warning", warns, err)
	}
}

// The same CPF with another birth date on another defendant record is
// warned about at filing (the case's warnings) and at the sentence.
func TestFileAndSentence_WarnSameCPFOtherBirthDate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	e.FileOne(t, "R1")
	r := casetest.Fixture(t, "R1")
	r.Defendants[0].BirthDate = "1991-07-23"
	c := e.File(t, r)
	v, err := e.Svc.Casefile.Get(ctx, e.Pros, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(v.Warnings, "663.923.321-54", "23/07/1991", "22/07/1991") {
		t.Errorf("case warnings %q: want the other birth date", v.Warnings)
	}
	e.Receive(t, c)
	d := e.Defendants(t, c.ID)[0]
	res, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, c), c.ID, casetest.SentenceIn(d.ID, "", 6))
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(res.Warnings, "663.923.321-54", "22/07/1991") {
		t.Errorf("sentence warnings %q: want the other birth date", res.Warnings)
	}
	// Same birth date: no warning.
	c2 := e.File(t, casetest.Fixture(t, "R1"))
	v, err = e.Svc.Casefile.Get(ctx, e.Pros, c2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(v.Warnings, "23/07/1991") || hasWarning(v.Warnings, "nascimento em 22/07/1991 neste processo, mas 22/07/1991") {
		t.Errorf("case with the first birth date: warnings %q", v.Warnings)
	}
}
