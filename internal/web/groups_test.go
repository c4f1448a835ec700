package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/internal/web"
	"gorm.io/gorm"
)

type groupsFixture struct {
	t      *testing.T
	g      *gorm.DB
	srv    *web.Server
	tokens map[string]string
}

// managedGroup registers group name (Corinthians) as the clerk and gives
// its manager, account manager, the token role "mgr"; it returns the id.
func (f *groupsFixture) managedGroup(t *testing.T, name, manager string) int64 {
	t.Helper()
	rec := f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(fmt.Sprintf(`{"name": %q, "supported_club": "Corinthians"}`, name)))
	if rec.Code != 201 {
		t.Fatalf("group: %d %s", rec.Code, rec.Body)
	}
	gid := int64(decode(t, rec)["id"].(float64))
	f.token("mgr", accounts.UserSpec{Name: manager, Role: "fan_group", Group: gid})
	return gid
}

func newGroupsFixture(t *testing.T) *groupsFixture {
	t.Helper()
	ctx := context.Background()
	g := pgtest.NewDB(t)
	for _, c := range []string{"26.0100", "19.0001"} {
		if err := cases.EnsureCourt(ctx, g, c, ""); err != nil {
			t.Fatal(err)
		}
	}
	srv := testenv.MustServer(t, g)
	f := &groupsFixture{t: t, g: g, srv: srv, tokens: map[string]string{}}
	for _, role := range []string{"admin", "clerk", "judge", "prosecutor", "police"} {
		f.token(role, accounts.UserSpec{Name: "g-" + role, Role: role, Court: "26.0100"})
	}
	f.token("judge-rj", accounts.UserSpec{Name: "g-judge-rj", Role: "judge", Court: "19.0001"})
	f.token("club", accounts.UserSpec{Name: "g-club", Role: "club", Club: "Corinthians"})
	return f
}

func (f *groupsFixture) token(key string, spec accounts.UserSpec) {
	f.t.Helper()
	ctx := context.Background()
	u, _, err := accounts.EnsureUser(ctx, f.g, spec)
	if err != nil {
		f.t.Fatal(err)
	}
	tok, err := accounts.NewToken(ctx, f.g, u.ID, time.Time{})
	if err != nil {
		f.t.Fatal(err)
	}
	f.tokens[key] = tok
}

func (f *groupsFixture) do(method, path, who, ctype string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+f.tokens[who])
	}
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	return rec
}

func decode(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("not JSON (%d): %s", rec.Code, rec.Body)
	}
	return m
}

func fixtureBytes(t *testing.T, elem ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(sharedfix.Path(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The register over HTTP: a clerk registers groups (409 for the same name
// with other case and accents); the manager imports the fixture spreadsheets
// (dry run 200, applied 201, errors 422 with the report); the authorities
// of the court read it (recorded); a manager of another group, staff of
// another court, admins, clubs and the public read or change nothing.
func TestGroupsAndMemberRegisterOverHTTP(t *testing.T) {
	t.Parallel()
	f := newGroupsFixture(t)
	rec := f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(`{"name": "Torcida Organizada Garra do Tatuapé", "supported_club": "Corinthians"}`))
	if rec.Code != 201 {
		t.Fatalf("create group: %d %s", rec.Code, rec.Body)
	}
	ga := int64(decode(t, rec)["id"].(float64))
	if rec := f.do("POST", "/api/v1/groups", "admin", "application/json", []byte(`{"name": "TORCIDA ORGANIZADA GARRA DO TATUAPE", "supported_club": "Corinthians"}`)); rec.Code != 409 {
		t.Errorf("same name: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do("POST", "/api/v1/groups", "judge", "application/json", []byte(`{"name": "X", "supported_club": "Y"}`)); rec.Code != 403 {
		t.Errorf("judge registers a group: %d", rec.Code)
	}
	rec = f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(`{"name": "Outra Torcida", "supported_club": "Palmeiras"}`))
	gb := int64(decode(t, rec)["id"].(float64))
	f.token("mgrA", accounts.UserSpec{Name: "mgr-a", Role: "fan_group", Group: ga})
	f.token("mgrB", accounts.UserSpec{Name: "mgr-b", Role: "fan_group", Group: gb})
	membersA := fmt.Sprintf("/api/v1/groups/%d/members", ga)

	// Import.
	rec = f.do("POST", membersA+"/import?dry_run=true", "mgrA", "text/csv", fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv"))
	if rec.Code != 200 || decode(t, rec)["created"] != float64(5) {
		t.Fatalf("dry run: %d %s", rec.Code, rec.Body)
	}
	rec = f.do("POST", membersA+"/import", "mgrA", "text/csv", fixtureBytes(t, "fixtures", "members-with-errors-excel-ptbr.csv"))
	if rec.Code != 422 || rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("errors: %d %s", rec.Code, rec.Body)
	}
	rep := decode(t, rec)
	lines := rep["lines"].([]any)
	bad := map[float64]bool{}
	for _, l := range lines {
		lm := l.(map[string]any)
		if lm["status"] == "error" {
			bad[lm["line"].(float64)] = true
			if len(lm["errors"].([]any)) == 0 {
				t.Errorf("line %v: error without reasons", lm["line"])
			}
		}
	}
	if len(bad) != 4 || !bad[4] || !bad[5] || !bad[6] || !bad[7] {
		t.Errorf("bad lines %v: %s", bad, rec.Body)
	}
	if rec := f.do("POST", membersA+"/import", "mgrA", "application/json", []byte(`{}`)); rec.Code != 415 {
		t.Errorf("JSON import: %d", rec.Code)
	}
	if rec := f.do("POST", membersA+"/import", "mgrB", "text/csv", fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv")); rec.Code != 404 {
		t.Errorf("manager B imports into A: %d", rec.Code)
	}
	rec = f.do("POST", membersA+"/import", "mgrA", "text/csv", fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv"))
	if rec.Code != 201 || decode(t, rec)["created"] != float64(5) {
		t.Fatalf("import: %d %s", rec.Code, rec.Body)
	}

	// Reads.
	rec = f.do("GET", membersA, "prosecutor", "", nil)
	if rec.Code != 200 {
		t.Fatalf("prosecutor reads: %d %s", rec.Code, rec.Body)
	}
	items := decode(t, rec)["items"].([]any)
	if len(items) != 5 {
		t.Fatalf("items: %d", len(items))
	}
	first := items[0].(map[string]any)
	for _, k := range []string{"id", "full_name", "cpf", "joined_on", "left_on"} {
		if _, ok := first[k]; !ok {
			t.Errorf("member without %s: %v", k, first)
		}
	}
	mid := int64(first["id"].(float64))
	member := fmt.Sprintf("/api/v1/members/%d", mid)
	for who, want := range map[string]int{"mgrA": 200, "judge": 200, "police": 200, "clerk": 200, "mgrB": 404, "judge-rj": 404, "admin": 403, "club": 403, "": 401} {
		for _, p := range []string{membersA, member, membersA + "/export"} {
			if rec := f.do("GET", p, who, "", nil); rec.Code != want {
				t.Errorf("GET %s as %q: %d, want %d", p, who, rec.Code, want)
			}
		}
	}
	// Changes by another group's manager: 404 on every route.
	for _, c := range []struct{ method, path, ctype, body string }{
		{"PATCH", member, "application/json", `{"profession": "x"}`},
		{"POST", member + "/leave", "application/json", `{}`},
		{"POST", member + "/rejoin", "application/json", `{}`},
		{"PUT", member + "/photo", "image/png", string(fixtureBytes(t, "fixtures", "member-photos", "rafaela.png"))},
		{"POST", membersA, "application/json", `{"full_name": "X"}`},
	} {
		if rec := f.do(c.method, c.path, "mgrB", c.ctype, []byte(c.body)); rec.Code != 404 {
			t.Errorf("%s %s as manager B: %d %s", c.method, c.path, rec.Code, rec.Body)
		}
		if rec := f.do(c.method, c.path, "judge", c.ctype, []byte(c.body)); rec.Code != 403 {
			t.Errorf("%s %s as judge: %d", c.method, c.path, rec.Code)
		}
	}

	// Photos.
	if rec := f.do("PUT", member+"/photo", "mgrA", "image/png", make([]byte, 6<<20)); rec.Code != 413 {
		t.Errorf("6 MB photo: %d", rec.Code)
	}
	if rec := f.do("PUT", member+"/photo", "mgrA", "image/png", fixtureBytes(t, "fixtures", "member-photos", "not-an-image.png")); rec.Code != 422 {
		t.Errorf("fake photo: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do("PUT", member+"/photo", "mgrA", "image/png", fixtureBytes(t, "fixtures", "member-photos", "rafaela.png")); rec.Code != 200 {
		t.Errorf("photo: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do("GET", member+"/photo", "judge", "", nil); rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
		t.Errorf("judge reads the photo: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if rec := f.do("GET", member+"/photo", "club", "", nil); rec.Code != 403 {
		t.Errorf("club reads the photo: %d", rec.Code)
	}

	// Export for Excel in Brazil.
	rec = f.do("GET", membersA+"/export?format=csv", "police", "", nil)
	body := rec.Body.String()
	if rec.Code != 200 || !strings.HasPrefix(body, "\uFEFFNome completo;Nome da mãe;") || !strings.Contains(body, "069.099.903-82") {
		t.Errorf("export: %d %q", rec.Code, body)
	}
	// The export imports back unchanged.
	rec = f.do("POST", membersA+"/import?dry_run=true", "mgrA", "text/csv", rec.Body.Bytes())
	if rec.Code != 200 || decode(t, rec)["unchanged"] != float64(5) {
		t.Errorf("export re-imported: %d %s", rec.Code, rec.Body)
	}

	// The register extract (PDF): same access as the CSV, stored under a
	// verification code.
	rec = f.do("GET", membersA+"/export?format=pdf", "police", "", nil)
	code := rec.Header().Get("X-Juizado-Document-Code")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || !strings.HasPrefix(rec.Body.String(), "%PDF-") || code == "" ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), "cadastro-torcida-") || !strings.Contains(rec.Header().Get("Cache-Control"), "no-store") {
		t.Errorf("PDF export: %d %v", rec.Code, rec.Header())
	}
	if rec := f.do("GET", "/verificar/"+code+"?format=json", "", "", nil); rec.Code != 200 || decode(t, rec)["kind"] != "register" {
		t.Errorf("PDF export verification: %d %s", rec.Code, rec.Body)
	}
	for who, want := range map[string]int{"mgrA": 200, "judge": 200, "mgrB": 404, "judge-rj": 404, "admin": 403, "club": 403, "": 401} {
		if rec := f.do("GET", membersA+"/export?format=pdf", who, "", nil); rec.Code != want {
			t.Errorf("PDF export as %q: %d, want %d", who, rec.Code, want)
		}
	}
	if rec := f.do("GET", membersA+"/export?format=xlsx", "police", "", nil); rec.Code != 422 {
		t.Errorf("unknown format: %d", rec.Code)
	}
	// Staff reads reach the audit trail with the request's actor.
	var auditReads int64
	f.g.Raw(`SELECT count(*) FROM audit_log a JOIN users u ON u.id = a.actor_id
		WHERE a.action = 'read' AND u.role = 'police' AND a.domain = '26.0100' AND a.table_name IN ('members', 'fan_groups')`).Scan(&auditReads)
	if auditReads < 3 {
		t.Errorf("police reads in audit_log: %d", auditReads)
	}

	// Leave and the read log.
	if rec := f.do("POST", member+"/leave", "mgrA", "application/json", nil); rec.Code != 200 || decode(t, rec)["active"] != false {
		t.Errorf("leave: %d %s", rec.Code, rec.Body)
	}
	var reads int64
	f.g.Raw("SELECT count(*) FROM member_reads WHERE group_id = ?", ga).Scan(&reads)
	if reads < 10 {
		t.Errorf("member_reads: %d", reads)
	}
	var managerReads int64
	f.g.Raw("SELECT count(*) FROM member_reads r JOIN users u ON u.id = r.user_id WHERE u.role = 'fan_group'").Scan(&managerReads)
	if managerReads != 0 {
		t.Errorf("manager reads recorded: %d", managerReads)
	}
}

// A CNPJ names one legal entity: a second group with the same CNPJ, in any
// spelling and under another name, is 409 naming cnpj; de facto groups
// (no CNPJ) are many.
func TestGroups_CNPJUnique(t *testing.T) {
	t.Parallel()
	f := newGroupsFixture(t)
	rec := f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(`{"name": "Torcida Um", "cnpj": "11.222.333/0001-81", "supported_club": "Corinthians"}`))
	if rec.Code != 201 || decode(t, rec)["cnpj"] != "11222333000181" {
		t.Fatalf("first group: %d %s", rec.Code, rec.Body)
	}
	for _, spelling := range []string{"11.222.333/0001-81", "11222333000181", " 11 222 333 0001 81 "} {
		rec := f.do("POST", "/api/v1/groups", "admin", "application/json", []byte(fmt.Sprintf(`{"name": "Torcida Dois", "cnpj": %q, "supported_club": "Palmeiras"}`, spelling)))
		if rec.Code != 409 || rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Fatalf("same CNPJ %q: %d %s", spelling, rec.Code, rec.Body)
		}
		p := decode(t, rec)
		errsList, _ := p["errors"].([]any)
		if len(errsList) != 1 || errsList[0].(map[string]any)["field"] != "cnpj" || !strings.Contains(p["detail"].(string), "11.222.333/0001-81") || !strings.Contains(p["detail"].(string), "Torcida Um") {
			t.Errorf("same CNPJ %q: %s", spelling, rec.Body)
		}
	}
	for _, name := range []string{"Torcida Três", "Torcida Quatro"} {
		if rec := f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(fmt.Sprintf(`{"name": %q, "supported_club": "Santos"}`, name))); rec.Code != 201 {
			t.Errorf("de facto group %s: %d %s", name, rec.Code, rec.Body)
		}
	}
	var n int64
	f.g.Raw("SELECT count(*) FROM fan_groups WHERE cnpj = '11222333000181'").Scan(&n)
	if n != 1 {
		t.Errorf("%d groups with the CNPJ, want 1", n)
	}
}
