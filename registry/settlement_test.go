package registry_test

import (
	"context"
	"errors"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// A homologated TAC that bars the group from stadiums (DOMAIN.md §2 and
// §3; LGE art. 183, § 2º) makes the group's ban and its members' (source
// settlement) for the agreed period from the day the TAC fixes, members
// resolved as for a civil judgment (registry.SelectBanMembers: members at
// the date of the facts, minus those excluded with a reason), and they
// reach the blocklist; a TAC without the bar makes none.
func TestSettlement_LGE_art183_sec2_TACBansReachTheBlocklist(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	_, _, byCPF := e.registeredGroup(t)
	clerk := e.clerk
	prosA := e.user(t, "promotora", "prosecutor", "26.0100", 0)
	judge := e.user(t, "juiz", "judge", "26.0100", 0)
	file := func() (*cases.Case, int64) {
		c, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.casesS.Casefile.Transition(ctx, clerk, c.ID, casefile.TransitionInput{To: cases.StatusHearing}); err != nil {
			t.Fatal(err)
		}
		v, _ := e.casesS.Casefile.Get(ctx, prosA, c.ID)
		return c, v.Defendants[0].ID
	}
	c, def := file()
	_, err := e.casesS.Decisions.Settle(ctx, judge, c.ID, decisions.SettlementInput{DefendantID: def, Terms: "A torcida não comparecerá a estádios.", StadiumBan: true,
		Months: ptr(72), FirstDay: "2025-07-01"})
	invalidOn(t, err, "months")
	res, err := e.casesS.Decisions.Settle(ctx, judge, c.ID, decisions.SettlementInput{DefendantID: def, Terms: "A torcida não comparecerá a estádios.", StadiumBan: true,
		Months: ptr(12), FirstDay: "2025-06-10", ExcludedMemberIDs: []int64{byCPF["97037600903"]}, ExclusionReason: "não era associado ativo"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ban == nil || res.Ban.Source != sanctions.FromSettlement || res.Ban.Status != "active" || res.Ban.FirstDay.String() != "2025-06-10" ||
		res.Ban.LastDay == nil || res.Ban.LastDay.String() != "2026-06-09" {
		t.Fatalf("TAC ban %+v", res.Ban)
	}
	if len(res.MemberBans) != 4 {
		t.Fatalf("member bans: %d, want 4 (5 imported − 1 excluded)", len(res.MemberBans))
	}
	for _, mb := range res.MemberBans {
		if mb.Source != sanctions.FromSettlement || mb.GroupBanID == nil || *mb.GroupBanID != res.Ban.ID {
			t.Errorf("member ban %+v", mb)
		}
		if r, err := e.lists.Check(ctx, registry.CPF(*mb.CPF)); err != nil || !r.Blocked {
			t.Errorf("member %s not blocked: %+v %v", *mb.CPF, r, err)
		}
	}
	if r, _ := e.lists.Check(ctx, registry.CPF("97037600903")); r.Blocked {
		t.Error("the excluded member is blocked")
	}
	var st string
	e.g.Raw("SELECT status FROM cases WHERE id = ?", c.ID).Scan(&st)
	if st != cases.StatusSettlement {
		t.Errorf("case status %s after the TAC", st)
	}
	// A TAC without the bar makes no ban.
	c2, def2 := file()
	if _, err := e.casesS.Decisions.Settle(ctx, judge, c2.ID, decisions.SettlementInput{DefendantID: def2, Terms: "A torcida fará campanha contra a violência."}); err != nil {
		t.Fatal(err)
	}
	var n int64
	e.g.Raw("SELECT count(*) FROM bans WHERE case_id = ?", c2.ID).Scan(&n)
	if n != 0 {
		t.Errorf("%d bans from a TAC without a stadium bar", n)
	}
}

func ptr[T any](v T) *T { return &v }

// invalidOn fails unless err is errs.Invalid naming field.
func invalidOn(t *testing.T, err error, field string) {
	t.Helper()
	var ae *errs.Error
	if !errors.As(err, &ae) || ae.Kind != errs.Invalid {
		t.Fatalf("error %v, want Invalid on %s", err, field)
	}
	for _, f := range ae.Fields {
		if f.Field == field {
			return
		}
	}
	t.Fatalf("fields %+v, want %s", ae.Fields, field)
}
