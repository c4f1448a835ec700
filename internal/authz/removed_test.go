package authz_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/pgtest"
)

// A base rule the admin removes stays removed across restarts (issue 32,
// item 5): removed through the enforcer or by a DELETE in SQL, a second
// Open on the same database (a restarted server) does not seed it again,
// while every other base rule is still seeded; adding the rule again
// clears the record, and it then stays across restarts.
func TestRemovedBaseRuleStaysRemovedAcrossRestart(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	e, err := authz.Open(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	court := "26.0100"
	judge := accounts.User{Role: "judge", CourtCode: &court}
	club := accounts.User{Role: "club", Club: &court}
	const credit, blocklist, audit = "/api/v1/bans/:id/credit", "/api/v1/blocklist", "/api/v1/audit"
	if _, err := e.RemovePolicy("judge", accounts.AnyDomain, credit, "POST"); err != nil {
		t.Fatal(err)
	}
	if err := g.Exec("DELETE FROM casbin_rule WHERE v0 = 'club' AND v1 = '*' AND v2 = ? AND v3 = 'GET'", blocklist).Error; err != nil {
		t.Fatal(err)
	}
	if err := g.Exec("DELETE FROM casbin_rule WHERE v0 = 'judge' AND v2 = ?", audit).Error; err != nil {
		t.Fatal(err)
	}
	count := func(role, route string) int64 {
		var n int64
		if err := g.Raw("SELECT count(*) FROM casbin_rule WHERE v0 = ? AND v2 = ?", role, route).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	restart := func() {
		t.Helper()
		if e, err = authz.Open(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	restart()
	restart()
	for _, c := range []struct {
		u     accounts.User
		route string
		meth  string
		want  bool
	}{
		{judge, credit, "POST", false},
		{club, blocklist, "GET", false},
		{judge, audit, "GET", false},
		{judge, "/api/v1/cases/:id/sentence", "POST", true}, // untouched
		{club, "/api/v1/blocklist/changes", "GET", true},
	} {
		if ok, _ := authz.Allowed(e, c.u, c.route, c.meth); ok != c.want {
			t.Errorf("after restarts, %s %s %s: %v, want %v", c.u.Role, c.meth, c.route, ok, c.want)
		}
	}
	if n := count("judge", credit) + count("club", blocklist) + count("judge", audit); n != 0 {
		t.Errorf("the removed base rules came back into casbin_rule: %d rows", n)
	}
	// Granted again: the removal's record goes, the rule stays.
	if _, err := e.AddPolicy("judge", accounts.AnyDomain, audit, "GET"); err != nil {
		t.Fatal(err)
	}
	restart()
	if ok, _ := authz.Allowed(e, judge, audit, "GET"); !ok || count("judge", audit) != 1 {
		t.Errorf("a base rule granted again: allowed %v, %d rows after a restart", ok, count("judge", audit))
	}
	var marks int64
	if err := g.Raw("SELECT count(*) FROM casbin_rule_removed WHERE v0 = 'judge' AND v2 = ?", audit).Scan(&marks).Error; err != nil {
		t.Fatal(err)
	}
	if marks != 0 {
		t.Error("the removal's record outlived the rule granted again")
	}
}
