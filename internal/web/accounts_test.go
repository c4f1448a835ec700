package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/internal/web"
)

// browser is a person's browser: a cookie jar, the last CSRF token seen in
// a page, and an address.
type browser struct {
	t      *testing.T
	srv    *web.Server
	jar    map[string]*http.Cookie
	csrf   string
	remote string
	header http.Header // added to every request
}

func newBrowser(t *testing.T, srv *web.Server, remote string) *browser {
	return &browser{t: t, srv: srv, jar: map[string]*http.Cookie{}, remote: remote, header: http.Header{}}
}

var csrfInput = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// do sends a request with the jar's cookies; a form is posted urlencoded
// (the page's CSRF token is added unless the form has a "csrf" entry);
// an unsafe request without a form sends the token in X-CSRF-Token.
func (b *browser) do(method, path string, form url.Values) *httptest.ResponseRecorder {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		if _, ok := form["csrf"]; !ok && b.csrf != "" {
			form = cloneForm(form)
			form.Set("csrf", b.csrf)
		}
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	req.RemoteAddr = b.remote + ":40000"
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else if method != "GET" && method != "HEAD" && b.csrf != "" {
		req.Header.Set("X-CSRF-Token", b.csrf)
	}
	for k, v := range b.header {
		req.Header[k] = v
	}
	for _, ck := range b.jar {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	b.srv.Echo.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		if ck.MaxAge < 0 {
			delete(b.jar, ck.Name)
		} else {
			b.jar[ck.Name] = ck
		}
	}
	if m := csrfInput.FindStringSubmatch(rec.Body.String()); m != nil {
		b.csrf = m[1]
	}
	return rec
}

func cloneForm(f url.Values) url.Values {
	out := url.Values{}
	for k, v := range f {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// login opens the login page (for its CSRF token) and posts the form.
func (b *browser) login(name, pw string) *httptest.ResponseRecorder {
	b.t.Helper()
	if rec := b.do("GET", "/entrar", nil); rec.Code != 200 {
		b.t.Fatalf("GET /entrar: %d %s", rec.Code, rec.Body)
	}
	return b.do("POST", "/entrar", url.Values{"usuario": {name}, "senha": {pw}})
}

// browser returns a browser signed in as the fixture's user of role.
func (f *fixture) browser(t *testing.T, role string) *browser {
	t.Helper()
	if b := f.sessions[role]; b != nil {
		return b
	}
	u := f.users[role]
	if err := accounts.SetPassword(context.Background(), f.g, u.ID, "senha-de-teste-"+role); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, f.srv, "192.0.2.10")
	if rec := b.login(u.Name, "senha-de-teste-"+role); rec.Code != 303 {
		t.Fatalf("login as %s: %d %s", role, rec.Code, rec.Body)
	}
	f.sessions[role] = b
	return b
}

func sessionCookie(rec *httptest.ResponseRecorder) *http.Cookie {
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == web.SessionCookie {
			return ck
		}
	}
	return nil
}

// Login: the form with labels and a CSRF field; a wrong password is 401
// and slowed; the right one starts a session (a new cookie, HttpOnly,
// SameSite=Lax, not persistent) and leads to the panel; logout ends it.
func TestLoginSuccessFailureLogout(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	u := f.users["clerk"]
	if err := accounts.SetPassword(ctx, f.g, u.ID, "curta"); err == nil {
		t.Fatal("a 5-character password was accepted")
	}
	if err := accounts.SetPassword(ctx, f.g, u.ID, "senha do cartório 1"); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, f.srv, "192.0.2.20")
	rec := b.do("GET", "/painel", nil)
	if rec.Code != 303 || rec.Header().Get("Location") != "/entrar?volta=%2Fpainel" {
		t.Fatalf("panel before login: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	rec = b.do("GET", "/entrar", nil)
	body := rec.Body.String()
	for _, want := range []string{`<label for="usuario">Usuário</label>`, `<label for="senha">Senha</label>`, `name="csrf"`, `lang="pt-BR"`} {
		if !strings.Contains(body, want) {
			t.Errorf("login page lacks %s", want)
		}
	}
	anon := b.jar[web.SessionCookie]
	if anon == nil || b.csrf == "" {
		t.Fatalf("login page set no session or CSRF token: %v %q", anon, b.csrf)
	}
	start := time.Now()
	rec = b.do("POST", "/entrar", url.Values{"usuario": {u.Name}, "senha": {"senha errada!!"}})
	if rec.Code != 401 || !strings.Contains(rec.Body.String(), "Usuário ou senha incorretos") {
		t.Fatalf("wrong password: %d %s", rec.Code, rec.Body)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("a failed login answered in %v: not slowed", d)
	}
	rec = b.do("POST", "/entrar", url.Values{"usuario": {"ninguem"}, "senha": {"senha errada!!"}})
	if rec.Code != 401 || !strings.Contains(rec.Body.String(), "Usuário ou senha incorretos") {
		t.Fatalf("unknown user: %d %s", rec.Code, rec.Body)
	}
	rec = b.do("POST", "/entrar", url.Values{"usuario": {u.Name}, "senha": {"senha do cartório 1"}, "volta": {"https://evil.example/"}})
	if rec.Code != 303 || rec.Header().Get("Location") != "/painel" {
		t.Fatalf("login: %d %q %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	ck := sessionCookie(rec)
	if ck == nil || ck.Value == anon.Value {
		t.Fatalf("login did not renew the session token: %v", ck)
	}
	if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure || ck.MaxAge != 0 || !ck.Expires.IsZero() || ck.Path != "/" {
		t.Errorf("session cookie flags: %s", rec.Header().Get("Set-Cookie"))
	}
	rec = b.do("GET", "/painel", nil)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<strong>u-clerk</strong>") || !strings.Contains(rec.Body.String(), `action="/sair"`) ||
		rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("panel: %d %s", rec.Code, rec.Body)
	}
	// Signed in, the login page goes on to the panel.
	if rec := b.do("GET", "/entrar", nil); rec.Code != 303 {
		t.Errorf("login page when signed in: %d", rec.Code)
	}
	// The session cookie is no bearer token, and a token is no session.
	req := httptest.NewRequest("GET", "/api/v1/cases", nil)
	req.AddCookie(b.jar[web.SessionCookie])
	res := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(res, req)
	if res.Code != 401 {
		t.Errorf("API with a session cookie: %d, want 401", res.Code)
	}
	rec = b.do("POST", "/sair", url.Values{})
	if rec.Code != 303 || rec.Header().Get("Location") != "/entrar" {
		t.Fatalf("logout: %d", rec.Code)
	}
	if ck := sessionCookie(rec); ck == nil || ck.MaxAge >= 0 {
		t.Errorf("logout did not clear the cookie: %v", ck)
	}
	if rec := b.do("GET", "/painel", nil); rec.Code != 303 {
		t.Errorf("panel after logout: %d", rec.Code)
	}
	// A disabled user's session ends.
	b2 := newBrowser(t, f.srv, "192.0.2.21")
	if rec := b2.login(u.Name, "senha do cartório 1"); rec.Code != 303 {
		t.Fatalf("second login: %d", rec.Code)
	}
	if _, err := accounts.SetDisabled(ctx, f.g, u.Name, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if rec := b2.do("GET", "/painel", nil); rec.Code != 303 {
		t.Errorf("panel of a disabled user: %d", rec.Code)
	}
	if rec := newBrowser(t, f.srv, "192.0.2.22").login(u.Name, "senha do cartório 1"); rec.Code != 401 {
		t.Errorf("login of a disabled user: %d", rec.Code)
	}
}

// Five failures on one account lock it (even with the right password
// afterwards: 429 with Retry-After), from any address; other accounts
// still sign in. Twenty failures from one address lock that address.
func TestLoginLockout(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, role := range []string{"judge", "prosecutor"} {
		if err := accounts.SetPassword(ctx, f.g, f.users[role].ID, "senha certa "+role); err != nil {
			t.Fatal(err)
		}
	}
	b := newBrowser(t, f.srv, "192.0.2.30")
	var last time.Duration
	for i := 0; i < 5; i++ {
		start := time.Now()
		if rec := b.login("u-judge", "chute número "+string(rune('a'+i))); rec.Code != 401 {
			t.Fatalf("failure %d: %d", i+1, rec.Code)
		}
		last = time.Since(start)
	}
	if last < 5*150*time.Millisecond {
		t.Errorf("the fifth failure answered in %v: not slowed", last)
	}
	rec := newBrowser(t, f.srv, "192.0.2.31").login("U-Judge ", "senha certa judge")
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "bloqueado") {
		t.Fatalf("locked account with the right password: %d %s", rec.Code, rec.Body)
	}
	if rec := newBrowser(t, f.srv, "192.0.2.32").login("u-prosecutor", "senha certa prosecutor"); rec.Code != 303 {
		t.Fatalf("another account: %d", rec.Code)
	}
	// One address guessing many accounts (the lockout of an address).
	ip := newBrowser(t, f.srv, "198.51.100.7")
	for i := 0; i < 20; i++ {
		if rec := ip.login("conta-"+string(rune('a'+i)), "x-senha-qualquer"); rec.Code != 401 {
			t.Fatalf("address failure %d: %d", i+1, rec.Code)
		}
	}
	// The address is locked out of the accounts it attacked...
	if rec := ip.login("conta-a", "x-senha-qualquer"); rec.Code != 429 {
		t.Fatalf("an attacked account from the locked address: %d, want 429", rec.Code)
	}
	// ...never out of an account it has not attacked (behind a proxy every
	// user shares the address).
	if rec := ip.login("u-prosecutor", "senha certa prosecutor"); rec.Code != 303 {
		t.Fatalf("an account the address never attacked: %d, want 303", rec.Code)
	}
}

// CSRF: a form without the session's token, or with a forged one, or with
// the token of another session, is 403; bearer-token API calls need none.
func TestCSRF(t *testing.T) {
	f := newFixture(t)
	b := f.browser(t, "clerk")
	other := f.browser(t, "judge")
	for name, form := range map[string]url.Values{
		"missing":       {"csrf": nil},
		"forged":        {"csrf": {"forjado-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}},
		"other session": {"csrf": {other.csrf}},
	} {
		if rec := b.do("POST", "/sair", form); rec.Code != 403 {
			t.Errorf("logout with a %s token: %d, want 403", name, rec.Code)
		}
		anon := newBrowser(t, f.srv, "192.0.2.40")
		anon.do("GET", "/entrar", nil)
		form := cloneForm(form)
		form.Set("usuario", "u-clerk")
		form.Set("senha", "senha-de-teste-clerk")
		if rec := anon.do("POST", "/entrar", form); rec.Code != 403 {
			t.Errorf("login with a %s token: %d, want 403", name, rec.Code)
		}
	}
	// A login post with no session at all.
	req := httptest.NewRequest("POST", "/entrar", strings.NewReader("usuario=u-clerk&senha=senha-de-teste-clerk"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	if rec.Code != 403 {
		t.Errorf("login without a session: %d, want 403", rec.Code)
	}
	if rec := b.do("GET", "/painel", nil); rec.Code != 200 {
		t.Fatalf("the session survived the forgeries: %d", rec.Code)
	}
	if rec := b.do("POST", "/sair", url.Values{}); rec.Code != 303 {
		t.Errorf("logout with the token: %d", rec.Code)
	}
	if rec := f.call("POST", "/api/v1/cases", f.tokens["prosecutor"]); rec.Code != 422 {
		t.Errorf("API POST with a token and no CSRF: %d, want 422 (past authorization)", rec.Code)
	}
}

// The session cookie is Secure behind TLS (X-Forwarded-Proto: https) or
// with SecureCookies.
func TestSessionCookieSecure(t *testing.T) {
	f := newFixture(t)
	b := newBrowser(t, f.srv, "192.0.2.50")
	b.header.Set("X-Forwarded-Proto", "https")
	rec := b.do("GET", "/entrar", nil)
	if ck := sessionCookie(rec); ck == nil || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
		t.Errorf("behind TLS: %s", rec.Header().Get("Set-Cookie"))
	}
	srv := testenv.MustServer(t, f.g, testenv.With(func(d *web.Deps) { d.SecureCookies = true }))
	rec = newBrowser(t, srv, "192.0.2.51").do("GET", "/entrar", nil)
	if ck := sessionCookie(rec); ck == nil || !ck.Secure {
		t.Errorf("with SecureCookies: %s", rec.Header().Get("Set-Cookie"))
	}
	// The API sets no cookie.
	if rec := f.call("GET", "/api/v1/cases", f.tokens["clerk"]); rec.Header().Get("Set-Cookie") != "" {
		t.Errorf("the API set a cookie: %s", rec.Header().Get("Set-Cookie"))
	}
}

// Expired and revoked tokens, and the tokens of a disabled user, are 401
// (within the 5 s the server may keep a token's user in memory).
func TestTokenExpiryAndRevocation(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	u := f.users["clerk"]
	expired, err := accounts.NewToken(ctx, f.g, u.ID, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if rec := f.call("GET", "/api/v1/cases", expired); rec.Code != 401 {
		t.Errorf("expired token: %d", rec.Code)
	}
	soon, err := accounts.NewToken(ctx, f.g, u.ID, time.Now().Add(1500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	revoked, err := accounts.NewToken(ctx, f.g, u.ID, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{soon, revoked} {
		if rec := f.call("GET", "/api/v1/cases", tok); rec.Code != 200 {
			t.Fatalf("fresh token: %d", rec.Code)
		}
	}
	toks, err := accounts.ListTokens(ctx, f.g, u.ID)
	if err != nil || len(toks) != 4 {
		t.Fatalf("tokens: %v %v", toks, err)
	}
	if _, err := accounts.RevokeToken(ctx, f.g, toks[3].ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.RevokeToken(ctx, f.g, 999999, time.Now()); err == nil {
		t.Error("revoking a token that does not exist succeeded")
	}
	eventually401 := func(what, tok string) {
		t.Helper()
		deadline := time.Now().Add(8 * time.Second)
		for {
			rec := f.call("GET", "/api/v1/cases", tok)
			if rec.Code == 401 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%s: still %d", what, rec.Code)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	eventually401("revoked token", revoked)
	eventually401("expired token", soon)
	// Revoke all, and disabling.
	jt := f.tokens["judge"]
	if n, err := accounts.RevokeAll(ctx, f.g, f.users["judge"].ID, time.Now()); err != nil || n != 1 {
		t.Fatalf("revoke all: %d %v", n, err)
	}
	eventually401("token revoked with all", jt)
	if _, err := accounts.SetDisabled(ctx, f.g, "u-police", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	eventually401("token of a disabled user", f.tokens["police"])
}

// A club reaches nothing but the blocklist: every protected route other
// than /api/v1/blocklist... (and its page, /clube...) is 403 for a club's
// token, and a club's person has no panel either.
func TestClubReachesOnlyTheBlocklist(t *testing.T) {
	f := newFixture(t)
	clubRoutes := map[string]bool{}
	for _, r := range f.rules {
		if r[0] == "club" {
			clubRoutes[r[3]+" "+r[2]] = true
			if !strings.HasPrefix(r[2], "/api/v1/blocklist") && r[2] != "/clube" && !strings.HasPrefix(r[2], "/clube/") {
				t.Errorf("policy gives club %s %s", r[3], r[2])
			}
		}
	}
	if len(clubRoutes) == 0 {
		t.Fatal("no rule for clubs")
	}
	for _, rt := range routesOf(f.srv) {
		method, path, _ := strings.Cut(rt, " ")
		if f.srv.IsPublic(rt) || !strings.HasPrefix(path, "/api/") {
			continue
		}
		rec := f.call(method, concrete(path), f.tokens["club"])
		if clubRoutes[rt] {
			if rec.Code == 401 || rec.Code == 403 {
				t.Errorf("club %s: %d", rt, rec.Code)
			}
		} else if rec.Code != 403 {
			t.Errorf("club %s: %d, want 403", rt, rec.Code)
		}
	}
	if rec := f.browser(t, "club").do("GET", "/painel", nil); rec.Code != 403 || !strings.Contains(rec.Body.String(), "não tem acesso") {
		t.Errorf("club's panel: %d %s", rec.Code, rec.Body)
	}
}

// Fields of the body that try to set the case's id, court, judge, status
// or the filer's role are ignored: the court is the filer's, the judge the
// one distribution picks, the role the token's.
func TestBodyCannotChangeIdsCourtJudgeOrRole(t *testing.T) {
	f := newFixture(t)
	var in map[string]any
	if err := json.Unmarshal(sharedfix.Representations(t)[0], &in); err != nil {
		t.Fatal(err)
	}
	in["id"] = 424242
	in["court"] = "19.0001"
	in["court_code"] = "19.0001"
	in["judge_id"] = f.users["admin"].ID
	in["judge"] = map[string]any{"id": f.users["admin"].ID, "name": "u-admin"}
	in["status"] = "sentenced"
	in["role"] = "judge"
	in["filer_role"] = "judge"
	in["user_id"] = f.users["judge"].ID
	fb, _ := in["filed_by"].(map[string]any)
	fb["role"] = "judge"
	body, _ := json.Marshal(in)
	req := httptest.NewRequest("POST", "/api/v1/cases", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.tokens["prosecutor"])
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	if rec.Code == 422 {
		return // refused: as good as ignored
	}
	if rec.Code != 201 {
		t.Fatalf("filing: %d %s", rec.Code, rec.Body)
	}
	var v struct {
		ID      int64
		Court   string
		Status  string
		Judge   *struct{ ID int64 }
		FiledBy struct{ Role string } `json:"filed_by"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v.ID == 424242 || v.Court != "26.0100" || v.Status == "sentenced" || v.FiledBy.Role != "prosecutor" ||
		v.Judge == nil || v.Judge.ID != f.users["judge"].ID {
		t.Errorf("the body changed the case: %s", rec.Body)
	}
}

// Rules are per domain: a rule for one court reaches that court's users
// only; the server's watcher brings a rule added in the database into
// force within 5 s.
func TestDomainRulesAndWatcher(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := f.srv.StartAccounts(ctx); err != nil {
		t.Fatal(err)
	}
	if rec := f.call("GET", "/api/v1/audit", f.tokens["clerk"]); rec.Code != 403 {
		t.Fatalf("clerk reads the audit trail: %d", rec.Code)
	}
	add := func(dom string) {
		if err := f.g.Exec("INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES ('p', 'clerk', ?, '/api/v1/audit', 'GET', '', '')", dom).Error; err != nil {
			t.Fatal(err)
		}
	}
	wait := func(want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			rec := f.call("GET", "/api/v1/audit", f.tokens["clerk"])
			if rec.Code == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("after 5 s: %d, want %d", rec.Code, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if err := cases.EnsureCourt(ctx, f.g, "19.0001", ""); err != nil { // a rule names a court that exists (migration 00130)
		t.Fatal(err)
	}
	add("19.0001") // another court
	time.Sleep(300 * time.Millisecond)
	if rec := f.call("GET", "/api/v1/audit", f.tokens["clerk"]); rec.Code != 403 {
		t.Fatalf("a rule of another court let the clerk in: %d", rec.Code)
	}
	add("26.0100")
	wait(200)
	if err := f.g.Exec("DELETE FROM casbin_rule WHERE v0 = 'clerk' AND v2 = '/api/v1/audit'").Error; err != nil {
		t.Fatal(err)
	}
	wait(403)
}
