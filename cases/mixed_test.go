package cases_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
)

// mixed is R5 (a fan group) with R1's person added: a representation
// against a person and a fan group.
func mixed(t *testing.T) cases.Representation {
	r := casetest.Fixture(t, "R5")
	r.Defendants = append([]cases.DefendantInput{casetest.Fixture(t, "R1").Defendants[0]}, r.Defendants...)
	return r
}

// DOMAIN.md §4 and §2 (a torcida is no criminal defendant; LGE art. 180):
// a representation against persons and fan groups files a criminal case
// for the persons (Lei 9.099/1995) and a civil case for the groups, linked
// to each other, each with its own CNJ number (Res. CNJ 65/2008), docket
// and judge by distribution, in one transaction.
func TestFile_DOMAIN4_MixedRepresentationTwoLinkedCases(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	ctx := context.Background()
	crim, err := e.Svc.Case.File(ctx, e.Pros, mixed(t))
	if err != nil {
		t.Fatal(err)
	}
	if crim.Flow != cases.FlowCriminal || crim.LinkedCaseID == nil {
		t.Fatalf("criminal case: flow %s linked %v", crim.Flow, crim.LinkedCaseID)
	}
	var civ cases.Case
	if err := e.G.Where("id = ?", *crim.LinkedCaseID).Take(&civ).Error; err != nil {
		t.Fatal(err)
	}
	if civ.Flow != cases.FlowCivil || civ.LinkedCaseID == nil || *civ.LinkedCaseID != crim.ID {
		t.Errorf("civil case: flow %s links back to %v", civ.Flow, civ.LinkedCaseID)
	}
	if civ.Number == crim.Number {
		t.Error("both cases have the same number")
	}
	for _, n := range []string{crim.Number, civ.Number} {
		if _, err := cases.ParseCNJ(n); err != nil {
			t.Errorf("number %s: %v", n, err)
		}
	}
	if crim.JudgeID == nil || civ.JudgeID == nil || *crim.JudgeID == *civ.JudgeID {
		t.Errorf("judges %v and %v: each case is distributed in turn", crim.JudgeID, civ.JudgeID)
	}
	pd, gd := e.Defendants(t, crim.ID), e.Defendants(t, civ.ID)
	if len(pd) != 1 || pd[0].Kind != "person" || len(gd) != 1 || gd[0].Kind != "fan_group" {
		t.Errorf("defendants: criminal %+v civil %+v", pd, gd)
	}
	for _, id := range []int64{crim.ID, civ.ID} {
		if n := e.Count(t, "movements", "case_id = ? AND tpu_code = 26", id); n != 1 {
			t.Errorf("case %d: %d distribution movements", id, n)
		}
	}
	v, err := e.Svc.Casefile.Get(ctx, e.Pros, crim.ID)
	if err != nil || v.LinkedCase == nil || v.LinkedCase.ID != civ.ID || v.LinkedCase.Number != cases.FormatNumber(civ.Number) {
		t.Fatalf("criminal view linked_case %+v %v", v.LinkedCase, err)
	}
	v, _ = e.Svc.Casefile.Get(ctx, e.Pros, civ.ID)
	if v.LinkedCase == nil || v.LinkedCase.ID != crim.ID || v.LinkedCase.Flow != cases.FlowCriminal {
		t.Errorf("civil view linked_case %+v", v.LinkedCase)
	}
	// An invalid mixed representation files nothing.
	bad := mixed(t)
	bad.Defendants[1].Name = ""
	before := e.Count(t, "cases", "")
	if _, err := e.Svc.Case.File(ctx, e.Pros, bad); err == nil {
		t.Fatal("invalid group accepted")
	}
	if e.Count(t, "cases", "") != before {
		t.Error("a refused mixed representation filed a case")
	}
	// Only persons, or only groups: one case, no link.
	one := e.File(t, casetest.Fixture(t, "R5"))
	if one.LinkedCaseID != nil || one.Flow != cases.FlowCivil {
		t.Errorf("group-only case: %+v", one)
	}
}
