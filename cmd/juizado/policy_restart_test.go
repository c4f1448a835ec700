package main

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
)

// badRow is a casbin_rule row that does not fit the model (no method): the
// kind of row that froze the policy of every replica and stopped a new
// server before issue 32, item 5.
const badRow = "p, club, *, /api/v1/audit, "

// The policy of the real program across a bad row and a restart (issue 32,
// item 5): the table refuses a bad row from the application; written
// anyway by the owner (its constraint dropped and put back NOT VALID, as a
// row of an older release), the running server skips it and keeps
// following the table (a base rule revoked in SQL afterwards takes effect,
// a rule granted takes effect), /readyz answers 200 "degraded" naming the
// row, the metric counts it, and one log line reports it per process,
// not per reload; a new server on the same database starts, keeps the
// revoked base rule revoked, serves the other rules and reports the row
// again. A wildcard rule that lets clubs reach the audit gives them a 403
// and no row.
func TestPolicyBadRowAndRevokedBaseRuleAcrossRestart(t *testing.T) {
	dsn := pgtest.NewDSN(t)
	logs := &testenv.LogBuffer{}
	start := func() (c client, stop func()) {
		t.Helper()
		m := &Main{Config: config.Config{Addr: "127.0.0.1:0", DatabaseURL: dsn, Court: "26.0100", TimeZone: "America/Sao_Paulo"},
			Logger: slog.New(slog.NewJSONHandler(logs, nil))}
		_, stop = testenv.MustRunMain(t, m)
		return client{t, "http://" + m.Addr()}, stop
	}
	c, stop := start()
	g := pgtest.Open(t, dsn)
	owner := pgtest.Admin(t, g)
	token := func(spec accounts.UserSpec) string {
		tok, _, err := createToken(t.Context(), g, spec)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	judge := token(accounts.UserSpec{Name: "juiza", Role: "judge", Court: "26.0100"})
	clerk := token(accounts.UserSpec{Name: "escrivao", Role: "clerk", Court: "26.0100"})
	club := token(accounts.UserSpec{Name: "portaria", Role: "club", Club: "Santos"})
	status := func(path, tok string) int { return c.do("GET", path, tok, nil).status }
	// eventually waits for the running server's policy to give path the
	// status want (the watcher's reload, the decider's cache).
	eventually := func(path, tok string, want int, what string) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for status(path, tok) != want {
			if time.Now().After(deadline) {
				t.Fatalf("%s: GET %s is %d, want %d", what, path, status(path, tok), want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	const audit = "/api/v1/audit"
	if s := status(audit, judge); s != 200 {
		t.Fatalf("the judge's audit before: %d", s)
	}

	// The application's role may not write the bad row.
	if err := g.Exec("INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES ('p', 'club', '*', ?, '', '', '')", audit).Error; err == nil ||
		!strings.Contains(err.Error(), "casbin_rule_shape") {
		t.Fatalf("the bad row from the application: %v, want refused by casbin_rule_shape", err)
	}
	var def string
	if err := owner.Raw("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'casbin_rule_shape'").Scan(&def).Error; err != nil || def == "" {
		t.Fatalf("casbin_rule_shape: %q %v", def, err)
	}
	for _, q := range []string{
		"ALTER TABLE casbin_rule DROP CONSTRAINT casbin_rule_shape",
		"INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES ('p', 'club', '*', '/api/v1/audit', '', '', '')",
		"ALTER TABLE casbin_rule ADD CONSTRAINT casbin_rule_shape " + strings.TrimSuffix(def, " NOT VALID") + " NOT VALID",
		// A base rule revoked after the bad row: the policy is not frozen.
		"DELETE FROM casbin_rule WHERE v0 = 'judge' AND v1 = '*' AND v2 = '/api/v1/audit' AND v3 = 'GET'",
	} {
		if err := owner.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	eventually(audit, judge, 403, "the base rule revoked while a bad row is in the table")
	if s := status("/api/v1/cases", judge); s != 200 {
		t.Errorf("the judge's other rules with the bad row: GET /api/v1/cases %d", s)
	}
	degraded := func(when string) {
		t.Helper()
		var ready struct {
			Status  string `json:"status"`
			Skipped []struct {
				Rule, Reason string
			} `json:"policy_rules_skipped"`
		}
		getJSON(c, "/readyz", "", &ready)
		if ready.Status != "degraded" || len(ready.Skipped) != 1 || ready.Skipped[0].Rule != badRow || ready.Skipped[0].Reason == "" {
			t.Errorf("%s: /readyz %+v, want 200 degraded naming %q", when, ready, badRow)
		}
		metric := "(missing)"
		for _, l := range strings.Split(string(c.do("GET", "/metrics", "", nil).body), "\n") {
			if v, ok := strings.CutPrefix(l, "juizado_policy_rules_skipped "); ok {
				metric = v
			}
		}
		if metric != "1" {
			t.Errorf("%s: juizado_policy_rules_skipped %s, want 1", when, metric)
		}
	}
	degraded("running")
	stop()

	// A new server on the same database.
	c, _ = start()
	if s := status(audit, judge); s != 403 {
		t.Errorf("the revoked base rule after the restart: the judge's audit %d, want 403", s)
	}
	if s := status("/api/v1/cases", judge); s != 200 {
		t.Errorf("after the restart with the bad row: GET /api/v1/cases %d, want 200", s)
	}
	degraded("restarted")
	var back int64
	if err := g.Raw("SELECT count(*) FROM casbin_rule WHERE v0 = 'judge' AND v2 = ?", audit).Scan(&back).Error; err != nil || back != 0 {
		t.Errorf("the revoked base rule is back in casbin_rule: %d rows (%v)", back, err)
	}
	// Grants still take effect, and reloads do not repeat the report.
	if err := g.Exec("INSERT INTO casbin_rule (ptype, v0, v1, v2, v3) VALUES ('p', 'clerk', '26.0100', ?, 'GET')", audit).Error; err != nil {
		t.Fatal(err)
	}
	eventually(audit, clerk, 200, "a rule granted while a bad row is in the table")
	// A wildcard rule wrongly granting the clubs the audit: the route is
	// reached, no row is read.
	if err := g.Exec("INSERT INTO casbin_rule (ptype, v0, v1, v2, v3) VALUES ('p', 'club', '*', ?, 'GET')", audit).Error; err != nil {
		t.Fatal(err)
	}
	// Reached once the rule is in force: the audit's own refusal, not the
	// policy's.
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := c.do("GET", audit, club, nil)
		if r.status != 403 || strings.Contains(string(r.body), "items") {
			t.Fatalf("a club with a wildcard rule on the audit: %d %s, want 403 and no rows", r.status, r.body)
		}
		if strings.Contains(string(r.body), "somente por usuários de um juizado") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the wildcard rule never let the club reach the audit: %s", r.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := strings.Count(logs.String(), "casbin_rule rows skipped"); n != 2 {
		t.Errorf("%d log lines on the skipped row, want 2 (one per server, none per reload):\n%s", n, logs)
	}
}
