package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// The administrator's pages: users (list, create with a password, disable,
// enable), the roles and what each may do (the Casbin policy), the courts
// with their settings (§ 7º reading, publication by default) and the audit
// trail of the administrator's court.

type usersData struct {
	Users  []accounts.User
	Courts []cases.Court
	Roles  []string
	// Groups are the court's fan groups (the manager's group is chosen by
	// name); GroupNames and CourtNames name a user's domain in the list.
	Groups     []registry.GroupView
	GroupNames map[int64]string
	CourtNames map[string]string
}

// Where names the domain of u in words: its court's or group's name, or
// "clube NAME".
func (d usersData) Where(u accounts.User) string {
	switch {
	case u.CourtCode != nil:
		return d.CourtNames[*u.CourtCode]
	case u.GroupID != nil:
		return d.GroupNames[*u.GroupID]
	case u.Club != nil:
		return "clube " + *u.Club
	}
	return ""
}

// courts returns the administrator's court: an admin belongs to one court
// and manages only it (DOMAIN.md §7); new courts are created by the
// operator (juizado user create --court TR.OOOO --create-court).
func (s *UI) courts(c echo.Context) ([]cases.Court, error) {
	court, err := s.Cases.Case.Court(c.Request().Context(), server.Actor(c).Court)
	if errs.KindOf(err) == errs.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []cases.Court{*court}, nil
}

// adminRoles are the roles a court's admin gives: the court's staff and the
// managers of its fan groups (club accounts are national: the operator
// creates them with juizado user create --role club).
var adminRoles = []string{"admin", "clerk", "judge", "prosecutor", "police", "fan_group"}

// usersPage: GET /admin/usuarios.
func (s *UI) usersPage(c echo.Context) error {
	return s.renderUsers(c, http.StatusOK, server.Page{Form: url.Values{"court": {server.Actor(c).Court}}})
}

func (s *UI) renderUsers(c echo.Context, status int, p server.Page) error {
	us, err := s.App.Accounts.ListCourtUsers(c.Request().Context(), server.Actor(c).Court)
	if err != nil {
		return err
	}
	cs, err := s.courts(c)
	if err != nil {
		return err
	}
	gs, err := s.App.Groups.ListGroups(c.Request().Context(), server.Actor(c))
	if err != nil {
		return err
	}
	d := usersData{Users: us, Courts: cs, Roles: adminRoles, Groups: gs, GroupNames: map[int64]string{}, CourtNames: map[string]string{}}
	for _, g := range gs {
		d.GroupNames[g.ID] = g.Name
	}
	for _, c := range cs {
		d.CourtNames[c.Code] = c.Name
	}
	p.Title = "Usuários"
	p.Data = d
	return s.Page(c, status, "admin_usuarios", p)
}

// createUserPage: POST /admin/usuarios (name, full_name, title, role,
// court | group, senha, senha2): a user of the admin's court only (its staff, or a manager of one
// of its fan groups); another court, or a group of another court, is refused
// with the message of an unknown one.
func (s *UI) createUserPage(c echo.Context) error {
	ctx := c.Request().Context()
	own := server.Actor(c).Court
	var f errs.Fields
	spec := accounts.UserSpec{Name: textcheck.Line(c.FormValue("name")), Role: c.FormValue("role")}
	if rule, msg := textcheck.Problem(spec.Name, 200, false); rule != "" {
		f.Add("name", rule, msg)
	} else if spec.Name == "" {
		f.Add("name", "required", "Informe o nome de usuário.")
	}
	for _, fl := range []struct {
		name string
		dst  *string
	}{{"full_name", &spec.FullName}, {"title", &spec.Title}} {
		clean, rule, msg := accounts.CheckPersonText(c.FormValue(fl.name))
		if rule != "" {
			f.Add(fl.name, rule, msg)
		}
		*fl.dst = clean
	}
	if !slices.Contains(adminRoles, spec.Role) {
		f.Add("role", "oneof", "Escolha um perfil deste juizado (contas de clube são criadas por quem opera o sistema).")
	}
	switch {
	case accounts.IsStaff(spec.Role):
		spec.Court = c.FormValue("court")
		if spec.Court == "" {
			spec.Court = own
		}
		if spec.Court != own {
			f.Add("court", "own_court", "Escolha o juizado "+own+": o administrador cadastra usuários do seu juizado.")
		}
	case spec.Role == "fan_group":
		spec.Group, _ = strconv.ParseInt(strings.TrimSpace(c.FormValue("group")), 10, 64)
		if spec.Group <= 0 {
			f.Add("group", "required", "Escolha a torcida organizada.")
		} else {
			g, err := s.App.Groups.CourtGroup(ctx, own, spec.Group)
			if err != nil {
				return err
			}
			if g == nil {
				f.Add("group", "exists", "Torcida escolhida não encontrada entre as torcidas cadastradas neste juizado.")
			}
		}
	}
	pw := c.FormValue("senha")
	if err := accounts.CheckPasswordLength(pw); err != nil {
		f.Add("senha", "length", fmt.Sprintf("A senha deve ter de %d a %d caracteres.", accounts.MinPasswordLen, accounts.MaxPasswordLen))
	} else if pw != c.FormValue("senha2") {
		f.Add("senha2", "match", "As senhas não conferem.")
	}
	if spec.Name != "" {
		if _, err := s.App.Accounts.FindUser(ctx, spec.Name); err == nil {
			f.Add("name", "unique", "Já existe um usuário com este nome.")
		}
	}
	fail := func(err error) error {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		vals := formOf(c)
		vals.Del("senha")
		vals.Del("senha2")
		return s.renderUsers(c, status, server.Page{Form: vals, Errs: fields, Error: msg})
	}
	if err := f.Err(); err != nil {
		return fail(err)
	}
	u, _, n, err := s.App.AddUser(ctx, spec, pw)
	if errors.Is(err, accounts.ErrInvalidUser) {
		return fail(errs.InvalidField("role", "domain", "O juizado ou a torcida informados não existem."))
	}
	if err != nil {
		return err
	}
	msg := "Usuário " + u.DisplayName() + " criado (" + server.RoleLabel(u.Role) + ")."
	if n > 0 {
		msg += fmt.Sprintf(" %d processo(s) pendente(s) distribuído(s).", n)
	}
	s.flash(c, msg)
	return redirect(c, "/admin/usuarios")
}

// setUserDisabled: POST /admin/usuarios/:id/desativar and /ativar.
func (s *UI) setUserDisabled(disabled bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := server.IDParam(c, "Usuário")
		if err != nil {
			return s.pageFail(c, err)
		}
		if id == pageUser(c).ID {
			return s.PageError(c, http.StatusUnprocessableEntity, "Você não pode desativar a própria conta.")
		}
		u, ok, err := s.App.Accounts.CourtUser(c.Request().Context(), server.Actor(c).Court, id)
		if err != nil {
			return err
		}
		if !ok { // unknown, or of another court: the same answer
			return s.PageError(c, http.StatusNotFound, "Usuário não encontrado.")
		}
		if err := s.InTx(c, func(ctx context.Context) error {
			_, err := s.App.Accounts.SetDisabled(ctx, u.Name, disabled, s.Now())
			return err
		}); err != nil {
			return err
		}
		s.ForgetUser(u.ID)
		if disabled {
			s.flash(c, "Usuário "+u.Name+" desativado: seus tokens e sessões deixam de valer.")
		} else {
			s.flash(c, "Usuário "+u.Name+" reativado.")
		}
		return redirect(c, "/admin/usuarios")
	}
}

// resetPasswordPage: POST /admin/usuarios/:id/senha (senha, senha2): the
// admin gives a user of the court a new password (10 to 200 characters,
// typed twice), which the person then uses to sign in (issue 30, item 4). Unknown, or of another court: 404, the same
// answer.
func (s *UI) resetPasswordPage(c echo.Context) error {
	id, err := server.IDParam(c, "Usuário")
	if err != nil {
		return s.pageFail(c, err)
	}
	u, ok, err := s.App.Accounts.CourtUser(c.Request().Context(), server.Actor(c).Court, id)
	if err != nil {
		return err
	}
	if !ok {
		return s.PageError(c, http.StatusNotFound, "Usuário não encontrado.")
	}
	var f errs.Fields
	pw := c.FormValue("senha")
	if err := accounts.CheckPasswordLength(pw); err != nil {
		f.Add("senha", "length", fmt.Sprintf("A nova senha deve ter de %d a %d caracteres.", accounts.MinPasswordLen, accounts.MaxPasswordLen))
	} else if pw != c.FormValue("senha2") {
		f.Add("senha2", "match", "As senhas não conferem.")
	}
	if err := f.Err(); err != nil {
		fields, msg, status, _ := formErrors(err)
		return s.renderUsers(c, status, server.Page{Errs: fields, Error: msg + " (nova senha de " + u.DisplayName() + ")"})
	}
	if err := s.InTx(c, func(ctx context.Context) error {
		return s.App.Accounts.SetPassword(ctx, u.ID, pw)
	}); err != nil {
		return err
	}
	s.ForgetUser(u.ID)
	s.flash(c, "Nova senha de "+u.DisplayName()+" gravada: informe-a à pessoa, que passa a entrar com ela.")
	return redirect(c, "/admin/usuarios")
}
