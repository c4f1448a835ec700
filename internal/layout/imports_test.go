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

// noDatabase are the packages that must not import gorm themselves: the
// HTTP handlers reach the data through the application's services
// (internal/app), never with a database handle of their own (issue 27).
var noDatabase = []string{
	"github.com/juizado/juizado/internal/api",
	"github.com/juizado/juizado/internal/ui",
	"github.com/juizado/juizado/internal/server",
}

// Issue 27: internal/api, internal/ui and internal/server import no gorm:
// each handler calls a service of the application (internal/app), which
// holds the one database handle. The imports are the go tool's (go list,
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
				t.Errorf("%s imports %s: the HTTP packages call the application's services (internal/app)", f[0], imp)
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
