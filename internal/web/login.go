package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/authz"
	"github.com/labstack/echo/v4"
)

// loginForm: GET /entrar. A signed-in user goes on to the panel.
func (s *Server) loginForm(c echo.Context) error {
	volta := localPath(c.QueryParam("volta"))
	if _, ok := s.currentUser(c); ok {
		return c.Redirect(http.StatusSeeOther, volta)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.page(c, http.StatusOK, "entrar", Page{Title: "Entrar", Data: loginData{Volta: volta}})
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
func (s *Server) login(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("usuario"))
	pw := c.FormValue("senha")
	data := loginData{Usuario: name, Volta: localPath(c.FormValue("volta"))}
	errs := map[string]string{}
	if name == "" {
		errs["usuario"] = "Informe o usuário."
	}
	if pw == "" {
		errs["senha"] = "Informe a senha."
	}
	if name == "" || pw == "" {
		return s.page(c, http.StatusUnprocessableEntity, "entrar", Page{Title: "Entrar", Error: "Informe o usuário e a senha.", Errs: errs, Data: data})
	}
	ip := c.Request().RemoteAddr
	if h, _, err := net.SplitHostPort(ip); err == nil {
		ip = h
	}
	if s.deps.TrustProxy { // behind a proxy that sets X-Forwarded-For
		ip = c.RealIP()
	}
	u, failures, err := s.lockout.Login(c.Request().Context(), s.deps.DB, name, pw, ip, s.now())
	var locked *authz.LockedError
	switch {
	case errors.As(err, &locked):
		wait := max(time.Until(locked.Until), time.Minute)
		mins := int((wait + time.Minute - 1) / time.Minute)
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())))
		return s.page(c, http.StatusTooManyRequests, "entrar", Page{Title: "Entrar", Data: data,
			Error: fmt.Sprintf("Muitas tentativas sem sucesso. O acesso está bloqueado; tente de novo em %d minuto(s).", mins)})
	case errors.Is(err, authz.ErrBadCredentials):
		delay := min(time.Duration(failures)*loginStep, loginMaxDelay)
		select {
		case <-time.After(delay):
		case <-c.Request().Context().Done():
		}
		return s.page(c, http.StatusUnauthorized, "entrar", Page{Title: "Entrar", Error: "Usuário ou senha incorretos.", Data: data})
	case err != nil:
		return err
	}
	if err := s.signIn(c, u); err != nil {
		return err
	}
	s.deps.Logger.Info("login", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "user_id", u.ID, "role", u.Role)
	if u.Role == "club" && data.Volta == "/painel" { // a club reaches only its blocklist page
		data.Volta = "/clube"
	}
	return c.Redirect(http.StatusSeeOther, data.Volta)
}

// logout: POST /sair (form: csrf). Ends the session; 303 to /entrar.
func (s *Server) logout(c echo.Context) error {
	if err := s.signOut(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/entrar")
}

// panel: GET /painel, the first page after signing in: the links of the
// user's role.
func (s *Server) panel(c echo.Context) error {
	return s.page(c, http.StatusOK, "painel", Page{Title: "Painel"})
}
