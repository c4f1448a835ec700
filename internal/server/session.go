package server

// Sessions for people's HTML pages: the scs session manager on its
// PostgreSQL store (table sessions, migration 00008), the session cookie
// (HttpOnly, SameSite=Lax, Secure behind TLS), a CSRF token kept in the
// session and checked on every form and the signed-in user (CurrentUser);
// page routes are guarded by authorize (authorize.go) as API routes are.
// The JSON API under /api/v1 keeps its bearer tokens: no session, no
// cookie, no CSRF.

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alexedwards/scs/postgresstore"
	"github.com/alexedwards/scs/v2"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/db"
	"github.com/labstack/echo/v4"
)

const (
	// SessionCookie is the name of the session cookie.
	SessionCookie = "juizado_sessao"
	// CSRFField is the hidden form field that carries the CSRF token; a
	// request without a form may send it in the header CSRFHeader.
	CSRFField  = "csrf"
	CSRFHeader = "X-CSRF-Token"

	sessUserID = "user_id"
	sessAuthAt = "auth_at"
	sessCSRF   = "csrf"
	SessionKey = "juizado.session" // echo context: the session is loaded
)

// Session lifetimes: absolute, and without a request.
const (
	sessionLifetime    = 12 * time.Hour
	sessionIdleTimeout = 2 * time.Hour
)

// csrfExempt lists the unsafe page routes that take no CSRF token: the
// public document verification compares an uploaded file with a record,
// changes nothing and is used without a session.
var csrfExempt = map[string]bool{
	"POST /verificar/:code": true,
}

// noSession lists the routes outside /api/ that never use a session.
var noSession = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

func newSessions(d Deps) (*scs.SessionManager, error) {
	sqlDB, err := d.App.SQL()
	if err != nil {
		return nil, err
	}
	sm := scs.New()
	// Expired rows are purged by StartAccounts's janitor, not by a
	// goroutine per server.
	sm.Store = postgresstore.NewWithCleanupInterval(sqlDB, 0)
	sm.Lifetime = sessionLifetime
	sm.IdleTimeout = sessionIdleTimeout
	sm.Cookie.Name = SessionCookie
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Path = "/"
	sm.Cookie.Persist = false // ends with the browser
	return sm, nil
}

// usesSession reports whether the route loads the session: page routes
// (everything the router knows outside /api/ and the probes).
func (s *Server) usesSession(c echo.Context) bool {
	p := c.Path()
	if strings.HasPrefix(p, "/api/") || noSession[p] {
		return false
	}
	m := c.Request().Method
	if m == http.MethodHead {
		m = http.MethodGet
	}
	_, known := s.route(m, p)
	return known
}

// secureRequest reports whether the request reached us over TLS, directly
// or through a proxy that says so, or JUIZADO_SECURE_COOKIES is set: the
// session cookie is then Secure.
func (s *Server) secureRequest(c echo.Context) bool {
	r := c.Request()
	return s.Deps.SecureCookies || r.TLS != nil || strings.EqualFold(strings.TrimSpace(r.Header.Get(echo.HeaderXForwardedProto)), "https")
}

// session loads the session of page routes, writes its cookie when it
// changed, and refuses an unsafe request (POST, PUT, PATCH, DELETE)
// without the session's CSRF token with 403.
func (s *Server) session(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.usesSession(c) {
			return next(c)
		}
		r := c.Request()
		if ri, _ := s.route(r.Method, c.Path()); ri.maxBody > 0 { // pages that take files
			r.Body = http.MaxBytesReader(c.Response(), r.Body, ri.maxBody)
			if mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); mt == "multipart/form-data" {
				if err := r.ParseMultipartForm(8 << 20); BodyTooLarge(err) {
					return s.PageError(c, http.StatusRequestEntityTooLarge, "O arquivo enviado é grande demais.")
				}
			}
		}
		var token string
		if ck, err := r.Cookie(SessionCookie); err == nil {
			token = ck.Value
		}
		ctx, err := s.Sessions.Load(r.Context(), token)
		if err != nil {
			return err
		}
		c.SetRequest(r.WithContext(ctx))
		c.Set(SessionKey, true)
		c.Response().Header().Add("Vary", "Cookie")
		secure := s.secureRequest(c)
		c.Response().Before(func() { s.writeSession(c, secure) })
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			if !csrfExempt[r.Method+" "+c.Path()] && !s.validCSRF(c) {
				if _, ok := s.CurrentUser(c); !ok && !s.IsPublic(r.Method+" "+c.Path()) {
					return s.toLogin(c) // nobody signed in: the login page, not a form error
				}
				return s.PageError(c, http.StatusForbidden, "O formulário expirou ou não veio desta página. Volte, recarregue a página e tente de novo.")
			}
		}
		return next(c)
	}
}

// writeSession commits a changed session and sets (or clears) its cookie,
// just before the response's header is written.
func (s *Server) writeSession(c echo.Context, secure bool) {
	ctx := c.Request().Context()
	ck := &http.Cookie{Name: SessionCookie, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secure}
	switch s.Sessions.Status(ctx) {
	case scs.Modified:
		token, _, err := s.Sessions.Commit(ctx)
		if err != nil {
			s.Deps.Logger.Error("session commit", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err.Error())
			return
		}
		ck.Value = token
	case scs.Destroyed:
		ck.MaxAge = -1
		ck.Expires = time.Unix(1, 0)
	default:
		return
	}
	h := c.Response().Header()
	h.Add("Set-Cookie", ck.String())
	h.Set("Cache-Control", "no-store")
}

// csrfToken returns the session's CSRF token, making one when the session
// has none: what page templates put in every form ({{.CSRF}}).
func (s *Server) csrfToken(c echo.Context) string {
	if c.Get(SessionKey) == nil {
		return ""
	}
	ctx := c.Request().Context()
	if t := s.Sessions.GetString(ctx, sessCSRF); t != "" {
		return t
	}
	t := randomToken()
	s.Sessions.Put(ctx, sessCSRF, t)
	return t
}

func randomToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// validCSRF compares the request's token (form field or header) with the
// session's, in constant time; a session without a token accepts none.
func (s *Server) validCSRF(c echo.Context) bool {
	want := s.Sessions.GetString(c.Request().Context(), sessCSRF)
	got := c.Request().Header.Get(CSRFHeader)
	if got == "" {
		got = c.FormValue(CSRFField)
	}
	return want != "" && got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// CurrentUser returns the user signed in to this request's session (or
// authenticated by its token, on API routes), if any and still enabled.
func (s *Server) CurrentUser(c echo.Context) (accounts.User, bool) {
	if u, ok := c.Get(UserKey).(accounts.User); ok {
		return u, true
	}
	if c.Get(SessionKey) == nil {
		return accounts.User{}, false
	}
	ctx := c.Request().Context()
	id := s.Sessions.GetInt64(ctx, sessUserID)
	if id == 0 {
		return accounts.User{}, false
	}
	u, err := s.App.Accounts.ActiveUser(ctx, id)
	if err != nil {
		if errors.Is(err, accounts.ErrNoUser) {
			s.Sessions.Remove(ctx, sessUserID) // disabled since
		} else {
			s.Deps.Logger.Error("session user", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err.Error())
		}
		return accounts.User{}, false
	}
	s.setUser(c, u)
	return u, true
}

// setUser makes u the request's user and the audit trail's actor.
func (s *Server) setUser(c echo.Context, u accounts.User) {
	c.Set(UserKey, u)
	s.setActor(c, u)
}

// setActor makes u the audit trail's actor of the request's writes.
func (s *Server) setActor(c echo.Context, u accounts.User) {
	c.SetRequest(c.Request().WithContext(db.WithActor(c.Request().Context(), u.Actor())))
}

// SignIn starts the user's session: a new session token (no fixation),
// a new CSRF token.
func (s *Server) SignIn(c echo.Context, u accounts.User) error {
	ctx := c.Request().Context()
	if err := s.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	s.Sessions.Put(ctx, sessUserID, u.ID)
	s.Sessions.Put(ctx, sessAuthAt, s.Now().UTC().Format(time.RFC3339))
	s.Sessions.Put(ctx, sessCSRF, randomToken())
	return nil
}

// InTx runs a page's write in one transaction carrying the request's actor,
// so that the audit trail names who made it (writes outside a transaction
// have no actor settings: db.WithTx sets them).
func (s *Server) InTx(c echo.Context, fn func(ctx context.Context) error) error {
	return s.App.InTx(c.Request().Context(), fn)
}

// SignOut ends the session.
func (s *Server) SignOut(c echo.Context) error {
	if c.Get(SessionKey) == nil {
		return nil
	}
	return s.Sessions.Destroy(c.Request().Context())
}

// toLogin redirects to the login page, which brings the user back to the
// page asked for (GET only).
func (s *Server) toLogin(c echo.Context) error {
	to := "/entrar"
	if c.Request().Method == http.MethodGet {
		to += "?volta=" + url.QueryEscape(c.Request().URL.RequestURI())
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// LocalPath returns p when it is a path of this site ("/painel"), else
// "/painel": the login page never redirects elsewhere.
func LocalPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") || strings.ContainsAny(p, "\r\n") {
		return "/painel"
	}
	return p
}

// StartAccounts starts what accounts need while the server runs: the
// policy watcher (a change of casbin_rule made anywhere is in force here
// within moments) and a janitor that deletes expired sessions and old
// failed logins every few minutes. Both stop when ctx ends.
func (s *Server) StartAccounts(ctx context.Context) error {
	w, err := s.App.WatchPolicy(ctx, s.Deps.Enforcer, s.Deps.Logger)
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		w.Close()
	}()
	go func() {
		t := time.NewTicker(5 * time.Minute)
		defer t.Stop()
		for {
			if err := s.purgeAccounts(ctx); err != nil && ctx.Err() == nil {
				s.Deps.Logger.Warn("accounts janitor", "err", err.Error())
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

func (s *Server) purgeAccounts(ctx context.Context) error {
	return s.App.Accounts.Purge(ctx, s.Now())
}
