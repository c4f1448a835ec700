package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
)

// Every read of the audit trail is scoped to the caller's court (DOMAIN.md
// §7; issue 32, item 5): the judges of two courts each read their own
// court's rows and those of its fan groups' registers, never the other's;
// a caller without a court — a club or a fan group's manager that a
// wrongly added wildcard rule lets reach the route, even with a court
// written into its row by hand — is 403 and reads nothing, on the API and
// on the page.
func TestAuditReadsScopedToTheCallersCourt_Domain7(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := cases.EnsureCourt(ctx, f.g, "19.0001", "Juizado do Torcedor do Rio"); err != nil {
		t.Fatal(err)
	}
	if err := f.g.Exec("INSERT INTO fan_groups (id, name, court_code) VALUES (2, 'Torcida do Rio', '19.0001')").Error; err != nil {
		t.Fatal(err)
	}
	rj, _, err := accounts.EnsureUser(ctx, f.g, accounts.UserSpec{Name: "juiza-rj", Role: "judge", Court: "19.0001"})
	if err != nil {
		t.Fatal(err)
	}
	rjTok, err := accounts.NewToken(ctx, f.g, rj.ID, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	// One read recorded in each domain, each with its own marker.
	marks := map[string]actor.Actor{
		"marca-sp":       {Name: "leitor-sp", Role: "judge", Court: "26.0100"},
		"marca-rj":       {Name: "leitor-rj", Role: "judge", Court: "19.0001"},
		"marca-grupo-sp": {Name: "gestor-sp", Role: "fan_group", GroupID: 1},
		"marca-grupo-rj": {Name: "gestor-rj", Role: "fan_group", GroupID: 2},
		"marca-clube":    {Name: "portaria", Role: "club", Club: "Clube"},
	}
	for m, a := range marks {
		if err := audit.Read(ctx, f.g, a, "members", m, nil); err != nil {
			t.Fatal(err)
		}
	}
	read := func(token string) (int, map[string]bool) {
		t.Helper()
		rec := f.call("GET", "/api/v1/audit?per_page=1000", token)
		seen := map[string]bool{}
		var body struct{ Items []audit.Entry }
		if rec.Code == 200 {
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
		}
		for _, e := range body.Items {
			seen[e.RecordID] = true
		}
		for m := range marks {
			if strings.Contains(rec.Body.String(), m) {
				seen[m] = true
			}
		}
		return rec.Code, seen
	}
	for _, tc := range []struct {
		who, token string
		want       []string
	}{
		{"judge of 26.0100", f.tokens["judge"], []string{"marca-sp", "marca-grupo-sp"}},
		{"judge of 19.0001", rjTok, []string{"marca-rj", "marca-grupo-rj"}},
	} {
		code, seen := read(tc.token)
		if code != 200 {
			t.Fatalf("%s: %d", tc.who, code)
		}
		for m := range marks {
			want := m == tc.want[0] || m == tc.want[1]
			if seen[m] != want {
				t.Errorf("%s: row %s seen %v, want %v", tc.who, m, seen[m], want)
			}
		}
	}
	// A wildcard rule wrongly added for the callers without a court.
	enf := f.srv.Deps.Enforcer
	for _, r := range [][]string{
		{"club", accounts.AnyDomain, "/api/v1/audit", "GET"}, {"fan_group", accounts.AnyDomain, "/api/v1/audit", "GET"},
		{"club", accounts.AnyDomain, "/admin/auditoria", "GET"},
	} {
		if _, err := enf.AddPolicy(r[0], r[1], r[2], r[3]); err != nil {
			t.Fatal(err)
		}
	}
	// A club's row given a court by hand still has none for the trail.
	if err := f.g.Exec("UPDATE users SET court_code = '26.0100' WHERE id = ?", f.users["club"].ID).Error; err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // the decision cache's TTL
	for _, role := range []string{"club", "fan_group"} {
		code, seen := read(f.tokens[role])
		if code != 403 || len(seen) != 0 {
			t.Errorf("%s with a wildcard rule: %d, rows %v; want 403 and nothing", role, code, seen)
		}
	}
	rec := f.browser(t, "club").do("GET", "/admin/auditoria", nil)
	if rec.Code != 403 {
		t.Errorf("audit page for a club with a wildcard rule: %d, want 403", rec.Code)
	}
	for m := range marks {
		if strings.Contains(rec.Body.String(), m) {
			t.Errorf("audit page for a club shows %s", m)
		}
	}
}
