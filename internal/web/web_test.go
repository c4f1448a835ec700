package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/internal/web"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type fixture struct {
	srv      *web.Server
	clk      *shiftClock
	tokens   map[string]string // role → token
	rules    [][]string        // role, domain, route, method
	g        *gorm.DB
	users    map[string]accounts.User // role → user
	sessions map[string]*browser      // role → signed-in browser (accounts_test.go)
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	g := pgtest.NewDB(t)
	if err := cases.EnsureCourt(ctx, g, "26.0100", ""); err != nil {
		t.Fatal(err)
	}
	if err := g.Exec("INSERT INTO fan_groups (id, name, court_code) VALUES (1, 'Torcida Teste', '26.0100')").Error; err != nil {
		t.Fatal(err)
	}
	clk := &shiftClock{}
	srv := testenv.MustServer(t, g, testenv.WithClock(clk))
	f := &fixture{srv: srv, clk: clk, tokens: map[string]string{}, g: g, users: map[string]accounts.User{}, sessions: map[string]*browser{}}
	for _, role := range accounts.Roles {
		spec := accounts.UserSpec{Name: "u-" + role, Role: role, Court: "26.0100", Club: "Clube", Group: 1, OAB: "SP123456"}
		if !accounts.IsStaff(role) {
			spec.Court = ""
		}
		u, _, err := accounts.EnsureUser(ctx, g, spec)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := accounts.NewToken(ctx, g, u.ID, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		f.tokens[role] = tok
		f.users[role] = u
	}
	rules, err := authz.Base()
	if err != nil {
		t.Fatal(err)
	}
	f.rules = rules
	return f
}

// shiftClock is the fixture's clock: the system clock moved by an offset
// the test sets, so that time runs and a test can place "today" on a past
// day (a ban that became final a month ago) and come back.
type shiftClock struct {
	mu     sync.Mutex
	offset time.Duration
}

// Now is the system time plus the offset.
func (c *shiftClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// onDay moves the clock to day (AAAA-MM-DD) at 23:30 in São Paulo (after
// the facts of every fixture of that day) and returns the function that
// brings it back to the system time.
func (c *shiftClock) onDay(t testing.TB, day string) func() {
	t.Helper()
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	d, err := time.ParseInLocation("2006-01-02", day, loc)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.offset = time.Until(d.Add(23*time.Hour + 30*time.Minute))
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.offset = 0
		c.mu.Unlock()
	}
}

func (f *fixture) call(method, path, token string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	return rec
}

// routesOf returns "METHOD /template" for every route of srv's router.
func routesOf(srv *web.Server) []string {
	var out []string
	for _, r := range srv.Echo.Routes() {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// concrete turns a route template into a path the router matches.
func concrete(path string) string {
	r := strings.NewReplacer(":id", "1", ":defendant_id", "1", ":number", "0000001-39.2024.8.26.0100", ":cpf", "52601815906", ":code", "ABCD-EFGH-IJKL")
	return r.Replace(path)
}

// Every route of the router is covered by a policy or by the public
// allowlist (deny by default must not hide a route nobody can reach).
func TestEveryRouteHasAPolicyOrIsPublic(t *testing.T) {
	f := newFixture(t)
	covered := map[string]bool{}
	for _, r := range f.rules {
		covered[r[3]+" "+r[2]] = true
	}
	for _, rt := range routesOf(f.srv) {
		if !f.srv.IsPublic(rt) && !covered[rt] {
			t.Errorf("route %s has no policy and is not public", rt)
		}
	}
	routes := map[string]bool{}
	for _, rt := range routesOf(f.srv) {
		routes[rt] = true
	}
	for k := range covered {
		if !routes[k] {
			t.Errorf("policy for %s names no route", k)
		}
	}
}

// The matrix of every role against every protected route: allowed roles get
// past authorization (neither 401 nor 403), the others get 403; no token is
// 401; public routes answer without a token.
func TestRoleMatrix(t *testing.T) {
	f := newFixture(t)
	allowed := map[string]map[string]bool{}
	for _, r := range f.rules {
		if r[1] != accounts.AnyDomain && r[1] != f.users[r[0]].Domain() {
			continue // a rule of another domain
		}
		k := r[3] + " " + r[2]
		if allowed[k] == nil {
			allowed[k] = map[string]bool{}
		}
		allowed[k][r[0]] = true
	}
	routes := routesOf(f.srv)
	sort.Strings(routes)
	for _, rt := range routes {
		method, path, _ := strings.Cut(rt, " ")
		if f.srv.IsPublic(rt) {
			rec := f.call(method, concrete(path), "")
			if method == "POST" && !strings.HasPrefix(path, "/api/") && rec.Code == 403 {
				// A public form takes the CSRF token of its page's session.
				b := newBrowser(t, f.srv, "192.0.2.1")
				b.do("GET", "/entrar", nil)
				rec = b.do(method, concrete(path), url.Values{})
			}
			if rec.Code == 401 || rec.Code == 403 {
				t.Errorf("public %s answered %d without a token", rt, rec.Code)
			}
			continue
		}
		if !strings.HasPrefix(path, "/api/") { // a page: sessions, not tokens
			if rec := f.call(method, concrete(path), f.tokens["admin"]); rec.Code != 303 || !strings.HasPrefix(rec.Header().Get("Location"), "/entrar") {
				t.Errorf("page %s without a session: %d, want 303 to /entrar", rt, rec.Code)
			}
		} else if rec := f.call(method, concrete(path), ""); rec.Code != 401 {
			t.Errorf("%s without a token: %d, want 401", rt, rec.Code)
		}
		for _, role := range accounts.Roles {
			var rec *httptest.ResponseRecorder
			if strings.HasPrefix(path, "/api/") {
				rec = f.call(method, concrete(path), f.tokens[role])
			} else {
				rec = f.browser(t, role).do(method, concrete(path), nil)
			}
			if allowed[rt][role] {
				if rec.Code == 401 || rec.Code == 403 {
					t.Errorf("%s as %s: %d, want allowed (%s)", rt, role, rec.Code, rec.Body)
				}
			} else if rec.Code != 403 {
				t.Errorf("%s as %s: %d, want 403", rt, role, rec.Code)
			}
		}
	}
	// The API.md table, spelled out for the main job.
	for role, want := range map[string]int{"prosecutor": 422, "police": 422, "judge": 403, "clerk": 403, "club": 403, "fan_group": 403, "admin": 403} {
		if rec := f.call("POST", "/api/v1/cases", f.tokens[role]); rec.Code != want {
			t.Errorf("POST /api/v1/cases as %s: %d, want %d", role, rec.Code, want)
		}
	}
	if rec := f.call("GET", "/api/v1/blocklist", f.tokens["club"]); rec.Code != 200 {
		t.Errorf("club reads the blocklist: %d", rec.Code)
	}
}

// Errors are problem+json, never a 500 for bad input.
func TestProblemsForBadInput(t *testing.T) {
	f := newFixture(t)
	p := f.tokens["prosecutor"]
	for _, tc := range []struct {
		method, path, body, ctype string
		status                    int
	}{
		{"POST", "/api/v1/cases", `{`, "application/json", 400},
		{"POST", "/api/v1/cases", ``, "application/json", 400},
		{"POST", "/api/v1/cases", `[]`, "application/json", 400},
		{"POST", "/api/v1/cases", `{"defendants": "x"}`, "application/json", 422},
		{"POST", "/api/v1/cases", `{"facts": {"latitude": "norte"}}`, "application/json", 422},
		{"POST", "/api/v1/cases", `a=b`, "application/x-www-form-urlencoded", 415},
		{"GET", "/api/v1/nothing", ``, "", 404},
		{"DELETE", "/api/v1/cases", ``, "", 405},
		{"GET", "/api/v1/legal/ban-range?subject=alien&facts_date=2024-13-01", ``, "", 422},
		{"GET", "/api/v1/legal/ban-range?subject=person&facts_date=2001-01-01", ``, "", 422},
		{"GET", "/api/v1/legal/ban-term?first_day=2024-02-30&months=3", ``, "", 422},
		{"GET", "/api/v1/legal/ban-term?first_day=2024-02-01&months=-3", ``, "", 422},
		{"GET", "/api/v1/cases?page=x", ``, "", 422},
		{"GET", "/api/v1/cases?cpf=123", ``, "", 422},
	} {
		req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
		if tc.ctype != "" {
			req.Header.Set("Content-Type", tc.ctype)
		}
		req.Header.Set("Authorization", "Bearer "+p)
		rec := httptest.NewRecorder()
		f.srv.Echo.ServeHTTP(rec, req)
		if rec.Code != tc.status {
			t.Errorf("%s %s %q: %d, want %d: %s", tc.method, tc.path, tc.body, rec.Code, tc.status, rec.Body)
			continue
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
			t.Errorf("%s %s: content type %q", tc.method, tc.path, ct)
		}
		var prob map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &prob); err != nil || prob["status"] != float64(tc.status) || prob["detail"] == "" {
			t.Errorf("%s %s: not a problem document: %s", tc.method, tc.path, rec.Body)
		}
	}
}

// The OpenAPI document lists exactly the routes of the router.
func TestOpenAPIInStepWithRouter(t *testing.T) {
	f := newFixture(t)
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(web.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for p, ops := range doc.Paths {
		for m := range ops {
			tmpl := p
			for _, name := range []string{"id", "defendant_id", "number", "cpf", "code"} {
				tmpl = strings.ReplaceAll(tmpl, "{"+name+"}", ":"+name)
			}
			documented[strings.ToUpper(m)+" "+tmpl] = true
		}
	}
	for _, rt := range routesOf(f.srv) {
		if !documented[rt] {
			t.Errorf("route %s is not in openapi.json", rt)
		}
		delete(documented, rt)
	}
	for rt := range documented {
		t.Errorf("openapi.json documents %s, which the router lacks", rt)
	}
	if rec := f.call("GET", "/api/v1/openapi.json", ""); rec.Code != http.StatusOK {
		t.Errorf("openapi.json: %d", rec.Code)
	}
}

func TestLegalEndpointsSharedCases(t *testing.T) {
	f := newFixture(t)
	for q, want := range map[string]string{
		"subject=person&facts_date=2008-03-09":                `"max_months":12`,
		"subject=person&facts_date=2024-05-12&sec7=true":      `"max_months":72`,
		"subject=person&facts_date=2016-04-03&eligible=false": `"convertible":false`,
		"subject=group&facts_date=2024-09-01&off_venue=true":  `"members":"involved"`,
	} {
		rec := f.call("GET", "/api/v1/legal/ban-range?"+q, "")
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("ban-range?%s: %d %s, want %s", q, rec.Code, rec.Body, want)
		}
	}
}

// Type errors and NUL characters name the field with its array index.
func TestFieldPathsWithIndices(t *testing.T) {
	f := newFixture(t)
	for body, field := range map[string]string{
		`{"defendants": [{"kind": "person"}, {"kind": "person", "cpf": 123}]}`:           `"field":"defendants[1].cpf"`,
		`{"facts": {"police_reports": ["a", 7]}}`:                                        `"field":"facts.police_reports[1]"`,
		`{"facts": {"description": "a\u0000b"}}`:                                         `"field":"facts.description"`,
		`{"defendants": [{"kind": "person", "full_name": "x\u0000"}]}`:                   `"field":"defendants[0].full_name"`,
		`{"defendants": [{"kind": "person"}], "facts": {"conduct": ["riot", {"a": 1}]}}`: `"field":"facts.conduct`,
	} {
		req := httptest.NewRequest("POST", "/api/v1/cases", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+f.tokens["prosecutor"])
		rec := httptest.NewRecorder()
		f.srv.Echo.ServeHTTP(rec, req)
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), field) {
			t.Errorf("%s: %d %s, want 422 naming %s", body, rec.Code, rec.Body, field)
		}
	}
	for _, body := range []string{"null", "\xff\xfe{}", `"x"`} {
		req := httptest.NewRequest("POST", "/api/v1/cases", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+f.tokens["prosecutor"])
		rec := httptest.NewRecorder()
		f.srv.Echo.ServeHTTP(rec, req)
		if rec.Code != 400 {
			t.Errorf("%q: %d, want 400", body, rec.Code)
		}
	}
}

// /metrics speaks Prometheus text, labels requests by route template and
// never by the raw path (CPFs travel in paths).
func TestMetricsByRouteTemplate(t *testing.T) {
	f := newFixture(t)
	f.call("GET", "/api/v1/blocklist/check/52601815906", f.tokens["club"])
	f.call("GET", "/no/such/path/52601815906", "")
	rec := f.call("GET", "/metrics", "")
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `url="/api/v1/blocklist/check/:cpf"`) || !strings.Contains(body, `go_sql_max_open_connections{db_name="juizado"}`) {
		t.Fatalf("metrics: %d\n%s", rec.Code, body)
	}
	if strings.Contains(body, "52601815906") {
		t.Fatal("a CPF leaked into the metrics labels")
	}
}

// The audit trail records a filing with the prosecutor as actor; admins and
// judges of the court read it, filtered by record; others may not.
func TestAuditTrailOverHTTP(t *testing.T) {
	f := newFixture(t)
	req := httptest.NewRequest("POST", "/api/v1/cases", bytes.NewReader(sharedfix.Representations(t)[0]))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.tokens["prosecutor"])
	res := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(res, req)
	if res.Code != 201 {
		t.Fatalf("filing: %d %s", res.Code, res.Body)
	}
	rec := f.call("GET", "/api/v1/audit?table=cases", f.tokens["admin"])
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `"actor_name":"u-prosecutor"`) || !strings.Contains(body, `"action":"insert"`) || !strings.Contains(body, `"domain":"26.0100"`) {
		t.Fatalf("audit as admin: %d %s", rec.Code, body)
	}
	if rec := f.call("GET", "/api/v1/audit?table=cases&actor_id=999999", f.tokens["judge"]); rec.Code != 200 || strings.Contains(rec.Body.String(), "u-prosecutor") {
		t.Fatalf("filter by another actor: %d %s", rec.Code, rec.Body)
	}
	if rec := f.call("GET", "/api/v1/audit?from=2024-13-01", f.tokens["judge"]); rec.Code != 422 {
		t.Fatalf("bad period: %d", rec.Code)
	}
	if rec := f.call("GET", "/api/v1/audit", f.tokens["prosecutor"]); rec.Code != 403 {
		t.Fatalf("audit as prosecutor: %d", rec.Code)
	}
}

// receive takes every defendant of criminal case caseID to the accusation
// received over HTTP (Lei 9.099/1995, arts. 77 and 81: no sentence without
// it): the preliminary phase and the receipt by the clerk, the oral
// accusation by the prosecutor.
func (f *fixture) receive(t testing.TB, caseID int64) {
	t.Helper()
	for _, st := range []struct{ role, to string }{{"clerk", "preliminary_hearing"}, {"prosecutor", "accusation"}, {"clerk", "instruction_hearing"}} {
		rec := f.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", caseID), f.tokens[st.role], "application/json", []byte(fmt.Sprintf(`{"to": %q}`, st.to)), "")
		if rec.Code != 200 {
			t.Fatalf("receive the accusation (%s): %d %s", st.to, rec.Code, rec.Body)
		}
	}
}
