package web_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
)

// A bad casbin_rule row (written before migration 00130, or by a superuser
// who dropped its constraint) does not stop a server (issue 32, item 5): it
// starts, serves with the other rules, and /readyz answers 200 "degraded"
// naming each skipped row by its content, never its id; the metric
// juizado_policy_rules_skipped counts them, and the admin's roles page
// lists them.
func TestReadyzDegradedNamesSkippedPolicyRows(t *testing.T) {
	f := newFixture(t)
	metric := func(srvCall func(string) string) string {
		for _, l := range strings.Split(srvCall("/metrics"), "\n") {
			if strings.HasPrefix(l, "juizado_policy_rules_skipped ") {
				return strings.TrimPrefix(l, "juizado_policy_rules_skipped ")
			}
		}
		return "(missing)"
	}
	get := func(path string) string { return f.call("GET", path, "").Body.String() }
	if body := get("/readyz"); !strings.Contains(body, `"ready"`) {
		t.Fatalf("readyz before: %s", body)
	}
	if m := metric(get); m != "0" {
		t.Fatalf("juizado_policy_rules_skipped before: %s", m)
	}
	owner := pgtest.Admin(t, f.g)
	for _, q := range []string{
		"ALTER TABLE casbin_rule DROP CONSTRAINT casbin_rule_shape",
		"ALTER TABLE casbin_rule DISABLE TRIGGER casbin_rule_domain",
		"INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES ('p', 'club', '*', '/api/v1/audit', '', '', '')",
		"INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES ('g', 'club', 'judge', '', '', '', '')",
	} {
		if err := owner.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	owner.Raw("SELECT id::text FROM casbin_rule WHERE v0 = 'club' AND coalesce(v3, '') = ''").Scan(&ids)
	srv := testenv.MustServer(t, f.g) // a restart on the same database
	f.srv = srv
	rec := f.call("GET", "/readyz", "")
	var ready struct {
		Status  string
		Skipped []struct{ Rule, Reason string } `json:"policy_rules_skipped"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &ready); err != nil || rec.Code != 200 || ready.Status != "degraded" || len(ready.Skipped) != 2 {
		t.Fatalf("readyz with two bad rows: %d %s", rec.Code, rec.Body)
	}
	if ready.Skipped[0].Rule != "p, club, *, /api/v1/audit, " || ready.Skipped[1].Rule != "g, club, judge, , " {
		t.Errorf("skipped rows not named by their content: %+v", ready.Skipped)
	}
	for _, id := range ids {
		if strings.Contains(rec.Body.String(), `"`+id+`"`) || strings.Contains(rec.Body.String(), `:`+id+`,`) {
			t.Errorf("readyz names a row by its id %s: %s", id, rec.Body)
		}
	}
	if m := metric(get); m != "2" {
		t.Errorf("juizado_policy_rules_skipped: %s, want 2", m)
	}
	// The admin's roles page lists them too.
	if page := f.browser(t, "admin").do("GET", "/admin/papeis", nil); page.Code != 200 || !strings.Contains(page.Body.String(), "Regras ignoradas") ||
		!strings.Contains(page.Body.String(), "<code>g, club, judge, , </code>") {
		t.Errorf("roles page: %d, want the skipped rows listed", page.Code)
	}
	if rec := f.call("GET", "/api/v1/cases", f.tokens["judge"]); rec.Code != 200 {
		t.Errorf("the server does not serve with the bad rows: %d", rec.Code)
	}
	if rec := f.call("GET", "/api/v1/audit", f.tokens["club"]); rec.Code != 403 {
		t.Errorf("the bad row let the club in: %d", rec.Code)
	}
}
