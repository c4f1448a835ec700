package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// Problem is an RFC 9457 problem document; Errors lists invalid fields.
type Problem struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Status   int               `json:"status"`
	Detail   string            `json:"detail"`
	Instance string            `json:"instance,omitempty"`
	Errors   []errs.FieldError `json:"errors,omitempty"`
}

// StatusOf is the HTTP status of each kind of error (errs.Kind).
var StatusOf = map[errs.Kind]int{
	errs.Internal:     http.StatusInternalServerError,
	errs.Invalid:      http.StatusUnprocessableEntity,
	errs.Unreadable:   http.StatusBadRequest,
	errs.NotFound:     http.StatusNotFound,
	errs.Forbidden:    http.StatusForbidden,
	errs.Conflict:     http.StatusConflict,
	errs.Gone:         http.StatusGone,
	errs.Unauthorized: http.StatusUnauthorized,
}

// TitleOf is the Portuguese title of a problem or error page by status.
var TitleOf = map[int]string{
	400: "Requisição ilegível",
	401: "Não autenticado",
	403: "Acesso negado",
	404: "Não encontrado",
	405: "Método não permitido",
	409: "Conflito",
	410: "Não disponível",
	413: "Requisição grande demais",
	415: "Tipo de conteúdo não aceito",
	422: "Dados inválidos",
	429: "Muitas tentativas",
	500: "Erro interno",
	503: "Serviço indisponível",
}

// errorHandler renders every error as application/problem+json; internal
// errors are logged and answered with a generic message (no SQL, no stack).
// A request whose client went away gets no answer, only the status 499
// (StatusClientClosedRequest) for the request log.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if clientGone(c) {
		// Not a server error: the client closed the request (a gate's
		// long-poll ended by a restart); 499 in the request log and metrics.
		s.Deps.Logger.Debug("client closed request", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "route", c.Path(), "err", err.Error())
		c.Response().WriteHeader(StatusClientClosedRequest)
		return
	}
	if status, ok := routerMiss(err); ok && wantsPage(c.Request()) {
		s.missingPage(c, status)
		return
	}
	p := Problem{Type: "about:blank", Instance: c.Request().URL.Path}
	var ae *errs.Error
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ae):
		p.Status = StatusOf[ae.Kind]
		p.Detail = ae.Message
		p.Errors = ae.Fields
	case errors.As(err, &he):
		p.Status = he.Code
		custom, _ := he.Message.(string)
		if custom == http.StatusText(he.Code) {
			custom = ""
		}
		switch {
		case custom != "":
			p.Detail = custom
		case he.Code == http.StatusNotFound:
			p.Detail = "Recurso não encontrado."
		case he.Code == http.StatusMethodNotAllowed:
			p.Detail = "Método não permitido para este recurso."
		case he.Code == http.StatusRequestEntityTooLarge:
			p.Detail = fmt.Sprintf("O corpo da requisição excede o limite de %s para este recurso.", SizePT(s.bodyLimit(c)))
		case he.Code == http.StatusUnsupportedMediaType:
			p.Detail = fmt.Sprintf("Tipo de conteúdo %q não aceito: envie application/json.", c.Request().Header.Get(echo.HeaderContentType))
		default:
			p.Detail = fmt.Sprint(he.Message)
		}
	case db.IsUnavailable(err):
		// Degraded mode: the database cannot serve now;
		// the client is told to come back, never a 500.
		p.Status = http.StatusServiceUnavailable
		p.Detail = "O banco de dados está indisponível no momento. Tente novamente em alguns segundos."
		s.Deps.Logger.Warn("database unavailable", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "route", c.Path(), "err", err.Error())
	default:
		p.Status = http.StatusInternalServerError
	}
	if p.Status == http.StatusServiceUnavailable {
		c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
		if isPagePath(c.Request().URL.Path) && c.Request().Method != http.MethodHead {
			s.unavailablePage(c, p.Detail)
			return
		}
	}
	if p.Status == http.StatusInternalServerError {
		p.Detail = "Erro interno. A falha foi registrada; tente novamente mais tarde."
		s.Deps.Logger.Error("internal error", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "route", c.Path(), "err", err.Error())
	}
	p.Title = TitleOf[p.Status]
	if p.Title == "" {
		p.Title = http.StatusText(p.Status)
	}
	if p.Status == http.StatusUnauthorized {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="juizado"`)
	}
	b, _ := json.Marshal(p)
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(p.Status)
		return
	}
	_ = c.Blob(p.Status, "application/problem+json", b)
}

// retryAfterSeconds is the Retry-After of a 503 while the database is
// unreachable: about the time a restart or a standby's promotion takes.
const retryAfterSeconds = 5

// routerMiss returns the status of an error the router answers by itself:
// 404 when no route has the path, 405 when none has it with the method.
func routerMiss(err error) (int, bool) {
	switch {
	case errors.Is(err, echo.ErrNotFound):
		return http.StatusNotFound, true
	case errors.Is(err, echo.ErrMethodNotAllowed):
		return http.StatusMethodNotAllowed, true
	}
	return 0, false
}

// wantsPage reports whether r is a browser's request for a page: a path
// outside the API (/api and everything under /api/, always answered with
// problem+json), the probes and the metrics, a method other than HEAD, and
// an Accept header naming text/html with a weight above zero.
func wantsPage(r *http.Request) bool {
	if r.Method == http.MethodHead || r.URL.Path == "/api" || !isPagePath(r.URL.Path) {
		return false
	}
	for _, part := range strings.Split(r.Header.Get(echo.HeaderAccept), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || mt != "text/html" {
			continue
		}
		if q, err := strconv.ParseFloat(params["q"], 64); err == nil && q <= 0 {
			continue
		}
		return true
	}
	return false
}

// missingPage answers a browser that asked for an address no page has
// (404) or with a method the page does not take (405, its Allow header
// set by the router) with the error page in Portuguese and a link home.
// The router matched no page route, so the session is loaded here, to
// show a signed-in person their menu; nothing of it is written back.
func (s *Server) missingPage(c echo.Context, status int) {
	if c.Get(SessionKey) == nil {
		r := c.Request()
		var token string
		if ck, err := r.Cookie(SessionCookie); err == nil {
			token = ck.Value
		}
		if ctx, err := s.Sessions.Load(r.Context(), token); err == nil {
			c.SetRequest(r.WithContext(ctx))
			c.Set(SessionKey, true)
		}
	}
	title, msg := "Página não encontrada", "Não há página neste endereço. Confira o endereço digitado ou siga um dos links abaixo."
	if status == http.StatusMethodNotAllowed {
		title, msg = TitleOf[status], "Esta página não recebe este tipo de envio. Volte à página anterior e use o formulário dela."
	}
	err := s.Page(c, status, "erro", Page{Title: title, Data: msg}) // the message under the title, not as an alert
	if err == nil || c.Response().Committed {
		return
	}
	s.Deps.Logger.Error("error page", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err.Error())
	_ = c.HTML(status, `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>`+title+` · Juizado do Torcedor</title></head><body><h1>`+
		title+`</h1><p>`+msg+`</p><p><a href="/">Ir para a página inicial</a></p></body></html>`)
}

// isPagePath reports whether path is one of the HTML pages (not the API,
// the probes or the metrics).
func isPagePath(path string) bool {
	for _, p := range []string{"/api/", "/healthz", "/readyz", "/metrics"} {
		if strings.HasPrefix(path, p) {
			return false
		}
	}
	return true
}

// unavailablePage answers a page with an HTML 503: the error page when it
// renders, else a minimal page (rendering may need what is unavailable).
func (s *Server) unavailablePage(c echo.Context, msg string) {
	rec := c.Response()
	func() {
		defer func() { _ = recover() }() // e.g. no session could be loaded
		_ = s.PageError(c, http.StatusServiceUnavailable, msg)
	}()
	if rec.Committed {
		return
	}
	_ = c.HTML(http.StatusServiceUnavailable, `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Serviço indisponível · Juizado do Torcedor</title></head><body><h1>Serviço indisponível</h1><p>`+
		template.HTMLEscapeString(msg)+`</p></body></html>`)
}
