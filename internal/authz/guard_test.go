package authz_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/pgtest"
	"gorm.io/gorm"
)

// addCourt makes a court, for rules that name it (casbin_rule_domain).
func addCourt(t *testing.T, g *gorm.DB, code string) {
	t.Helper()
	if err := g.Exec("INSERT INTO courts (code, name) VALUES (?, ?) ON CONFLICT DO NOTHING", code, "Juizado "+code).Error; err != nil {
		t.Fatal(err)
	}
}

// insertRule inserts a row of casbin_rule through g, as the application's
// role unless g is another's.
func insertRule(g *gorm.DB, r ...any) error {
	return g.Exec("INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES (?, ?, ?, ?, ?, ?, ?)", r...).Error
}

// The table refuses every row that does not fit the model (migration
// 00130, issue 32 item 5), whoever writes it, the application's role and
// the owner alike: an unknown row type or role, a domain that is not a
// court, group or club that exists, "*" anywhere but the domain, an
// unknown method, extra fields, NULLs; and takes every role's rule for a
// court, group and club that exist, and the base policy.
func TestPolicyTableRefusesRowsOutsideTheModel(t *testing.T) {
	g := pgtest.NewDB(t)
	owner := pgtest.Admin(t, g)
	if _, err := authz.Open(context.Background(), g); err != nil { // seeds the base policy through the constraint
		t.Fatal(err)
	}
	addCourt(t, g, "19.0001")
	if err := g.Exec("INSERT INTO fan_groups (id, name, court_code) VALUES (7, 'Torcida', '19.0001')").Error; err != nil {
		t.Fatal(err)
	}
	if _, _, err := accounts.EnsureUser(context.Background(), g, accounts.UserSpec{Name: "portaria", Role: "club", Club: "Clube"}); err != nil {
		t.Fatal(err)
	}
	for _, role := range accounts.Roles {
		for _, dom := range []string{"*", "19.0001", "group:7", "club:Clube"} {
			if err := insertRule(g, "p", role, dom, "/api/v1/teste/:id", "PATCH", "", ""); err != nil {
				t.Errorf("p, %s, %s: refused: %v", role, dom, err)
			}
		}
	}
	for _, r := range [][]any{
		{"g", "club", "clerk", "*", "", "", ""},
		{"p", "visitante", "*", "/api/v1/cases", "GET", "", ""},
		{"p", "*", "*", "/api/v1/audit", "GET", "", ""},
		{"p", "club", "*", "/api/v1/*", "GET", "", ""},
		{"p", "club", "*", "*", "GET", "", ""},
		{"p", "club", "*", "/api/v1/audit", "*", "", ""},
		{"p", "club", "*", "/api/v1/audit", "GET", "allow", ""},
		{"p", "club", "*", "/api/v1/audit", "", "", ""},
		{"p", "club", nil, "/api/v1/audit", "GET", nil, nil},
		{"p", "club", "club:*", "/api/v1/audit", "GET", "", ""},
		{"p", "clerk", "26.9999", "/api/v1/audit", "GET", "", ""},
		{"p", "clerk", "group:99", "/api/v1/audit", "GET", "", ""},
		{"p", "club", "club:Outro", "/api/v1/audit", "GET", "", ""},
		{"p", "clerk", "Juizado", "/api/v1/audit", "GET", "", ""},
		{"", "", "", "", "", "", ""},
	} {
		for who, h := range map[string]*gorm.DB{"application": g, "owner": owner} {
			if err := insertRule(h, r...); err == nil {
				t.Errorf("%v: accepted from the %s", r, who)
			}
		}
	}
	// An update to a bad shape is refused too.
	if err := g.Exec("UPDATE casbin_rule SET v1 = '*', v0 = '*' WHERE v2 = '/api/v1/teste/:id' AND v1 = '19.0001' AND v0 = 'clerk'").Error; err == nil {
		t.Error("an update to role * was accepted")
	}
}

// Rows that do not fit the model (written before the constraint, or by a
// superuser who dropped it) are skipped, not fatal: a server starts, the
// rules after them load and later grants take effect; Skipped names each by
// its content, and the log has one line per change of the set.
func TestBadPolicyRowsAreSkippedAndReported(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	owner := pgtest.Admin(t, g)
	// A database from before migration 00130.
	if err := owner.Exec("ALTER TABLE casbin_rule DROP CONSTRAINT casbin_rule_shape").Error; err != nil {
		t.Fatal(err)
	}
	if err := owner.Exec("ALTER TABLE casbin_rule DISABLE TRIGGER casbin_rule_domain").Error; err != nil {
		t.Fatal(err)
	}
	bad := [][]any{
		{"", "", "", "", "", "", ""},                               // gorm-adapter panicked on it
		{"g", "club", "clerk", "", "", "", ""},                     // no role inheritance in the model
		{"p", "police", "*", "/api/v1/audit", "", "", ""},          // three fields
		{"p", "club", "*", "/api/v1/audit", "GET", "x", ""},        // five
		{"p", "visitante", "*", "/api/v1/cases", "GET", nil, nil},  // unknown role
		{"p", "club", "*", "/api/v1/*", "GET", "", ""},             // "*" in the route
		{"p", "clerk", "qualquer", "/api/v1/cases", "GET", "", ""}, // malformed domain
	}
	for _, r := range bad {
		if err := insertRule(owner, r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := insertRule(owner, "p", "prosecutor", "*", "/api/v1/teste", "GET", "", ""); err != nil { // a good row after them
		t.Fatal(err)
	}
	e, err := authz.Open(ctx, g)
	if err != nil {
		t.Fatalf("a bad row stops the policy: %v", err)
	}
	court := "26.0100"
	pros := accounts.User{Role: "prosecutor", CourtCode: &court}
	if ok, _ := authz.Allowed(e, pros, "/api/v1/teste", "GET"); !ok {
		t.Error("the good row after the bad ones is not in force")
	}
	if ok, _ := authz.Allowed(e, accounts.User{Role: "judge", CourtCode: &court}, "/api/v1/cases/:id/sentence", "POST"); !ok {
		t.Error("the base policy is not in force")
	}
	sk := authz.Skipped(e)
	want := []string{", , , , ", "g, club, clerk, , ", "p, police, *, /api/v1/audit, ", "p, club, *, /api/v1/audit, GET, x",
		"p, visitante, *, /api/v1/cases, GET", "p, club, *, /api/v1/*, GET", "p, clerk, qualquer, /api/v1/cases, GET"}
	if len(sk) != len(want) {
		t.Fatalf("skipped %d rows, want %d: %+v", len(sk), len(want), sk)
	}
	for i, s := range sk {
		if s.Rule != want[i] || s.Reason == "" {
			t.Errorf("skipped[%d] = %+v, want rule %q with a reason", i, s, want[i])
		}
	}
	// Later grants and revocations take effect.
	if _, err := e.AddPolicy("police", "*", "/api/v1/teste", "GET"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.RemovePolicy("prosecutor", "*", "/api/v1/teste", "GET"); err != nil {
		t.Fatal(err)
	}
	if err := e.LoadPolicy(); err != nil {
		t.Fatal(err)
	}
	if ok, _ := authz.Allowed(e, accounts.User{Role: "police", CourtCode: &court}, "/api/v1/teste", "GET"); !ok {
		t.Error("a grant after the bad rows has no effect")
	}
	if ok, _ := authz.Allowed(e, pros, "/api/v1/teste", "GET"); ok {
		t.Error("a revocation after the bad rows has no effect")
	}
	// One log line per change of the set: the first report when the
	// watcher gives the logger, none on reloads that find the same rows.
	var buf bytes.Buffer
	w, err := authz.Watch(ctx, g, e, slog.New(slog.NewTextHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	lines := func() int { return strings.Count(buf.String(), "policy: ") }
	for range 3 {
		if err := e.LoadPolicy(); err != nil {
			t.Fatal(err)
		}
	}
	if n := lines(); n != 1 || !strings.Contains(buf.String(), "count=7") || !strings.Contains(buf.String(), "p, visitante, *, /api/v1/cases, GET") {
		t.Fatalf("%d lines, want one naming the 7 rows:\n%s", n, buf.String())
	}
	if err := owner.Exec("DELETE FROM casbin_rule WHERE v0 = 'visitante'").Error; err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := e.LoadPolicy(); err != nil {
			t.Fatal(err)
		}
	}
	if n := lines(); n != 2 || len(authz.Skipped(e)) != 6 {
		t.Fatalf("%d lines and %d skipped after one bad row went, want 2 and 6:\n%s", n, len(authz.Skipped(e)), buf.String())
	}
	if err := owner.Exec("DELETE FROM casbin_rule WHERE coalesce(v3, '') = '' OR v0 = '' OR ptype <> 'p' OR v4 <> '' OR v2 LIKE '%*%' OR v1 = 'qualquer'").Error; err != nil {
		t.Fatal(err)
	}
	if err := e.LoadPolicy(); err != nil {
		t.Fatal(err)
	}
	if n := lines(); n != 3 || len(authz.Skipped(e)) != 0 || !strings.Contains(buf.String(), "loads again") {
		t.Fatalf("%d lines, %d skipped once every bad row went:\n%s", n, len(authz.Skipped(e)), buf.String())
	}
}
