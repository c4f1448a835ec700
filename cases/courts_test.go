package cases_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// Courts are cases' own table (README "Tables and their owners"): a court
// is found by its code TR.OOOO (Res. CNJ 65/2008) or is errs.NotFound, its
// defaults for new sentences (LGE art. 201, § 7º reading; publication,
// DOMAIN.md §6) are set there, and the load of each judge counts their
// cases, all and open, for the equitable distribution.
func TestCourtsAndJudgeLoads(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, testenv.T0, 2)
	if ok, err := cases.CourtExists(ctx, e.G, testenv.Court); err != nil || !ok {
		t.Fatalf("CourtExists(%s) = %v, %v", testenv.Court, ok, err)
	}
	if ok, err := cases.CourtExists(ctx, e.G, "19.0001"); err != nil || ok {
		t.Fatalf("CourtExists(19.0001) = %v, %v", ok, err)
	}
	if _, err := cases.GetCourt(ctx, e.G, "19.0001"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("GetCourt(unknown) = %v, want errs.NotFound", err)
	}
	found, err := cases.SetCourtDefaults(ctx, e.G, testenv.Court, true, false)
	if err != nil || !found {
		t.Fatalf("SetCourtDefaults = %v, %v", found, err)
	}
	c, err := cases.GetCourt(ctx, e.G, testenv.Court)
	if err != nil || !c.Sec7DoublesBan || c.PublishDefault || c.Code != testenv.Court {
		t.Fatalf("GetCourt = %+v, %v", c, err)
	}
	if found, err := cases.SetCourtDefaults(ctx, e.G, "19.0001", true, true); err != nil || found {
		t.Errorf("SetCourtDefaults(unknown) = %v, %v", found, err)
	}
	if name, err := e.Svc.Case.CourtName(ctx, testenv.Court); err != nil || name != c.Name {
		t.Errorf("CourtName = %q, %v; want %q", name, err, c.Name)
	}
	if first, err := e.Svc.Case.FirstCourt(ctx); err != nil || first != testenv.Court {
		t.Errorf("FirstCourt = %q, %v", first, err)
	}
	vs, err := cases.ListVenues(ctx, e.G)
	if err != nil || len(vs) == 0 {
		t.Fatalf("ListVenues = %d venues, %v", len(vs), err)
	}
	for i := 1; i < len(vs); i++ {
		if vs[i-1].Name > vs[i].Name {
			t.Fatalf("venues not by name: %q before %q", vs[i-1].Name, vs[i].Name)
		}
	}

	_, refs, _ := e.FileFixtures(t)
	n, err := cases.CountCases(ctx, e.G)
	if err != nil || n < int64(len(refs)) {
		t.Fatalf("CountCases = %d, %v; filed %d representations", n, err, len(refs))
	}
	ids := []int64{e.Judges[0].UserID, e.Judges[1].UserID, e.Pros.UserID}
	loads, err := cases.JudgeLoads(ctx, e.G, ids)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := loads[e.Pros.UserID]; ok {
		t.Errorf("the prosecutor has a load: %+v", loads)
	}
	a, b := loads[e.Judges[0].UserID], loads[e.Judges[1].UserID]
	if a.Total+b.Total != n || a.Open != a.Total || b.Open != b.Total {
		t.Errorf("loads %+v %+v for %d cases, none final", a, b, n)
	}
	if d := a.Total - b.Total; d < -1 || d > 1 {
		t.Errorf("distribution not equitable: %d and %d cases", a.Total, b.Total)
	}
}
