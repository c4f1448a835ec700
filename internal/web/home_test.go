package web_test

import (
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/templates"
)

// browserAccept is what a browser sends in Accept for a page.
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// ask makes one request through the router with Accept and Content-Type.
func (f *fixture) ask(method, path, accept, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	return rec
}

// GET / answers a page: the public list of banned fans to anyone not
// signed in (with the way to sign in), and a signed-in person goes on to
// where their menu starts (the panel; a club, which has no panel, to its
// blocklist page).
func TestHomeIsThePublicListOrThePersonsStart(t *testing.T) {
	f := newFixture(t)
	rec := f.ask("GET", "/", browserAccept, "")
	body := rec.Body.String()
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") ||
		!strings.Contains(body, "Relação de torcedores impedidos") || !strings.Contains(body, `href="/entrar"`) {
		t.Errorf("GET / for nobody: %d %s %.300s", rec.Code, rec.Header().Get("Content-Type"), body)
	}
	if rec := f.ask("GET", "/", "", ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), "Relação de torcedores impedidos") {
		t.Errorf("GET / without Accept: %d", rec.Code)
	}
	for role, want := range map[string]string{"clerk": "/painel", "judge": "/painel", "admin": "/painel", "fan_group": "/painel", "club": "/clube"} {
		rec := f.browser(t, role).do("GET", "/", nil)
		if rec.Code != 303 || rec.Header().Get("Location") != want {
			t.Errorf("GET / as %s: %d to %q, want 303 to %s", role, rec.Code, rec.Header().Get("Location"), want)
		}
	}
}

// An address no page has answers a browser (Accept: text/html) with an HTML
// 404 in Portuguese and a link home, and an API client with problem+json;
// under /api/ it is always problem+json. A page asked with a method it does
// not take is 405 the same way, with Allow.
func TestUnknownAddressesAnswerAPageToBrowsersAndProblemsToClients(t *testing.T) {
	f := newFixture(t)
	page := func(what string, rec *httptest.ResponseRecorder, status int, words ...string) {
		t.Helper()
		body := rec.Body.String()
		if rec.Code != status || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s, want an HTML %d", what, rec.Code, rec.Header().Get("Content-Type"), status)
			return
		}
		for _, w := range append(words, `<html lang="pt-BR">`, `href="/"`) {
			if !strings.Contains(body, w) {
				t.Errorf("%s: no %q in %.400s", what, w, body)
			}
		}
	}
	problem := func(what string, rec *httptest.ResponseRecorder, status int) {
		t.Helper()
		if rec.Code != status || rec.Header().Get("Content-Type") != "application/problem+json" || !strings.Contains(rec.Body.String(), `"status":`) {
			t.Errorf("%s: %d %s %.200s, want problem+json %d", what, rec.Code, rec.Header().Get("Content-Type"), rec.Body, status)
		}
	}
	page("GET /nada by a browser", f.ask("GET", "/nada/mais", browserAccept, ""), 404, "Página não encontrada", `href="/entrar"`)
	page("GET /processos/1/nada by a browser", f.ask("GET", "/processos/1/nada", "text/html", ""), 404, "Página não encontrada")
	problem("GET /nada by a client", f.ask("GET", "/nada", "application/json", ""), 404)
	problem("GET /nada without Accept", f.ask("GET", "/nada", "", ""), 404)
	problem("GET /nada with text/html;q=0", f.ask("GET", "/nada", "text/html;q=0, application/json", ""), 404)
	problem("GET /api/v1/nada by a browser", f.ask("GET", "/api/v1/nada", browserAccept, ""), 404)
	problem("GET /api by a browser", f.ask("GET", "/api", browserAccept, ""), 404)
	problem("GET /api/nada by a browser", f.ask("GET", "/api/nada", browserAccept, ""), 404)
	if rec := f.ask("HEAD", "/nada", browserAccept, ""); rec.Code != 404 {
		t.Errorf("HEAD /nada: %d", rec.Code)
	}

	rec := f.ask("DELETE", "/impedidos", browserAccept, "")
	page("DELETE /impedidos by a browser", rec, 405, "Método não permitido")
	if rec.Header().Get("Allow") == "" {
		t.Errorf("405 page without Allow")
	}
	problem("DELETE /impedidos by a client", f.ask("DELETE", "/impedidos", "application/json", ""), 405)
	problem("DELETE /api/v1/cases by a browser", f.ask("DELETE", "/api/v1/cases", browserAccept, ""), 405)

	// A signed-in person's 404 shows their menu, and no sign-in link.
	b := f.browser(t, "clerk")
	b.header.Set("Accept", browserAccept)
	rec = b.do("GET", "/nada", nil)
	page("GET /nada by the clerk", rec, 404, "Página não encontrada", `href="/feriados"`, "Sair")
	if strings.Contains(rec.Body.String(), `href="/entrar"`) {
		t.Errorf("the clerk's 404 offers to sign in")
	}
}

var (
	menuNav  = regexp.MustCompile(`(?s)<nav class="menu"[^>]*>(.*?)</nav>`)
	cardList = regexp.MustCompile(`(?s)<ul class="cartoes">(.*?)</ul>`)
	linkHref = regexp.MustCompile(`<a href="([^"]+)"`)
)

// hrefs returns the link targets of the part of body re's first group
// matches.
func hrefs(t *testing.T, re *regexp.Regexp, body string) []string {
	t.Helper()
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no %s in %.300s", re, body)
	}
	var out []string
	for _, l := range linkHref.FindAllStringSubmatch(m[1], -1) {
		out = append(out, l[1])
	}
	return out
}

// The menu is the policy's: each role sees, in the menu of every page and
// as the panel's cards, exactly the items of templates.Menu the policy lets
// it GET (or anyone may), so the menu never repeats who may do what.
func TestMenuShowsExactlyWhatThePolicyAllows(t *testing.T) {
	f := newFixture(t)
	for _, role := range accounts.Roles {
		var want []string
		for _, it := range templates.Menu {
			if f.srv.IsPublic("GET " + it.Path) {
				want = append(want, it.Path)
				continue
			}
			for _, r := range f.rules {
				if r[0] == role && r[2] == it.Path && r[3] == "GET" && (r[1] == accounts.AnyDomain || r[1] == f.users[role].Domain()) {
					want = append(want, it.Path)
					break
				}
			}
		}
		b := f.browser(t, role)
		rec := b.do("GET", "/", nil)
		home := rec.Header().Get("Location")
		rec = b.do("GET", home, nil)
		if rec.Code != 200 {
			t.Fatalf("%s's home %s: %d", role, home, rec.Code)
		}
		if got := hrefs(t, menuNav, rec.Body.String()); !slices.Equal(got, want) {
			t.Errorf("%s's menu: %v, want %v", role, got, want)
		}
		if home == "/painel" {
			cards := slices.DeleteFunc(slices.Clone(want), func(p string) bool { return p == "/painel" })
			if got := hrefs(t, cardList, rec.Body.String()); !slices.Equal(got, cards) {
				t.Errorf("%s's panel: %v, want %v", role, got, cards)
			}
		}
	}

	// The policy, spelled out for a few roles.
	menu := func(role string) string {
		b := f.browser(t, role)
		b.header.Set("Accept", browserAccept)
		rec := b.do("GET", "/nada", nil)
		if rec.Code != 404 {
			t.Fatalf("GET /nada as %s: %d", role, rec.Code)
		}
		return strings.Join(hrefs(t, menuNav, rec.Body.String()), " ")
	}
	for _, tc := range []struct {
		role      string
		sees, not []string
	}{
		{"clerk", []string{"/painel", "/processos", "/distribuicao", "/audiencias", "/feriados", "/impedidos"}, []string{"/processos/novo", "/admin/usuarios", "/clube", "/torcida"}},
		{"judge", []string{"/processos", "/distribuicao", "/feriados"}, []string{"/processos/novo", "/admin/auditoria"}},
		{"prosecutor", []string{"/processos", "/processos/novo", "/audiencias"}, []string{"/feriados", "/distribuicao"}},
		{"club", []string{"/clube", "/impedidos"}, []string{"/painel", "/processos", "/torcida"}},
		{"fan_group", []string{"/torcida", "/torcida/importar", "/torcida/exportar.csv"}, []string{"/processos", "/clube"}},
		{"admin", []string{"/admin/usuarios", "/admin/papeis", "/admin/juizados", "/admin/auditoria"}, []string{"/processos", "/feriados"}},
	} {
		got := " " + menu(tc.role) + " "
		for _, p := range tc.sees {
			if !strings.Contains(got, " "+p+" ") {
				t.Errorf("%s's menu %s lacks %s", tc.role, got, p)
			}
		}
		for _, p := range tc.not {
			if strings.Contains(got, " "+p+" ") {
				t.Errorf("%s's menu %s shows %s", tc.role, got, p)
			}
		}
	}
	// The judge's own wording.
	if rec := f.browser(t, "judge").do("GET", "/painel", nil); !strings.Contains(rec.Body.String(), ">Meus processos</a>") {
		t.Errorf("the judge's menu does not say Meus processos")
	}
}

// Every menu item is a GET page route of the server.
func TestMenuItemsArePages(t *testing.T) {
	f := newFixture(t)
	routes := routesOf(f.srv)
	for _, it := range templates.Menu {
		if !slices.Contains(routes, "GET "+it.Path) || strings.HasPrefix(it.Path, "/api/") {
			t.Errorf("menu item %s is no GET page route", it.Path)
		}
	}
}
