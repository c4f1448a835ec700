// Package authz is the authorization: the Casbin policy that decides what each role may call,
// pages and API alike (DOMAIN.md §7, ../shared/API.md "Tokens and roles"):
// the model (model.conf, subject role, domain, route template, method) and
// the base policy (policy.csv) embedded here, the rules in the database
// (table casbin_rule, through the gorm adapter), the one check of a request
// (Allowed) with its short-lived cache (Decider), and the watcher that keeps
// every server instance's enforcer in step with the table (Watch).
//
// Only the HTTP server (internal/server), cmd/juizado and tests import it:
// the users and actors of the domain are in internal/accounts, without Casbin.
// It owns the casbin_rule table.
package authz

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	gormadapter "github.com/casbin/gorm-adapter/v3"
	"github.com/juizado/juizado/internal/accounts"
	"gorm.io/gorm"
)

//go:embed model.conf
var modelText string

//go:embed policy.csv
var basePolicy []byte

// Open returns a Casbin enforcer on the database's casbin_rule table,
// after adding the embedded base policy rules that the table lacks, except
// those removed from it (table casbin_rule_removed, migration 00131). Rows
// of the table that do not fit the model are skipped (Skipped), never
// fatal.
func Open(ctx context.Context, g *gorm.DB) (*casbin.SyncedEnforcer, error) {
	m, err := model.NewModelFromString(modelText)
	if err != nil {
		return nil, fmt.Errorf("policy: model: %w", err)
	}
	handle := g.Session(&gorm.Session{NewDB: true}).WithContext(ctx)
	gormadapter.TurnOffAutoMigrate(handle)
	ga, err := gormadapter.NewAdapterByDB(handle)
	if err != nil {
		return nil, fmt.Errorf("policy: adapter: %w", err)
	}
	// Rows that do not fit the model are skipped and reported (guard), not
	// fatal.
	e, err := casbin.NewSyncedEnforcer(m, &guard{Adapter: ga, db: handle})
	if err != nil {
		return nil, fmt.Errorf("policy: enforcer: %w", err)
	}
	// The base policy is the floor: rules a release adds reach databases
	// seeded by an earlier one; rules added in the database are kept; base
	// rules removed from the database stay removed (removedRules).
	rules, err := Base()
	if err != nil {
		return nil, err
	}
	removed, err := removedRules(handle)
	if err != nil {
		return nil, fmt.Errorf("policy: reading the removed rules: %w", err)
	}
	rules = slices.DeleteFunc(rules, func(r []string) bool { return removed[strings.Join(r, "\x1f")] })
	if len(rules) == 0 {
		return e, nil
	}
	if _, err := e.AddPoliciesEx(rules); err != nil {
		return nil, fmt.Errorf("policy: seeding the base policy: %w", err)
	}
	return e, nil
}

// removedRules returns the rules removed from casbin_rule (migration
// 00131's record, kept by a trigger on every DELETE or UPDATE, cleared when
// the rule is added again), each as role, domain, route and method joined
// by the unit separator (0x1f).
func removedRules(g *gorm.DB) (map[string]bool, error) {
	var keys []string
	err := g.Raw(`SELECT concat_ws(chr(31), v0, v1, v2, v3) FROM casbin_rule_removed`).Scan(&keys).Error
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, err
}

// Base returns the embedded base policy rules as [role, domain,
// route, method]. A line is "p, role, domain, route, method", domain "*"
// for every domain; a line of three fields (the format before domains,
// "p, role, route, method") is read as applying to every domain.
func Base() ([][]string, error) {
	var rules [][]string
	sc := bufio.NewScanner(bytes.NewReader(basePolicy))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if f[0] != "p" || (len(f) != 4 && len(f) != 5) {
			return nil, fmt.Errorf("policy: bad policy line %q", line)
		}
		if len(f) == 4 {
			f = []string{"p", f[1], accounts.AnyDomain, f[2], f[3]}
		}
		for _, x := range f {
			if x == "" {
				return nil, fmt.Errorf("policy: bad policy line %q", line)
			}
		}
		if !accounts.IsRole(f[1]) {
			return nil, fmt.Errorf("policy: policy line %q: unknown role %q", line, f[1])
		}
		rules = append(rules, f[1:])
	}
	return rules, sc.Err()
}

// Allowed makes the one check of a request: may the user's role, in the
// user's domain, call the route template with the method?
func Allowed(e *casbin.SyncedEnforcer, u accounts.User, route, method string) (bool, error) {
	return allowedIn(e, u.Role, u.Domain(), route, method)
}

// allowedIn is Allowed for a role in a domain (accounts.User.Domain).
func allowedIn(e *casbin.SyncedEnforcer, role, domain, route, method string) (bool, error) {
	return e.Enforce(role, domain, route, method)
}
