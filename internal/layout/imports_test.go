// Package layout holds tests of the module's shape as a whole (no code):
// which packages the domain may depend on.
package layout

import (
	"os/exec"
	"strings"
	"testing"
)

// domain are the packages of the law and its records: they know nothing
// of HTTP, PDF or the access policy (README "Layout"). The court's two
// registries are registry (the member register and the groups) and
// registry/blocklist (the list of banned fans, its feed and its keys).
var domain = []string{"github.com/juizado/juizado/cases", "github.com/juizado/juizado/registry",
	"github.com/juizado/juizado/registry/blocklist", "github.com/juizado/juizado/sanctions"}

// forbidden are the module prefixes the domain must not reach, even
// indirectly, with why.
var forbidden = map[string]string{
	"github.com/labstack/echo":                  "HTTP belongs to internal/server, internal/api and internal/ui",
	"github.com/jung-kurt/gofpdf":               "PDF belongs to internal/pdf",
	"github.com/casbin/":                        "the access policy belongs to internal/authz",
	"github.com/juizado/juizado/internal/authz": "the access policy is the HTTP server's",
}

// Issue 18: the domain's import graph has no Echo, gofpdf or Casbin — cases,
// registry and sanctions use users and actors (internal/accounts) but not the
// Casbin policy (internal/authz), which only the HTTP server,
// cmd/juizado and tests import. The graph is the one the go tool builds
// (go list -deps, tests excluded).
func TestDomainImportsNoHTTPPDFOrCasbin(t *testing.T) {
	args := append([]string{"list", "-deps"}, domain...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps printed %d packages, want the whole graph", len(deps))
	}
	found := map[string]bool{}
	for _, d := range deps {
		found[d] = true
		for prefix, why := range forbidden {
			if strings.HasPrefix(d, prefix) {
				t.Errorf("the domain (%s) depends on %s: %s", strings.Join(domain, ", "), d, why)
			}
		}
	}
	// The walk reached the domain and what it is allowed to use.
	for _, want := range append(domain, "github.com/juizado/juizado/internal/accounts", "gorm.io/gorm") {
		if !found[want] {
			t.Errorf("go list -deps of the domain lacks %s", want)
		}
	}
}

// noDatabase are the packages that must not import gorm (nor database/sql)
// themselves: the HTTP handlers reach the data through the application's
// services (internal/app), never with a database handle of their own, and
// sanctions is the pure rules, whose SQL conditions are run by the readers
// of table bans (issue 27, items 3 and 5).
var noDatabase = []string{
	"github.com/juizado/juizado/internal/api",
	"github.com/juizado/juizado/internal/ui",
	"github.com/juizado/juizado/internal/server",
	"github.com/juizado/juizado/sanctions",
}

// Issue 27: internal/api, internal/ui, internal/server and sanctions
// import no gorm nor database/sql: each handler calls a service of the
// application (internal/app), which holds the one database handle, and
// the rules run no query. The imports are the go tool's (go list,
// tests excluded).
func TestHTTPPackagesImportNoGorm(t *testing.T) {
	args := append([]string{"list", "-f", `{{.ImportPath}} {{join .Imports " "}}`}, noDatabase...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(noDatabase) {
		t.Fatalf("go list printed %d packages, want %d", len(lines), len(noDatabase))
	}
	for _, line := range lines {
		f := strings.Fields(line)
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, "gorm.io/") || imp == "database/sql" {
				t.Errorf("%s imports %s: the HTTP packages call the application's services (internal/app); sanctions runs no query", f[0], imp)
			}
		}
	}
}

// gateFree are the packages the gate agent is built from: the agent runs
// at a stadium with no database, so neither it nor the wire shapes it
// shares with the court (registry/blocklist/wire) may reach database code.
var gateFree = []string{"github.com/juizado/juizado/registry/gate", "github.com/juizado/juizado/registry/blocklist/wire"}

// databaseCode are the import paths (prefixes) of database code: GORM, pgx,
// the module's database helpers, and the court's registries, which hold
// the SQL (registry/blocklist/wire is allowed: it has none).
var databaseCode = []string{"gorm.io/", "github.com/jackc/", "github.com/juizado/juizado/internal/db",
	"github.com/juizado/juizado/registry/blocklist"}

// Issue 27, item 2: the gate agent and the blocklist's wire shapes depend
// on no database code, nor on the court's packages that hold the SQL; the
// wire package is what both sides import.
func TestGateAgentHasNoDatabaseCode(t *testing.T) {
	args := append([]string{"list", "-deps"}, gateFree...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	found := map[string]bool{}
	for _, d := range strings.Fields(string(out)) {
		found[d] = true
		if d == "github.com/juizado/juizado/registry/blocklist/wire" {
			continue
		}
		for _, prefix := range databaseCode {
			if strings.HasPrefix(d, prefix) {
				t.Errorf("the gate agent (%s) depends on %s: it runs without a database", strings.Join(gateFree, ", "), d)
			}
		}
		if d == "github.com/juizado/juizado/registry" {
			t.Errorf("the gate agent depends on registry: it runs without a database")
		}
	}
	for _, want := range gateFree {
		if !found[want] {
			t.Errorf("go list -deps of the gate agent lacks %s", want)
		}
	}
}

// siblings are the two HTTP packages over the server core: each must not
// import the other (issue 27, item 4: api.New and ui.New are siblings over
// internal/server and the application; what both serve is the core's).
var siblings = map[string]string{
	"github.com/juizado/juizado/internal/ui":  "github.com/juizado/juizado/internal/api",
	"github.com/juizado/juizado/internal/api": "github.com/juizado/juizado/internal/ui",
}

// Issue 27, item 4: internal/ui imports nothing of internal/api, and
// internal/api nothing of internal/ui, directly or through another package
// (go list -deps, tests excluded).
func TestHTTPPackagesAreSiblings(t *testing.T) {
	for pkg, other := range siblings {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 20 {
			t.Fatalf("go list -deps %s printed %d packages, want the whole graph", pkg, len(deps))
		}
		reached := false
		for _, d := range deps {
			if d == "github.com/juizado/juizado/internal/server" {
				reached = true
			}
			if d == other || strings.HasPrefix(d, other+"/") {
				t.Errorf("%s depends on %s: the HTTP packages are siblings over internal/server", pkg, d)
			}
		}
		if !reached {
			t.Errorf("go list -deps %s lacks internal/server, the core both build on", pkg)
		}
	}
}
