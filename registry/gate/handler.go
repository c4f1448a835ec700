package gate

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// Handler serves GET /check/{cpf} (?venue=NAME: CheckAt), GET /status and
// GET /metrics. A CPF with punctuation is accepted; one that is not 11
// digits with valid check digits is 422. Every error is application/problem+json (RFC 9457:
// status, title, detail in Brazilian Portuguese): 404 for any other path
// (/check, /check/, /check/a/b included), 405 with Allow: GET for any other
// method on the three paths, 404 too for a path not in its clean form
// (//check/…, /check/../status: no redirect). HEAD is one of those: a HEAD /check/{cpf}
// answers 405 and is neither counted nor recorded (no evidence of a check
// that nobody read).
func (a *Agent) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/status", func(w http.ResponseWriter, r *http.Request) {
		if onlyGET(w, r) {
			writeJSON(w, a.Status())
		}
	})
	metrics := promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		if onlyGET(w, r) {
			metrics.ServeHTTP(w, r)
		}
	})
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusNotFound, "Recurso não encontrado",
			"O agente do portão responde somente GET /check/{cpf}, GET /status e GET /metrics.", nil)
	}
	mux.HandleFunc("/", notFound)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		// A path that is not clean (//check/…, /check/../status) is 404,
		// not ServeMux's redirect to its clean form.
		if !cleanPath(p) {
			notFound(w, r)
			return
		}
		// /check/{cpf}, one segment, is answered here rather than through
		// the mux's pattern matching: it is the path a turnstile calls
		// thousands of times a second (bench/README.md).
		if seg, ok := strings.CutPrefix(p, "/check/"); ok && seg != "" && !strings.Contains(seg, "/") {
			if onlyGET(w, r) {
				a.serveCheck(w, r, seg)
			}
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// jsonType is the Content-Type of a check answer, set as a header value
// shared by every answer (net/http only reads it).
var jsonType = []string{"application/json"}

// serveCheck answers GET /check/{cpf} for the path segment seg (already
// unescaped by net/http).
func (a *Agent) serveCheck(w http.ResponseWriter, r *http.Request, seg string) {
	cpf, ok := ParseCPF(seg)
	if !ok {
		writeProblem(w, http.StatusUnprocessableEntity, "CPF inválido", "cpf: informe 11 dígitos com dígitos verificadores válidos.",
			[]map[string]string{{"field": "cpf", "message": "CPF inválido: 11 dígitos com dígitos verificadores válidos."}})
		return
	}
	var res CheckResult
	if r.URL.RawQuery == "" {
		res = a.Check(cpf)
	} else if res, ok = a.checkQuery(w, r, cpf); !ok {
		return
	}
	w.Header()["Content-Type"] = jsonType
	bp := answerBufs.Get().(*[]byte)
	*bp = appendCheckResult((*bp)[:0], &res)
	_, _ = w.Write(*bp)
	answerBufs.Put(bp)
}

// checkQuery answers a check with a query string: venue=NAME, once, one
// of the gate's venues, answers for that venue (CheckAt); a venue the gate
// does not guard, an empty one or two are 422 on venue and nothing is
// checked (a venue the agent ignored would let a turnstile think it was
// honoured). Other parameters are ignored, as the court's check does.
func (a *Agent) checkQuery(w http.ResponseWriter, r *http.Request, cpf string) (CheckResult, bool) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	bad := func(field, msg string) (CheckResult, bool) {
		writeProblem(w, http.StatusUnprocessableEntity, "Parâmetro inválido", field+": "+msg,
			[]map[string]string{{"field": field, "message": msg}})
		return CheckResult{}, false
	}
	if err != nil {
		return bad("query", "parâmetros ilegíveis: "+err.Error()+".")
	}
	vs, given := q["venue"]
	if !given { // other parameters are ignored, as the court's check ignores them
		return a.Check(cpf), true
	}
	if len(vs) != 1 || strings.TrimSpace(vs[0]) == "" {
		return bad("venue", "informe um só local, pelo nome.")
	}
	res, ok := a.CheckAt(cpf, q.Get("venue"))
	if !ok {
		if len(a.venue) == 0 {
			return bad("venue", "este portão não tem locais na configuração (venues): ele responde por todos os impedimentos, sem local.")
		}
		return bad("venue", fmt.Sprintf("%q não é um dos locais deste portão (%s).", q.Get("venue"), strings.Join(a.Config.Venues, "; ")))
	}
	return res, true
}

// cleanPath reports whether p is in the form path.Clean gives it (rooted,
// no empty, "." or ".." segment, no trailing slash but the root's), without
// path.Clean's cost on the paths that are.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if strings.Contains(p, "//") || strings.Contains(p, "/.") || (len(p) > 1 && p[len(p)-1] == '/') {
		return path.Clean(p) == p
	}
	return true
}

// onlyGET answers 405 (Allow: GET) to any method but GET and reports
// whether the request is a GET.
func onlyGET(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet {
		return true
	}
	w.Header().Set("Allow", http.MethodGet)
	writeProblem(w, http.StatusMethodNotAllowed, "Método não permitido",
		"O método "+r.Method+" não é aceito em "+r.URL.Path+": use GET.", nil)
	return false
}

// writeProblem writes an RFC 9457 problem: status, title, detail and, when
// given, the errors by field.
func writeProblem(w http.ResponseWriter, status int, title, detail string, errs []map[string]string) {
	p := map[string]any{"status": status, "title": title, "detail": detail}
	if errs != nil {
		p["errors"] = errs
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
}

var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// appendCheckResult appends r as json.NewEncoder(w).Encode(r) writes it
// (same bytes, map keys sorted, a final newline; tested): encoding/json's
// reflection had been the largest part of the check endpoint's own cost. A
// ban with a scope or match days is left to encoding/json.
func appendCheckResult(b []byte, r *CheckResult) []byte {
	for i := range r.Bans {
		if r.Bans[i].Scope != nil || len(r.Bans[i].MatchDays) > 0 {
			j, _ := json.Marshal(r)
			return append(append(b, j...), '\n')
		}
	}
	b = append(b, `{"cpf":`...)
	b = appendJSONString(b, r.CPF)
	b = append(b, `,"blocked":`...)
	b = strconv.AppendBool(b, r.Blocked)
	b = append(b, `,"bans":`...)
	if r.Bans == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Bans {
			x := &r.Bans[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"ban_id":`...)
			b = strconv.AppendInt(b, x.BanID, 10)
			b = append(b, `,"first_day":`...)
			b = appendJSONString(b, x.FirstDay)
			b = append(b, `,"last_day":`...)
			if x.LastDay == nil {
				b = append(b, "null"...)
			} else {
				b = appendJSONString(b, *x.LastDay)
			}
			b = append(b, `,"case_number":`...)
			b = appendJSONString(b, x.CaseNumber)
			b = append(b, `,"court":`...)
			b = appendJSONString(b, x.Court)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"stale":`...)
	b = strconv.AppendBool(b, r.Stale)
	b = append(b, `,"versions":`...)
	if r.versionsJSON != nil {
		b = append(b, r.versionsJSON...)
	} else {
		b = appendVersions(b, r.Versions)
	}
	b = append(b, `,"checked_at":"`...)
	b = appendInstant(b, r.CheckedAt)
	return append(b, "\"}\n"...)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// ParseCPF reads a CPF with or without punctuation and spaces and checks
// its two check digits (Receita Federal's modulo 11, wire.CPFProblem, as
// the court does); it returns the 11 digits.
func ParseCPF(s string) (string, bool) {
	var buf [11]byte
	d := buf[:0]
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if len(d) == 11 {
				return "", false
			}
			d = append(d, byte(r))
		case r == '.' || r == '-' || r == ' ' || r == '/':
		default:
			return "", false
		}
	}
	if len(d) != 11 {
		return "", false
	}
	cpf := string(d)
	if wire.CPFProblem(cpf) != "" {
		return "", false
	}
	return cpf, true
}
