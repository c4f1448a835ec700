package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

const sessNewToken = "new_token"

type clubToken struct {
	accounts.Token
	UserName string
	State    string
}

// clubUsers are the enabled users of the signed-in user's club.
func (s *UI) clubUsers(c echo.Context) ([]accounts.User, error) {
	u := pageUser(c)
	if u.Club == nil {
		return nil, nil
	}
	return s.App.Accounts.ClubUsers(c.Request().Context(), *u.Club)
}

// clubNewToken: POST /clube/tokens (usuario, validade): a token for one of
// the club's own users, shown once. validade is a number of days (1 to
// 3650; "90d", the command line's form, is taken too); empty: no expiry.
func (s *UI) clubNewToken(c echo.Context) error {
	us, err := s.clubUsers(c)
	if err != nil {
		return err
	}
	var f errs.Fields
	id := form.ID(c.FormValue("usuario"))
	var target *accounts.User
	for i := range us {
		if us[i].ID == id {
			target = &us[i]
		}
	}
	if target == nil {
		f.Add("usuario", "oneof", "Escolha um usuário do clube.")
	}
	var exp time.Time
	if v := strings.TrimSpace(c.FormValue("validade")); v != "" {
		if _, err := strconv.Atoi(v); err == nil {
			v += "d"
		}
		d, err := accounts.ParseExpiry(v)
		if err != nil {
			f.Add("validade", "expiry", "Validade inválida: informe um número de dias, de 1 a 3650 (dez anos).")
		} else {
			exp = s.Now().Add(d)
		}
	}
	if err := f.Err(); err != nil {
		fields, msg, status, _ := formErrors(err)
		return s.clubFail(c, status, fields, msg)
	}
	var tok string
	if err := s.InTx(c, func(ctx context.Context) error {
		var err error
		tok, err = s.App.Accounts.NewToken(ctx, target.ID, exp)
		return err
	}); err != nil {
		return err
	}
	s.Sessions.Put(c.Request().Context(), sessNewToken, tok)
	s.flash(c, "Token criado para "+target.Name+". Copie-o agora: ele não será mostrado de novo.")
	return redirect(c, "/clube#tokens")
}

// clubRevokeToken: POST /clube/tokens/:id/revogar — a token of the club's own users.
func (s *UI) clubRevokeToken(c echo.Context) error {
	id, err := server.IDParam(c, "Token")
	if err != nil {
		return s.pageFail(c, err)
	}
	us, err := s.clubUsers(c)
	if err != nil {
		return err
	}
	owner, err := s.App.Accounts.TokenOwner(c.Request().Context(), id)
	if err != nil {
		return err
	}
	mine := false
	for _, u := range us {
		mine = mine || u.ID == owner
	}
	if !mine {
		return s.PageError(c, http.StatusNotFound, "Token não encontrado entre os do clube.")
	}
	if err := s.InTx(c, func(ctx context.Context) error {
		_, err := s.App.Accounts.RevokeToken(ctx, id, s.Now())
		return err
	}); err != nil {
		if errors.Is(err, accounts.ErrNoToken) {
			return s.PageError(c, http.StatusNotFound, "Token não encontrado.")
		}
		return err
	}
	s.ForgetUser(owner) // revoked here: refused at once, not after tokenTTL
	s.flash(c, fmt.Sprintf("Token nº %d revogado: o portão que o usa deixa de ser atendido.", id))
	return redirect(c, "/clube#tokens")
}
