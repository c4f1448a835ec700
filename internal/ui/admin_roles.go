package ui

import (
	"net/http"
	"sort"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

type roleRules struct {
	Role  string
	Rules []string
}

// rolesData is the roles page's data: each role's rules, and the rows of
// casbin_rule the policy skipped (Server.PolicySkipped).
type rolesData struct {
	Roles   []roleRules
	Skipped []authz.SkippedRule
}

// rolesPage: GET /admin/papeis — what each role may do (the base policy and
// the rules added in the database), and the rows of casbin_rule skipped
// because they do not fit the policy's model (issue 32, item 5).
func (s *UI) rolesPage(c echo.Context) error {
	rules, err := s.Deps.Enforcer.GetPolicy()
	if err != nil {
		return err
	}
	by := map[string][]string{}
	for _, r := range rules {
		if len(r) >= 4 {
			dom := ""
			if r[1] != accounts.AnyDomain {
				dom = " (só em " + r[1] + ")"
			}
			by[r[0]] = append(by[r[0]], r[3]+" "+r[2]+dom)
		}
	}
	var out []roleRules
	for _, role := range accounts.Roles {
		rs := by[role]
		sort.Strings(rs)
		out = append(out, roleRules{Role: role, Rules: rs})
	}
	return s.Page(c, http.StatusOK, "admin_papeis", server.Page{Title: "Perfis", Data: rolesData{Roles: out, Skipped: s.PolicySkipped()}})
}
