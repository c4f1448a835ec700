package casefile_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// A group case filed before the group was registered cannot be sentenced
// (no register to reach, Lei 14.597/2023, art. 178 § 4º, art. 183 § 2º);
// once the clerk links the group defendant to the group registered in the
// court, with a docket movement and a new case version, it can. Other
// roles, a judge other than the case's, another court's staff, a person
// defendant, a defendant of another case, a missing group_id and a group
// of another court or none are refused; after the ban the link is fixed.
func TestLinkGroup_ThenSentence_Art183(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	ctx := context.Background()
	if err := cases.EnsureCourt(ctx, e.G, "19.0001", ""); err != nil {
		t.Fatal(err)
	}
	c, d, j := e.FileOne(t, "R5")
	if d.Kind != "fan_group" || d.GroupID != nil {
		t.Fatalf("defendant %+v: want an unlinked group", d)
	}
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.GroupSentenceIn(d.ID, 12))
	casetest.InvalidField(t, err, "defendant_id", false)

	var here, there int64
	if err := e.G.Raw("INSERT INTO fan_groups (name, supported_club, court_code) VALUES ('Garra Alvinegra Registrada', 'Corinthians', ?) RETURNING id", testenv.Court).Scan(&here).Error; err != nil {
		t.Fatal(err)
	}
	if err := e.G.Raw("INSERT INTO fan_groups (name, supported_club, court_code) VALUES ('Torcida do Rio', 'Flamengo', '19.0001') RETURNING id").Scan(&there).Error; err != nil {
		t.Fatal(err)
	}
	clerk := e.User(t, "Escrivã", "clerk")
	otherClerk := actor.Actor{UserID: clerk.UserID, Name: "Outro cartório", Role: "clerk", Court: "19.0001"}
	otherJudge := e.Judges[0]
	if otherJudge.UserID == j.UserID {
		otherJudge = e.Judges[1]
	}
	in := casefile.LinkGroupInput{GroupID: &here}
	moves := e.Count(t, "movements", "case_id = ?", c.ID)

	_, err = e.Svc.Casefile.LinkGroup(ctx, e.Pros, c.ID, d.ID, in)
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Casefile.LinkGroup(ctx, otherJudge, c.ID, d.ID, in)
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Casefile.LinkGroup(ctx, otherClerk, c.ID, d.ID, in)
	casetest.KindIs(t, err, errs.NotFound)
	_, err = e.Svc.Casefile.LinkGroup(ctx, clerk, c.ID, 99999, in)
	casetest.KindIs(t, err, errs.NotFound)
	c1, d1, _ := e.FileOne(t, "R1")
	_, err = e.Svc.Casefile.LinkGroup(ctx, clerk, c.ID, d1.ID, in) // defendant of another case
	casetest.KindIs(t, err, errs.NotFound)
	_, err = e.Svc.Casefile.LinkGroup(ctx, clerk, c1.ID, d1.ID, in)
	if msg := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(msg, "pessoa") {
		t.Errorf("person defendant: %q", msg)
	}
	_, err = e.Svc.Casefile.LinkGroup(ctx, clerk, c.ID, d.ID, casefile.LinkGroupInput{})
	casetest.InvalidField(t, err, "group_id", false)
	// A group of another court is not found, exactly as an unknown one.
	var msgs []string
	for _, gid := range []int64{there, 999999} {
		_, err = e.Svc.Casefile.LinkGroup(ctx, clerk, c.ID, d.ID, casefile.LinkGroupInput{GroupID: &gid})
		casetest.KindIs(t, err, errs.NotFound)
		if err != nil {
			msgs = append(msgs, strings.ReplaceAll(err.Error(), fmt.Sprint(gid), "N"))
		}
	}
	if len(msgs) == 2 && msgs[0] != msgs[1] {
		t.Errorf("another court's group and an unknown one are told apart: %q vs %q", msgs[0], msgs[1])
	}
	bad := int64(-1)
	_, err = e.Svc.Casefile.LinkGroup(ctx, clerk, c.ID, d.ID, casefile.LinkGroupInput{GroupID: &bad})
	casetest.InvalidField(t, err, "group_id", false)
	if n := e.Count(t, "movements", "case_id = ?", c.ID); n != moves {
		t.Fatalf("refused links wrote %d movements", n-moves)
	}
	if n := e.Count(t, "defendants", "id = ? AND group_id IS NOT NULL", d.ID); n != 0 {
		t.Fatal("a refused link was stored")
	}

	v, err := e.Svc.Casefile.LinkGroup(ctx, clerk, c.ID, d.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if v.Defendants[0].GroupID == nil || *v.Defendants[0].GroupID != here || v.Version != c.Version+1 {
		t.Errorf("after the link: defendant %+v, version %d (was %d)", v.Defendants[0], v.Version, c.Version)
	}
	if n := e.Count(t, "movements", "case_id = ? AND description LIKE '%vinculada à torcida cadastrada%'", c.ID); n != 1 {
		t.Errorf("%d link movements, want 1", n)
	}
	// The same group again changes nothing (PUT).
	if v2, err := e.Svc.Casefile.LinkGroup(ctx, j, c.ID, d.ID, in); err != nil || v2.Version != v.Version {
		t.Errorf("same link again: %v, version %v", err, v2)
	}
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.GroupSentenceIn(d.ID, 12))
	if err != nil {
		t.Fatalf("sentence after the link: %v", err)
	}
	if res.Ban.GroupID == nil || *res.Ban.GroupID != here || res.Ban.Name != "Garra Alvinegra Registrada" || !strings.HasPrefix(res.Ban.Article, "art. 183") {
		t.Errorf("group ban = %+v", res.Ban)
	}
	var other int64
	if err := e.G.Raw("INSERT INTO fan_groups (name, court_code) VALUES ('Outra Torcida', ?) RETURNING id", testenv.Court).Scan(&other).Error; err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Casefile.LinkGroup(ctx, clerk, c.ID, d.ID, casefile.LinkGroupInput{GroupID: &other})
	casetest.KindIs(t, err, errs.Conflict)
}
