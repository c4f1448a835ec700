package ui

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// loginForm: GET /entrar. A signed-in user goes on to the panel.
func (s *UI) loginForm(c echo.Context) error {
	volta := server.LocalPath(c.QueryParam("volta"))
	if _, ok := s.CurrentUser(c); ok {
		return c.Redirect(http.StatusSeeOther, volta)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Page(c, http.StatusOK, "entrar", server.Page{Title: "Entrar", Data: loginData{Volta: volta}})
}

type loginData struct {
	Usuario string
	Volta   string
}

// loginStep is how much each recent failure of an account slows the
// answer to the next failure (at most loginMaxDelay).
const (
	loginStep     = 150 * time.Millisecond
	loginMaxDelay = 2 * time.Second
)

// login: POST /entrar (form: usuario, senha, volta, csrf). Success: a new
// session and 303 to volta (or /painel). Failure: the form again with 401,
// slowed by the account's recent failures. Locked: 429 with Retry-After.
func (s *UI) login(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("usuario"))
	pw := c.FormValue("senha")
	data := loginData{Usuario: name, Volta: server.LocalPath(c.FormValue("volta"))}
	errs := map[string]string{}
	if name == "" {
		errs["usuario"] = "Informe o usuário."
	}
	if pw == "" {
		errs["senha"] = "Informe a senha."
	}
	if name == "" || pw == "" {
		return s.Page(c, http.StatusUnprocessableEntity, "entrar", server.Page{Title: "Entrar", Error: "Informe o usuário e a senha.", Errs: errs, Data: data})
	}
	u, failures, err := s.App.Accounts.Login(c.Request().Context(), name, pw, s.ClientIP(c), s.Now())
	if msg, locked := server.Locked(c, err); locked {
		return s.Page(c, http.StatusTooManyRequests, "entrar", server.Page{Title: "Entrar", Data: data, Error: msg})
	}
	switch {
	case errors.Is(err, accounts.ErrBadCredentials):
		delay := min(time.Duration(failures)*loginStep, loginMaxDelay)
		select {
		case <-time.After(delay):
		case <-c.Request().Context().Done():
		}
		return s.Page(c, http.StatusUnauthorized, "entrar", server.Page{Title: "Entrar", Error: "Usuário ou senha incorretos.", Data: data})
	case err != nil:
		return err
	}
	if err := s.SignIn(c, u); err != nil {
		return err
	}
	s.Deps.Logger.Info("login", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "user_id", u.ID, "role", u.Role)
	if u.Role == "club" && data.Volta == "/painel" { // a club reaches only its blocklist page
		data.Volta = "/clube"
	}
	return c.Redirect(http.StatusSeeOther, data.Volta)
}

// logout: POST /sair (form: csrf). Ends the session; 303 to /entrar.
func (s *UI) logout(c echo.Context) error {
	if err := s.SignOut(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/entrar")
}
