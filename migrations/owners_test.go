package migrations

import (
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The table owners are listed once, in the README's "Tables and their
// owners" (lines "- `package`: table, table, ..."); this test reads them
// there.
const readme = "../README.md"

// webPackages are the packages of the HTTP server: internal/web (the
// assembly), the server core, the JSON API, the HTML pages and their
// forms. An owner "internal/web" in the README is any of them.
var webPackages = []string{"internal/web", "internal/server", "internal/api", "internal/ui", "internal/ui/form"}

// notOwner lists the SQL that still runs outside its table's owner, each
// with the reason; a new one fails the test. Keys are "package table"; the
// web packages are written "web".
var notOwner = map[string]string{
	// The blocklist and its feed (registry/blocklist: lists.go, feed.go)
	// read bans and cases in SQL for the published list, with the "in
	// force on a day" rule of sanctions (InForceCond).
	"registry/blocklist bans":  "blocklist and feed queries (registry/blocklist/lists.go, feed.go)",
	"registry/blocklist cases": "public list filter by home club (registry/blocklist/lists.go)",
	// registry/blocklist cannot import cases (cases imports it): a ban's
	// scope by club reads the imported schedule.
	"registry/blocklist matches": "scope by club reads the schedule (registry/blocklist/scope.go, and entryScopeSQL in feed.go)",
	// The blocklist entry of a ban scoped to clubs carries the names of the
	// clubs' home venues (entryScopeSQL), in the same query as the schedule.
	"registry/blocklist venues": "a club scope's venues written into its blocklist entry (registry/blocklist/feed.go)",
	// Subqueries naming a group's court: audit and authz cannot import
	// registry, which imports them.
	"internal/audit fan_groups":    "audit reads of a court include its groups' domains",
	"internal/accounts fan_groups": "the users of a court include its groups' managers",
}

// generators write every table directly, by design: the benchmark data
// (COPY for millions of rows).
var generators = map[string]bool{"cmd/juizado/seed_scale.go": true}

// webQueries is the one file of the HTTP packages that queries the
// database itself: the server's session store purge (table sessions, owned
// by internal/server). Every other read or write of a page or endpoint goes
// through the table's owner.
const webQueries = "internal/server/session.go"

var (
	gormCall    = regexp.MustCompile(`\.(Raw|Exec|Table|Model|Where|Find|First|Take|Order|Create|Save|Delete|Updates?)\(`)
	createTable = regexp.MustCompile(`(?i)\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?([a-z_]+)`)
	ownerLine   = regexp.MustCompile("^- `([a-z/]+)`: ([a-z_, ]+)\\.?$")
	tableName   = regexp.MustCompile(`TableName\(\) string\s*\{\s*return "([a-z_]+)"`)
)

// readOwners returns the owner of each table from the README.
func readOwners(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "### Tables and their owners\n")
	if !ok {
		t.Fatal(`README.md has no "### Tables and their owners" section`)
	}
	owners := map[string]string{}
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		m := ownerLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		for _, tbl := range strings.Split(m[2], ",") {
			tbl = strings.TrimSpace(tbl)
			if prev, dup := owners[tbl]; dup {
				t.Errorf("README: table %s has two owners, %s and %s", tbl, prev, m[1])
			}
			owners[tbl] = m[1]
		}
	}
	return owners
}

// tables returns the tables the migrations create.
func tables(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.sql")
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range createTable.FindAllStringSubmatch(string(b), -1) {
			set[strings.ToLower(m[1])] = true
		}
	}
	var out []string
	for tbl := range set {
		out = append(out, tbl)
	}
	sort.Strings(out)
	return out
}

// literals returns the string literals of a Go source, where its SQL is.
func literals(src []byte) []string {
	var s scanner.Scanner
	fs := token.NewFileSet()
	s.Init(fs.AddFile("", fs.Base(), len(src)), src, nil, 0)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.STRING {
			out = append(out, lit)
		}
	}
}

// partBelow reports whether a file of package pkg, a part of cases, may
// name a table of owner: owner is a part of cases too (cases itself or
// cases/...) that the file's package imports. The parts of cases are layered (cases;
// calendar and schedule; decisions; execution; casefile), each importing
// only the ones below it, and a part's queries join the tables of the
// parts it hangs from (a sentence's case and defendant, a ban's case); the
// tables of a part above it, or of a part it does not import, stay
// forbidden.
func partBelow(src []byte, pkg, owner string) bool {
	inCases := func(p string) bool { return p == "cases" || strings.HasPrefix(p, "cases/") }
	if !inCases(pkg) || !inCases(owner) {
		return false
	}
	imports := func(src []byte) bool {
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
		if err != nil {
			return false
		}
		for _, is := range f.Imports {
			if strings.Trim(is.Path.Value, `"`) == module+"/"+owner {
				return true
			}
		}
		return false
	}
	if imports(src) {
		return true
	}
	// Go's dependencies are the package's: another file of pkg importing
	// the owner makes pkg a part below it.
	files, _ := filepath.Glob(filepath.Join("..", filepath.FromSlash(pkg), "*.go"))
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if b, err := os.ReadFile(name); err == nil && imports(b) {
			return true
		}
	}
	return false
}

// module is the Go module path of the tree.
const module = "github.com/juizado/juizado"

func isWeb(pkg string) bool {
	for _, w := range webPackages {
		if pkg == w {
			return true
		}
	}
	return false
}

// Issue 18, item 2: every table has one owning package, which holds its
// SQL; the other packages call it. Every table the migrations create has an
// owner in the README, and no Go code outside the owner names the table
// in SQL (FROM, JOIN, INTO, UPDATE, TABLE, or a GORM TableName), but for
// the exceptions listed in notOwner; the HTTP packages make no GORM query
// but in webQueries.
func TestEveryTableHasOneOwnerThatHoldsItsSQL(t *testing.T) {
	owners := readOwners(t)
	all := tables(t)
	if len(all) < 40 {
		t.Fatalf("found %d tables in the migrations, want the schema's 40 or more", len(all))
	}
	sqlRef := map[string]*regexp.Regexp{}
	for _, tbl := range all {
		if owners[tbl] == "" {
			t.Errorf("table %s has no owner in README.md \"Tables and their owners\"", tbl)
		}
		sqlRef[tbl] = regexp.MustCompile(`(?i)\b(from|join|into|update|table)\s+"?` + tbl + `\b`)
	}
	for tbl, pkg := range owners {
		if _, ok := sqlRef[tbl]; !ok {
			t.Errorf("README.md names table %s (owner %s), which no migration creates", tbl, pkg)
		}
	}
	used := map[string]bool{}
	seen := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || rel == "bench") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || generators[rel] {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seen++
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if isWeb(pkg) && rel != webQueries {
			if m := gormCall.Find(src); m != nil {
				t.Errorf("%s: query %s in the HTTP packages: call the table's owner instead", rel, m)
			}
		}
		var refs []string
		for _, m := range tableName.FindAllStringSubmatch(string(src), -1) {
			refs = append(refs, m[1])
		}
		for _, lit := range literals(src) {
			for tbl, re := range sqlRef {
				if re.MatchString(lit) {
					refs = append(refs, tbl)
				}
			}
		}
		for _, tbl := range refs {
			owner := owners[tbl]
			if owner == pkg || (owner == "internal/web" && isWeb(pkg)) || partBelow(src, pkg, owner) {
				continue
			}
			key := pkg + " " + tbl
			if isWeb(pkg) {
				key = "web " + tbl
			}
			if _, ok := notOwner[key]; ok {
				used[key] = true
				continue
			}
			t.Errorf("%s: SQL on table %s, whose owner is %s: call the owner instead", rel, tbl, owner)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("read %d Go files, want the whole tree", seen)
	}
	for key, why := range notOwner {
		if !used[key] {
			t.Logf("exception %q (%s) is no longer needed: remove it from notOwner", key, why)
		}
	}
}
