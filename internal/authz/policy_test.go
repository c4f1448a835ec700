package authz_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The base policy has the domain shape, names known roles and applies to
// every domain; the enforcer checks (role, domain, route, method).
func TestBasePolicyAndDomains(t *testing.T) {
	rules, err := authz.Base()
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 50 {
		t.Fatalf("%d rules", len(rules))
	}
	for _, r := range rules {
		if len(r) != 4 || r[1] != accounts.AnyDomain || !strings.HasPrefix(r[2], "/") {
			t.Errorf("rule %v", r)
		}
	}
	ctx := context.Background()
	g := pgtest.NewDB(t)
	e, err := authz.Open(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	court := "26.0100"
	club := "Clube"
	judge := accounts.User{Role: "judge", CourtCode: &court}
	clerk := accounts.User{Role: "clerk", CourtCode: &court}
	pros := accounts.User{Role: "prosecutor", CourtCode: &court}
	for _, tc := range []struct {
		u             accounts.User
		route, method string
		want          bool
	}{
		{judge, "/api/v1/cases/:id/sentence", "POST", true},
		{judge, "/api/v1/cases", "POST", false},
		// The judge's minuta: signed and previewed by the judge only (CF
		// art. 93, IX: the judge's own decision).
		{judge, "/api/v1/cases/:id/sentence/sign", "POST", true},
		{judge, "/api/v1/cases/:id/sentence/draft.pdf", "GET", true},
		{clerk, "/api/v1/cases/:id/sentence/draft.pdf", "GET", false},
		{pros, "/api/v1/cases/:id/sentence/draft.pdf", "GET", false},
		{clerk, "/api/v1/cases/:id/sentence/sign", "POST", false},
		// The signed sentence is a court document the staff read.
		{clerk, "/api/v1/cases/:id/documents/sentence.pdf", "GET", true},
		// The final judgment and the appeal's result are the clerk's
		// records (Lei 9.099/1995, art. 82); the decisions on bans and
		// breaches are the judge's (CPP art. 282; CP art. 42; LGE art. 201 § 3º).
		{clerk, "/api/v1/cases/:id/appeal-result", "POST", true},
		{judge, "/api/v1/cases/:id/appeal-result", "POST", false},
		{clerk, "/api/v1/cases/:id/notifications", "POST", true},
		{judge, "/api/v1/bans/:id/renew", "POST", true},
		{judge, "/api/v1/bans/:id/correct", "POST", true},
		{judge, "/api/v1/bans/:id/credit", "POST", true},
		{judge, "/api/v1/breaches/:id/decision", "POST", true},
		{clerk, "/api/v1/bans/:id/credit", "POST", false},
		{pros, "/api/v1/breaches/:id/decision", "POST", false},
		{accounts.User{Role: "club", Club: &club}, "/api/v1/blocklist", "GET", true},
		{accounts.User{Role: "club", Club: &club}, "/api/v1/cases", "GET", false},
	} {
		if ok, err := authz.Allowed(e, tc.u, tc.route, tc.method); err != nil || ok != tc.want {
			t.Errorf("%s %s %s %s: %v %v", tc.u.Role, tc.u.Domain(), tc.method, tc.route, ok, err)
		}
	}
	// A rule for one domain (of a court that exists: migration 00130).
	addCourt(t, g, "19.0001")
	if _, err := e.AddPolicy("clerk", "19.0001", "/api/v1/audit", "GET"); err != nil {
		t.Fatal(err)
	}
	other, mine := "19.0001", court
	if ok, _ := authz.Allowed(e, accounts.User{Role: "clerk", CourtCode: &other}, "/api/v1/audit", "GET"); !ok {
		t.Error("the clerk of 19.0001 lacks its own rule")
	}
	if ok, _ := authz.Allowed(e, accounts.User{Role: "clerk", CourtCode: &mine}, "/api/v1/audit", "GET"); ok {
		t.Error("the clerk of 26.0100 has the rule of 19.0001")
	}
	var n int64
	g.Raw("SELECT count(*) FROM casbin_rule WHERE v1 = '*' AND v3 <> ''").Scan(&n)
	if n != int64(len(rules)) {
		t.Errorf("casbin_rule holds %d base rules, want %d", n, len(rules))
	}
}

// A policy change made through one server instance (or in the database) is
// in force on another within 5 s: two enforcers on one database, each with
// its watcher.
func TestPolicyPropagatesAcrossInstances(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDSN(t)
	g1, g2 := pgtest.Open(t, dsn), pgtest.Open(t, dsn)
	e1, err := authz.Open(ctx, g1)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := authz.Open(ctx, g2)
	if err != nil {
		t.Fatal(err)
	}
	w1, err := authz.Watch(ctx, g1, e1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w1.Close()
	w2, err := authz.Watch(ctx, g2, e2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	within := func(what string, cond func() bool) {
		t.Helper()
		start := time.Now()
		for !cond() {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("%s: not in force after 5 s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Logf("%s: in force after %v", what, time.Since(start).Round(time.Millisecond))
	}
	allowed := func(e interface {
		Enforce(...any) (bool, error)
	}) bool {
		ok, err := e.Enforce("police", "26.0100", "/api/v1/audit", "GET")
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	addCourt(t, g1, "26.0100") // the domain of the rules below (migration 00130)
	if allowed(e1) || allowed(e2) {
		t.Fatal("police reads the audit trail before the change")
	}
	if _, err := e1.AddPolicy("police", "26.0100", "/api/v1/audit", "GET"); err != nil {
		t.Fatal(err)
	}
	within("a rule added on instance 1, on instance 2", func() bool { return allowed(e2) })
	if _, err := e2.RemovePolicy("police", "26.0100", "/api/v1/audit", "GET"); err != nil {
		t.Fatal(err)
	}
	within("the rule removed on instance 2, on instance 1", func() bool { return !allowed(e1) })
	if err := g1.Exec("INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES ('p', 'police', '*', '/api/v1/audit', 'GET', '', '')").Error; err != nil {
		t.Fatal(err)
	}
	within("a rule inserted in the database, on both", func() bool { return allowed(e1) && allowed(e2) })
	// The watcher survives losing its connection.
	if err := pgtest.Admin(t, g1).Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN casbin' AND datname = current_database()").Error; err != nil {
		t.Fatal(err)
	}
	if err := g1.Exec("DELETE FROM casbin_rule WHERE v0 = 'police' AND v2 = '/api/v1/audit'").Error; err != nil {
		t.Fatal(err)
	}
	within("a rule deleted while the watchers reconnect", func() bool { return !allowed(e1) && !allowed(e2) })
}

// Migration 00008 turns rules of the former shape (role, route, method)
// into rules for every domain; its down step turns them back.
func TestMigrationConvertsOldRules(t *testing.T) {
	ctx := context.Background()
	g := pgtest.Admin(t, pgtest.NewDB(t)) // migrations run as the owner, and the role's rights go with 00095's down
	if _, err := authz.Open(ctx, g); err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := g.DB()
	for {
		v, err := db.MigrateDown(ctx, sqlDB)
		if err != nil {
			t.Fatal(err)
		}
		if v <= 8 {
			break
		}
	}
	var n int64
	g.Raw("SELECT count(*) FROM casbin_rule WHERE v1 = '*' OR coalesce(v3, '') <> ''").Scan(&n)
	if n != 0 {
		t.Fatalf("%d rules kept the domain shape after down", n)
	}
	if err := g.Exec("INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'clerk', '/api/v1/old', 'GET')").Error; err != nil {
		t.Fatal(err)
	}
	if _, err := db.MigrateUp(ctx, sqlDB); err != nil {
		t.Fatal(err)
	}
	var r struct{ V0, V1, V2, V3 string }
	g.Raw("SELECT v0, v1, v2, v3 FROM casbin_rule WHERE v2 = '/api/v1/old'").Scan(&r)
	if r != (struct{ V0, V1, V2, V3 string }{"clerk", "*", "/api/v1/old", "GET"}) {
		t.Fatalf("converted rule: %+v", r)
	}
	g.Raw("SELECT count(*) FROM casbin_rule WHERE ptype = 'p' AND coalesce(v3, '') = ''").Scan(&n)
	if n != 0 {
		t.Fatalf("%d rules of the former shape remain", n)
	}
	e, err := authz.Open(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := e.Enforce("clerk", "26.0100", "/api/v1/old", "GET"); !ok {
		t.Error("the converted rule is not in force")
	}
}
