package web

// People's pages: sign in (GET/POST /entrar), sign out (POST /sair) and
// the panel (GET /painel). Each page template is parsed with the layout
// html/base.html and receives a Page.

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/authz"
	"github.com/labstack/echo/v4"
)

// Page is what every page template receives.
type Page struct {
	Title string
	// User is the signed-in user, nil when nobody is.
	User *authz.User
	// CSRF is the token every form posts in the hidden field "csrf":
	// <input type="hidden" name="csrf" value="{{.CSRF}}">.
	CSRF string
	// Error is a message shown at the top of the page.
	Error string
	// Notice is a message of success shown at the top of the page (the
	// flash left by the POST that redirected here).
	Notice string
	// Errs holds the message of each field at fault, by the field's name
	// (the API's field path, e.g. "defendants[0].cpf"): shown next to it.
	Errs map[string]string
	// Form holds what was typed, by field name, to fill the form again.
	Form url.Values
	// Data is the page's own content.
	Data any
}

// LayoutPages are the page templates parsed with the layout html/base.html
// and the shared parts html/comum.html, one template set per page, parsed
// once at start-up.
var LayoutPages = []string{"entrar", "painel", "erro",
	"processos", "processo_novo", "processo", "sentenca", "distribuicao", "audiencias", "feriados",
	"torcida", "associado", "importar",
	"clube", "verificar_form",
	"admin_usuarios", "admin_papeis", "admin_juizados", "admin_auditoria"}

// parseAccountPages adds the pages above to s.pages, each parsed with the
// layout html/base.html (which calls the page's "content" template).
func (s *Server) parseAccountPages(fsys fs.FS) error {
	if fsys == nil {
		return nil
	}
	for _, name := range LayoutPages {
		t, err := ParseLayoutPage(fsys, name, s.deps.Loc)
		if err != nil {
			return err
		}
		s.pages[name] = t
	}
	return nil
}

// ParseLayoutPage parses page name with the layout and the shared parts.
func ParseLayoutPage(fsys fs.FS, name string, loc *time.Location) (*template.Template, error) {
	t, err := template.New("base.html").Funcs(pageFuncs(loc)).ParseFS(fsys, "html/base.html", "html/comum.html", "html/"+name+".html")
	if err != nil {
		return nil, fmt.Errorf("web: template %s: %w", name, err)
	}
	return t, nil
}

// domainLabel names a user's domain in Portuguese.
func domainLabel(u *authz.User) string {
	switch {
	case u == nil:
		return ""
	case u.CourtCode != nil:
		return "juizado " + *u.CourtCode
	case u.GroupID != nil:
		return fmt.Sprintf("torcida organizada nº %d", *u.GroupID)
	case u.Club != nil:
		return "clube " + *u.Club
	}
	return ""
}

// roleLabel names a role in Portuguese.
func roleLabel(role string) string {
	if l, ok := map[string]string{"admin": "administração", "clerk": "cartório", "judge": "juiz(a)", "prosecutor": "Ministério Público",
		"police": "polícia", "fan_group": "gestão da torcida organizada", "club": "clube"}[role]; ok {
		return l
	}
	return role
}

// pageRoutes registers the account pages.
func (s *Server) pageRoutes(e *echo.Echo) {
	e.GET("/entrar", s.loginForm)
	e.POST("/entrar", s.login)
	e.POST("/sair", s.logout)
	e.GET("/painel", s.panel, s.requirePage())
	s.casePages(e)
	s.banPages(e)
	s.workflowPages(e)
	s.groupPages(e)
	s.clubPages(e)
	s.adminPages(e)
	s.publicPages(e)
}

// page renders a page template with the signed-in user and the CSRF token.
func (s *Server) page(c echo.Context, status int, name string, p Page) error {
	if u, ok := s.currentUser(c); ok {
		p.User = &u
	}
	p.CSRF = s.csrfToken(c)
	if p.Notice == "" && c.Get(sessionKey) != nil && status < 300 {
		p.Notice = s.sessions.PopString(c.Request().Context(), sessFlash)
	}
	if s.pages[name] == nil { // no templates (tests without them)
		return c.String(status, p.Title+"\n"+p.Error)
	}
	return s.render(c, status, name, p)
}

// pageError answers a page request with an error page.
func (s *Server) pageError(c echo.Context, status int, msg string) error {
	title := titleOf[status]
	if title == "" {
		title = http.StatusText(status)
	}
	return s.page(c, status, "erro", Page{Title: title, Error: msg})
}

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
