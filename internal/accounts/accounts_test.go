package accounts_test

import (
	"context"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/pgtest"
)

// The reads other packages make of users go through accounts: names by id, the enabled judges of a court (distribution, Lei
// 9.099/1995 and the court's equitable turn), the enabled users of a club,
// the owner of a token; disabled accounts are left out where only enabled
// ones may act.
func TestUserReadsOfOtherPackages(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	for _, c := range []string{"26.0100", "19.0001"} {
		if err := cases.EnsureCourt(ctx, g, c, ""); err != nil {
			t.Fatal(err)
		}
	}
	mk := func(spec accounts.UserSpec) accounts.User {
		u, _, err := accounts.EnsureUser(ctx, g, spec)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	j1 := mk(accounts.UserSpec{Name: "Juíza Um", Role: "judge", Court: "26.0100"})
	j2 := mk(accounts.UserSpec{Name: "Juiz Dois", Role: "judge", Court: "26.0100"})
	mk(accounts.UserSpec{Name: "Juiz do RJ", Role: "judge", Court: "19.0001"})
	clerk := mk(accounts.UserSpec{Name: "Escrivã", Role: "clerk", Court: "26.0100"})
	gate := mk(accounts.UserSpec{Name: "Catraca Norte", Role: "club", Club: "Corinthians"})
	mk(accounts.UserSpec{Name: "Catraca do Palmeiras", Role: "club", Club: "Palmeiras"})
	old := mk(accounts.UserSpec{Name: "Catraca Antiga", Role: "club", Club: "Corinthians"})
	if _, err := accounts.SetDisabled(ctx, g, j2.Name, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.SetDisabled(ctx, g, old.Name, true, time.Now()); err != nil {
		t.Fatal(err)
	}

	names, err := accounts.UserNames(ctx, g, []int64{j1.ID, j2.ID, clerk.ID, 999999})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 3 || names[j1.ID] != "Juíza Um" || names[j2.ID] != "Juiz Dois" || names[clerk.ID] != "Escrivã" {
		t.Errorf("UserNames = %v", names)
	}
	if names, err := accounts.UserNames(ctx, g, nil); err != nil || len(names) != 0 {
		t.Errorf("UserNames(nil) = %v, %v", names, err)
	}
	judges, err := accounts.CourtJudges(ctx, g, "26.0100")
	if err != nil {
		t.Fatal(err)
	}
	if len(judges) != 1 || judges[0].ID != j1.ID {
		t.Errorf("CourtJudges = %+v, want only the enabled judge of 26.0100", judges)
	}
	club, err := accounts.ClubUsers(ctx, g, "Corinthians")
	if err != nil {
		t.Fatal(err)
	}
	if len(club) != 1 || club[0].ID != gate.ID {
		t.Errorf("ClubUsers = %+v, want only the enabled Corinthians gate", club)
	}
	if _, err := accounts.NewToken(ctx, g, gate.ID, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	toks, err := accounts.ListTokens(ctx, g, gate.ID)
	if err != nil || len(toks) != 1 {
		t.Fatalf("ListTokens = %v, %v", toks, err)
	}
	if owner, err := accounts.TokenOwner(ctx, g, toks[0].ID); err != nil || owner != gate.ID {
		t.Errorf("TokenOwner = %d, %v; want %d", owner, err, gate.ID)
	}
	if owner, err := accounts.TokenOwner(ctx, g, 999999); err != nil || owner != 0 {
		t.Errorf("TokenOwner(unknown) = %d, %v; want 0", owner, err)
	}
	if a := j1.Actor(); a.UserID != j1.ID || a.Name != j1.Name || a.Role != "judge" || a.Court != "26.0100" || a.GroupID != 0 {
		t.Errorf("actor.Actor = %+v", a)
	}
}
