package web_test

import (
	"context"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/internal/web"
)

// policyRefusal is what authorize (internal/server/authorize.go) answers when the
// Casbin policy refuses a signed-in user (page) or a token (API).
var policyRefusal = regexp.MustCompile(`não tem (acesso a esta página|permissão para esta operação)`)

// asRole calls route rt as role: with the role's token on the API, with the
// role's signed-in browser on a page.
func (f *fixture) asRole(t *testing.T, rt, role string) *httptest.ResponseRecorder {
	t.Helper()
	method, path, _ := strings.Cut(rt, " ")
	if strings.HasPrefix(path, "/api/") {
		return f.call(method, concrete(path), f.tokens[role])
	}
	return f.browser(t, role).do(method, concrete(path), nil)
}

// Authorization in one place: every route is registered
// with its permission on its route line (server.Anyone, the Public set, or
// server.Policy); every route × role refusal comes from the Casbin policy
// (authorize's message); and with a policy that grants every role every
// route, no role is refused anywhere, so no role list in Go decides.
func TestPolicyAloneDecidesEveryRouteAndRole(t *testing.T) {
	f := newFixture(t)
	routes := routesOf(f.srv)
	sort.Strings(routes)
	var protected []string
	for _, rt := range routes {
		perm, ok := f.srv.Permission(rt)
		switch {
		case !ok:
			t.Errorf("route %s was registered without a permission", rt)
		case perm == server.Anyone:
			if !f.srv.IsPublic(rt) {
				t.Errorf("route %s: Anyone but not in the Public set", rt)
			}
		case perm == server.Policy:
			if f.srv.IsPublic(rt) {
				t.Errorf("route %s: Policy but in the Public set", rt)
			}
			protected = append(protected, rt)
		default:
			t.Errorf("route %s: unknown permission %q", rt, perm)
		}
	}
	allowed := map[string]bool{} // role + " " + route
	for _, r := range f.rules {
		if r[1] == accounts.AnyDomain || r[1] == f.users[r[0]].Domain() {
			allowed[r[0]+" "+r[3]+" "+r[2]] = true
		}
	}
	for _, rt := range protected {
		for _, role := range accounts.Roles {
			rec := f.asRole(t, rt, role)
			refused := rec.Code == 403 && policyRefusal.MatchString(rec.Body.String())
			if allowed[role+" "+rt] == refused {
				t.Errorf("base policy, %s as %s: %d %.120s; policy allows: %v", rt, role, rec.Code, rec.Body, allowed[role+" "+rt])
			}
		}
	}

	// Every role granted every protected route: authorization lets all pass.
	enf, err := authz.Open(context.Background(), f.g)
	if err != nil {
		t.Fatal(err)
	}
	enf.EnableAutoSave(false) // in memory only
	for _, rt := range protected {
		method, path, _ := strings.Cut(rt, " ")
		for _, role := range accounts.Roles {
			if _, err := enf.AddPolicy(role, accounts.AnyDomain, path, method); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.srv = testenv.MustServer(t, f.g, testenv.With(func(d *web.Deps) { d.Enforcer = enf }))
	f.sessions = map[string]*browser{}
	// Role by role, admin first: the admin pages other roles now reach
	// disable user 1 (the admin) when their turn comes. A service may still
	// refuse with its own rule (who identifies a defendant, who files a
	// group): that is the domain's 403, not authorization's.
	for _, role := range accounts.Roles {
		for _, rt := range protected {
			if rec := f.asRole(t, rt, role); rec.Code == 401 || policyRefusal.MatchString(rec.Body.String()) {
				t.Errorf("granted every route, %s as %s: %d %.160s", rt, role, rec.Code, rec.Body)
			}
		}
	}
}
