package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"math"
	"net/http"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

var statusOf = map[errs.Kind]int{
	errs.Internal:     http.StatusInternalServerError,
	errs.Invalid:      http.StatusUnprocessableEntity,
	errs.Unreadable:   http.StatusBadRequest,
	errs.NotFound:     http.StatusNotFound,
	errs.Forbidden:    http.StatusForbidden,
	errs.Conflict:     http.StatusConflict,
	errs.Gone:         http.StatusGone,
	errs.Unauthorized: http.StatusUnauthorized,
}

var titleOf = map[int]string{
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
	500: "Erro interno",
	503: "Serviço indisponível",
}

// errorHandler renders every error as application/problem+json; internal
// errors are logged and answered with a generic message (no SQL, no stack).
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	p := Problem{Type: "about:blank", Instance: c.Request().URL.Path}
	var ae *errs.Error
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ae):
		p.Status = statusOf[ae.Kind]
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
			p.Detail = fmt.Sprintf("O corpo da requisição excede o limite de %s para este recurso.", sizePT(bodyLimit(c)))
		case he.Code == http.StatusUnsupportedMediaType:
			p.Detail = fmt.Sprintf("Tipo de conteúdo %q não aceito: envie application/json.", c.Request().Header.Get(echo.HeaderContentType))
		default:
			p.Detail = fmt.Sprint(he.Message)
		}
	case db.IsUnavailable(err):
		// Degraded mode (issue 16, item 3): the database cannot serve now;
		// the client is told to come back, never a 500.
		p.Status = http.StatusServiceUnavailable
		p.Detail = "O banco de dados está indisponível no momento. Tente novamente em alguns segundos."
		s.deps.Logger.Warn("database unavailable", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "route", c.Path(), "err", err.Error())
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
		s.deps.Logger.Error("internal error", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "route", c.Path(), "err", err.Error())
	}
	p.Title = titleOf[p.Status]
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
		_ = s.pageError(c, http.StatusServiceUnavailable, msg)
	}()
	if rec.Committed {
		return
	}
	_ = c.HTML(http.StatusServiceUnavailable, `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Serviço indisponível · Juizado do Torcedor</title></head><body><h1>Serviço indisponível</h1><p>`+
		template.HTMLEscapeString(msg)+`</p></body></html>`)
}

// maxBody is the server's body limit (BodyLimit in New) for the routes
// that do not bound their bodies themselves (largeBodyRoutes).
const maxBody = 2 << 20

// bodyLimit is the body limit of c's route in bytes.
func bodyLimit(c echo.Context) int64 {
	if n, ok := largeBodyRoutes[c.Request().Method+" "+c.Path()]; ok {
		return n
	}
	return maxBody
}

// sizePT writes n bytes in Portuguese, in MB (2^20 bytes) when whole, else
// in bytes with dot-grouped thousands.
func sizePT(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// unsupportedJSON is the 415 of an endpoint that takes JSON only.
func unsupportedJSON(ct string) error {
	if ct == "" {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Cabeçalho Content-Type ausente: este recurso aceita somente application/json.")
	}
	return echo.NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("Tipo de conteúdo %q não aceito: este recurso aceita somente application/json.", ct))
}

// unsupported is the 415 of c's endpoint, naming what it accepts (accepted,
// in Portuguese with the media types).
func unsupported(c echo.Context, accepted string) error {
	return echo.NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("Tipo de conteúdo %q não aceito: envie %s.", c.Request().Header.Get(echo.HeaderContentType), accepted))
}

// recoverer turns a panic into a logged 500 problem. It also answers HEAD
// (headAsGet) before anything else sees the request: folded in here rather
// than a middleware of its own, which would cost every GET an allocation.
func (s *Server) recoverer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		if c.Request().Method == http.MethodHead {
			s.headAsGet(c)
			return nil
		}
		defer func() {
			if r := recover(); r != nil {
				s.deps.Logger.Error("panic", "route", c.Path(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return next(c)
	}
}

// headAsGet serves a HEAD request as the GET of the same target (RFC 9110
// §9.3.2: the same status and headers, no body): the whole server runs again
// on a shallow copy of the request whose method is GET, so the router, the
// Casbin policy, ETag and 304 see a GET, while net/http, which keeps the
// original request, still sends no body. A target without GET answers 405
// as GET would (404 when it does not exist).
func (s *Server) headAsGet(c echo.Context) {
	r := c.Request()
	get := r.WithContext(r.Context())
	get.Method = http.MethodGet
	s.Echo.ServeHTTP(c.Response().Writer, get)
}

// requestLog writes one JSON line per request: route template (never the raw
// path or query: CPFs travel in paths), status, latency, request id.
func (s *Server) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		s.deps.Logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
			slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
			slog.String("method", c.Request().Method), slog.String("route", c.Path()),
			slog.Int("status", c.Response().Status), slog.Duration("latency", time.Since(start)))
		return nil
	}
}

// bindJSON decodes a JSON body into dst: 415 for a missing Content-Type or
// another media type, 400 for an unreadable body (not JSON, not UTF-8, not
// an object), 422 naming the field (with array indices) for a key named
// twice in one object, a key dst does not take (strictjson.go), a value of
// the wrong type or a string that holds a NUL character, which PostgreSQL
// cannot store.
func bindJSON(c echo.Context, dst any) error {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	if !isJSONType(ct) {
		return unsupportedJSON(ct)
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge)
		}
		return errs.New(errs.Unreadable, "Não foi possível ler o corpo da requisição.")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return errs.New(errs.Unreadable, "O corpo da requisição está vazio: envie um objeto JSON.")
	}
	if !utf8.Valid(body) {
		return errs.New(errs.Unreadable, "O corpo da requisição não está em UTF-8 válido.")
	}
	if !json.Valid(body) {
		return unreadableJSON(json.Unmarshal(body, new(any)))
	}
	// Numbers stay text (json.Number): a well-formed number out of range
	// (1e400) is the field's problem (422), not unreadable JSON.
	var tree any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return unreadableJSON(err)
	}
	if _, ok := tree.(map[string]any); !ok {
		return errs.New(errs.Unreadable, "O corpo deve ser um objeto JSON.")
	}
	if path := findNUL(tree, ""); path != "" {
		return errs.InvalidField(path, "no_nul", "o texto contém um caractere nulo (U+0000), que não é aceito.")
	}
	if err := strictBody(body, tree, dst); err != nil {
		return err
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// te.Value is the JSON type ("string", "number", ...) or, for a
			// number the Go type cannot hold, "number 1e400".
			kind, num, overflow := strings.Cut(te.Value, " ")
			field, ok := locate(tree, strings.Split(te.Field, "."), kind, "")
			if !ok {
				field = te.Field
			}
			if overflow && kind == "number" && strings.HasPrefix(te.Type.Kind().String(), "int") {
				if x, err := strconv.ParseFloat(num, 64); err == nil && x != math.Trunc(x) {
					return errs.InvalidField(field, "integer", fmt.Sprintf("o número %s não é inteiro: esperado um número inteiro.", shorten(num, 40)))
				} else if err == nil && math.Abs(x) < 9e18 {
					return errs.InvalidField(field, "integer", fmt.Sprintf("escreva o número %s como inteiro, sem expoente nem ponto decimal.", shorten(num, 40)))
				}
			}
			if overflow && kind == "number" {
				return errs.InvalidField(field, "range", fmt.Sprintf("o número %s está fora do intervalo aceito (%s).", shorten(num, 40), rangePT(te.Type.Kind().String())))
			}
			return errs.InvalidField(field, "type", fmt.Sprintf("tipo inválido: esperado %s.", typePT(te.Type.Kind().String())))
		}
		var pe *errs.Error
		if errors.As(err, &pe) {
			return pe
		}
		return unreadableJSON(err)
	}
	return nil
}

// unreadableJSON says in Portuguese where a body stopped being JSON.
func unreadableJSON(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errs.New(errs.Unreadable, fmt.Sprintf("JSON ilegível: erro de sintaxe perto do byte %d do corpo.", se.Offset))
	}
	return errs.New(errs.Unreadable, "JSON ilegível: o corpo termina antes de fechar o objeto ou não é JSON.")
}

// findNUL returns the dotted path of the first string (or key) holding a NUL.
func findNUL(v any, path string) string {
	switch t := v.(type) {
	case string:
		if strings.ContainsRune(t, 0) {
			return path
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if strings.ContainsRune(k, 0) {
				return path
			}
			if r := findNUL(t[k], p); r != "" {
				return r
			}
		}
	case []any:
		for i, e := range t {
			if r := findNUL(e, fmt.Sprintf("%s[%d]", path, i)); r != "" {
				return r
			}
		}
	}
	return ""
}

// locate turns encoding/json's index-less field path ("defendants.cpf") into
// the path of the first value of JSON type kind ("number", "string", ...)
// found there, with array indices ("defendants[1].cpf").
func locate(v any, segs []string, kind, path string) (string, bool) {
	if arr, ok := v.([]any); ok && (len(segs) > 0 || kind != "array") {
		for i, e := range arr {
			if p, ok := locate(e, segs, kind, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
		return "", false
	}
	if len(segs) == 0 {
		return path, jsonKind(v) == kind
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	child, ok := m[segs[0]]
	if !ok {
		return "", false
	}
	p := segs[0]
	if path != "" {
		p = path + "." + segs[0]
	}
	return locate(child, segs[1:], kind, p)
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "bool"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return ""
}

// rangePT says in Portuguese what a number of Go kind k may be.
func rangePT(k string) string {
	switch k {
	case "int", "int64":
		return "inteiro de até 19 dígitos"
	case "int32":
		return "inteiro de até 10 dígitos"
	case "uint", "uint64", "uint32":
		return "inteiro não negativo"
	case "float64", "float32":
		return "número decimal de magnitude representável"
	}
	return "número"
}

// shorten cuts s to at most n bytes, marking the cut with "…".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func typePT(k string) string {
	switch k {
	case "string":
		return "texto"
	case "int", "int64", "int32", "uint", "uint64", "uint32":
		return "número inteiro"
	case "float64", "float32":
		return "número"
	case "bool":
		return "true ou false"
	case "slice":
		return "lista"
	case "struct", "map", "ptr":
		return "objeto"
	}
	return k
}
