package authz

import (
	"context"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	"github.com/casbin/casbin/v2/persist"
	gormadapter "github.com/casbin/gorm-adapter/v3"
	"github.com/juizado/juizado/internal/accounts"
	"gorm.io/gorm"
)

// SkippedRule is a row of casbin_rule that the enforcer did not load (issue
// 32, item 5: one bad row no longer stops the policy): the row named by its
// content, as "ptype, v0, v1, v2, v3[, v4, v5]" (never by its id, which
// differs between copies of a database), and why it was skipped.
type SkippedRule struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}

// guard is the enforcer's adapter: gorm-adapter's for every write (AddPolicy,
// RemovePolicy, ...), and a LoadPolicy of its own that loads the rows of
// the model's shape and skips, and reports, every other one (a row of an
// unknown type or role, a malformed domain, a wildcard where the model has
// none, a row the model refuses). gorm-adapter's LoadPolicy stops at the
// first bad row, which left every server on its last policy (later grants
// and revocations without effect) and a new server unable to start.
type guard struct {
	*gormadapter.Adapter
	db *gorm.DB

	mu       sync.Mutex
	skipped  []SkippedRule // by the last load
	reported []SkippedRule // in the last line logged
	log      *slog.Logger  // nil until Watch gives one
}

var (
	courtDomain  = regexp.MustCompile(`^[0-9]{2}\.[0-9]{4}$`)
	groupDomain  = regexp.MustCompile(`^group:[1-9][0-9]*$`)
	clubDomain   = regexp.MustCompile(`^club:[^*\s][^*]*$`)
	routeShape   = regexp.MustCompile(`^/[^*\s]*$`)
	knownMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}
)

// ruleProblem says why a row of casbin_rule (ptype, v0..v5, NULL read as
// "") does not fit the model (model.conf: p = sub, dom, obj, act), or ""
// when it fits: the same rules as the table's constraint casbin_rule_shape
// (migration 00130), less the existence of the domain (a rule for an
// unknown court matches no one, and is harmless).
func ruleProblem(r []string) string {
	switch {
	case r[0] != "p":
		return "tipo de linha desconhecido (o modelo só tem regras \"p\")"
	case !accounts.IsRole(r[1]):
		return "perfil desconhecido"
	case r[2] != accounts.AnyDomain && !courtDomain.MatchString(r[2]) && !groupDomain.MatchString(r[2]) && !clubDomain.MatchString(r[2]):
		return "domínio inválido (código do juizado, group:ID, club:NOME ou *)"
	case !routeShape.MatchString(r[3]):
		return "rota inválida (modelo de rota do Echo, sem * nem espaços)"
	case !slices.Contains(knownMethods, r[4]):
		return "método HTTP desconhecido"
	case r[5] != "" || r[6] != "":
		return "campos além de perfil, domínio, rota e método"
	}
	return ""
}

// LoadPolicy loads the rows of casbin_rule that fit the model into m, in
// id order, and records the others (Skipped); it fails only when the table
// cannot be read.
func (a *guard) LoadPolicy(m model.Model) error { return a.LoadPolicyCtx(context.Background(), m) }

// LoadPolicyCtx is LoadPolicy under ctx.
func (a *guard) LoadPolicyCtx(ctx context.Context, m model.Model) error {
	rows, err := a.db.WithContext(ctx).Raw(`SELECT coalesce(ptype, ''), coalesce(v0, ''), coalesce(v1, ''), coalesce(v2, ''),
		coalesce(v3, ''), coalesce(v4, ''), coalesce(v5, '') FROM casbin_rule ORDER BY id`).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	var skipped []SkippedRule
	for rows.Next() {
		r := make([]string, 7)
		if err := rows.Scan(&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6]); err != nil {
			return err
		}
		why := ruleProblem(r)
		if why == "" {
			if err := persist.LoadPolicyArray(r[:5], m); err != nil {
				why = "recusada pelo modelo: " + err.Error()
			}
		}
		if why != "" {
			skipped = append(skipped, SkippedRule{Rule: ruleText(r), Reason: why})
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	a.setSkipped(skipped)
	return nil
}

// ruleText writes a row as the policy file does, "p, role, domain, route,
// method", with v4 and v5 when they hold anything.
func ruleText(r []string) string {
	n := len(r)
	for n > 5 && r[n-1] == "" {
		n--
	}
	return strings.Join(r[:n], ", ")
}

// setSkipped records the rows skipped by the last load, and reports the
// set when it changed (report).
func (a *guard) setSkipped(s []SkippedRule) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.skipped = s
	a.report()
}

// setLog makes log the logger of the report (Watch gives the server's), and
// reports the set of skipped rows if it was not yet.
func (a *guard) setLog(log *slog.Logger) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.log = log
	a.report()
}

// report writes one line when the set of skipped rows differs from the
// last one reported: a warning naming every skipped row, or, once none is
// left, an info line. Without a logger yet it waits (setLog). a.mu is
// held.
func (a *guard) report() {
	if a.log == nil || slices.Equal(a.skipped, a.reported) {
		return
	}
	a.reported = a.skipped
	if len(a.skipped) == 0 {
		a.log.Info("policy: every casbin_rule row loads again")
		return
	}
	rules := make([]string, len(a.skipped))
	for i, r := range a.skipped {
		rules[i] = r.Rule + " (" + r.Reason + ")"
	}
	a.log.Warn("policy: casbin_rule rows skipped", "count", len(a.skipped), "rules", rules)
}

// Skipped returns the rows of casbin_rule that e's last load of the policy
// skipped (SkippedRule; in id order), none when every row loaded or e was
// not made by Open. The server reports them in /readyz (status
// "degraded") and as the metric juizado_policy_rules_skipped.
func Skipped(e *casbin.SyncedEnforcer) []SkippedRule {
	a, ok := e.GetAdapter().(*guard)
	if !ok {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.skipped)
}
