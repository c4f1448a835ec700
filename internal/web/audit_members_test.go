package web_test

import (
	"fmt"
	"strings"
	"testing"
)

// GET /api/v1/audit shows the member register's rows (domain group:ID) to
// the judge of the group's court whole, to the admin of that court without
// before/after (no member data), and to nobody of another court; page and
// per_page are validated and the answer carries total.
func TestAuditOfMemberRegisters(t *testing.T) {
	f := newGroupsFixture(t)
	gid := f.managedGroup(t, "Torcida Auditada", "mgr-aud")
	if rec := f.do("POST", fmt.Sprintf("/api/v1/groups/%d/members/import", gid), "mgr", "text/csv", fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv")); rec.Code != 201 {
		t.Fatalf("import: %d %s", rec.Code, rec.Body)
	}
	var rows int64
	f.g.Raw("SELECT count(*) FROM audit_log WHERE table_name = 'members' AND domain = ?", fmt.Sprintf("group:%d", gid)).Scan(&rows)
	if rows == 0 {
		t.Fatal("no audit rows of domain group:ID on members")
	}
	list := func(who, q string) (int, map[string]any) {
		t.Helper()
		rec := f.do("GET", "/api/v1/audit"+q, who, "", nil)
		return rec.Code, decode(t, rec)
	}
	code, m := list("judge", "?table=members")
	items, _ := m["items"].([]any)
	if code != 200 || len(items) == 0 || m["total"] != float64(rows) {
		t.Fatalf("judge: %d %v items, total %v, want %d", code, len(items), m["total"], rows)
	}
	if it := items[0].(map[string]any); it["after"] == nil || !strings.HasPrefix(it["domain"].(string), "group:") {
		t.Errorf("judge's row: %v", it)
	}
	code, m = list("admin", "?table=members")
	items, _ = m["items"].([]any)
	if code != 200 || len(items) == 0 {
		t.Fatalf("admin: %d %v", code, m)
	}
	for _, it := range items {
		if r := it.(map[string]any); r["after"] != nil || r["before"] != nil {
			t.Errorf("admin sees member data: %v", r)
			break
		}
	}
	if code, m = list("judge-rj", "?table=members"); code != 200 || len(m["items"].([]any)) != 0 {
		t.Errorf("judge of another court: %d %v", code, m)
	}
	// Pages.
	_, p1 := list("judge", "?table=members&per_page=1")
	_, p2 := list("judge", "?table=members&per_page=1&page=2")
	i1, i2 := p1["items"].([]any), p2["items"].([]any)
	if len(i1) != 1 || len(i2) != 1 || i1[0].(map[string]any)["id"] == i2[0].(map[string]any)["id"] || p2["total"] != float64(rows) || p2["page"] != float64(2) {
		t.Errorf("pages: %v / %v", p1, p2)
	}
	if _, far := list("judge", "?table=members&page=100000"); len(far["items"].([]any)) != 0 {
		t.Errorf("page beyond the end: %v", far)
	}
	for q, want := range map[string]string{
		"?page=99999999999": `"field":"page","rule":"range"`,
		"?page=0":           `"field":"page","rule":"range"`,
		"?page=x":           `"field":"page","rule":"integer"`,
		"?per_page=1001":    `"field":"per_page","rule":"range"`,
		"?per_page=-1":      `"field":"per_page","rule":"range"`,
	} {
		rec := f.do("GET", "/api/v1/audit"+q, "judge", "", nil)
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %s, want 422 with %s", q, rec.Code, rec.Body, want)
		}
	}
}
