package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/testenv"
)

// The gate's check keeps every effect of the server's middleware now that
// the chain is composed once and its values are made once: each
// answer, and the 404, 405 and refusals of the same chain, carries the
// security headers and a request id; each request writes its log line with
// the same fields in the same order; each counts in the request metrics of
// its route, status and method; and each check answered is written to the
// check log (DOMAIN.md §6: "each read is logged").
func TestCheckKeepsHeadersLogMetricsAndCheckLog(t *testing.T) {
	f := newFixture(t)
	var logs bytes.Buffer
	srv := testenv.MustServer(t, f.g, testenv.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	club := f.users["club"]
	var before int64
	if err := f.g.Raw("SELECT count(*) FROM blocklist_checks WHERE user_id = ?", club.ID).Scan(&before).Error; err != nil {
		t.Fatal(err)
	}
	const check = "/api/v1/blocklist/check/468.819.736-59"
	cases := []struct {
		method, path, token string
		status              int
		route               string
	}{
		{"GET", check, f.tokens["club"], 200, "/api/v1/blocklist/check/:cpf"},
		{"GET", check, f.tokens["club"], 200, "/api/v1/blocklist/check/:cpf"}, // the token, decision and series from memory
		{"GET", check, f.tokens["club"], 200, "/api/v1/blocklist/check/:cpf"},
		{"GET", check, "", 401, "/api/v1/blocklist/check/:cpf"},
		{"GET", check, f.tokens["judge"], 403, "/api/v1/blocklist/check/:cpf"},
		{"POST", check, f.tokens["club"], 405, "/api/v1/blocklist/check/:cpf"},
		{"GET", "/api/v1/no-such-route/468.819.736-59", f.tokens["club"], 404, ""},
	}
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, tc := range cases {
		logs.Reset()
		req := httptest.NewRequest(tc.method, tc.path, nil)
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		rec := httptest.NewRecorder()
		srv.Echo.ServeHTTP(rec, req)
		what := tc.method + " " + tc.path
		if rec.Code != tc.status {
			t.Fatalf("%s: %d, want %d: %s", what, rec.Code, tc.status, rec.Body)
		}
		for h, want := range map[string]string{"X-Xss-Protection": "0", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"} {
			if got := rec.Header().Values(h); len(got) != 1 || got[0] != want {
				t.Errorf("%s: %s %q, want %q", what, h, got, want)
			}
		}
		id := rec.Header().Get("X-Request-Id")
		if !hex32.MatchString(id) {
			t.Errorf("%s: request id %q", what, id)
		}
		line := strings.TrimSpace(logs.String())
		var keys []string
		dec := json.NewDecoder(strings.NewReader(line))
		if _, err := dec.Token(); err != nil {
			t.Fatalf("%s: log %q: %v", what, line, err)
		}
		fields := map[string]any{}
		for dec.More() {
			k, _ := dec.Token()
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: log %q: %v", what, line, err)
			}
			keys = append(keys, k.(string))
			fields[k.(string)] = v
		}
		if got := strings.Join(keys, " "); got != "time level msg request_id method route status latency" {
			t.Errorf("%s: log fields %q", what, got)
		}
		if fields["msg"] != "request" || fields["level"] != "INFO" || fields["request_id"] != id || fields["method"] != tc.method ||
			fields["route"] != tc.route || fields["status"] != float64(tc.status) {
			t.Errorf("%s: log line %s", what, line)
		}
		if lat, ok := fields["latency"].(float64); !ok || lat <= 0 {
			t.Errorf("%s: latency %v", what, fields["latency"])
		}
		if ts, _ := fields["time"].(string); ts == "" {
			t.Errorf("%s: no time in %s", what, line)
		} else if at, err := time.Parse(time.RFC3339Nano, ts); err != nil || time.Since(at) > time.Minute {
			t.Errorf("%s: time %q: %v", what, ts, err)
		}
	}
	// A client's own request id is the answer's and the log line's.
	logs.Reset()
	req := httptest.NewRequest("GET", check, nil)
	req.Header.Set("Authorization", "Bearer "+f.tokens["club"])
	req.Header.Set("X-Request-Id", "gate-7-000123")
	rec := httptest.NewRecorder()
	srv.Echo.ServeHTTP(rec, req)
	if rec.Header().Get("X-Request-Id") != "gate-7-000123" || !strings.Contains(logs.String(), `"request_id":"gate-7-000123"`) {
		t.Errorf("client request id: answer %q, log %s", rec.Header().Get("X-Request-Id"), logs.String())
	}

	rec = httptest.NewRecorder()
	srv.Echo.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	metrics := rec.Body.String()
	series := func(name, code, method, url string) string {
		m := regexp.MustCompile(`(?m)^` + name + `\{code="` + code + `",host="",method="` + method + `",url="` + regexp.QuoteMeta(url) + `"\} (\S+)$`).FindStringSubmatch(metrics)
		if m == nil {
			return "missing"
		}
		return m[1]
	}
	for _, name := range []string{"juizado_http_requests_total", "juizado_http_request_duration_seconds_count", "juizado_http_request_size_bytes_count", "juizado_http_response_size_bytes_count"} {
		if got := series(name, "200", "GET", "/api/v1/blocklist/check/:cpf"); got != "4" {
			t.Errorf("%s of the check's 200s: %s, want 4", name, got)
		}
	}
	if got := series("juizado_http_requests_total", "405", "POST", "/api/v1/blocklist/check/:cpf"); got != "1" {
		t.Errorf("405s counted: %s", got)
	}
	if got := series("juizado_http_requests_total", "404", "GET", ""); got != "1" {
		t.Errorf("404s counted: %s", got)
	}
	if strings.Contains(metrics, "no-such-route") || strings.Contains(metrics, "468.819") {
		t.Error("a raw path reached the metrics")
	}
	var refused float64
	for _, m := range regexp.MustCompile(`(?m)^juizado_http_requests_total\{code="(\d+)",host="",method="GET",url="/api/v1/blocklist/check/:cpf"\} (\S+)$`).FindAllStringSubmatch(metrics, -1) {
		if m[1] != "200" {
			var n float64
			fmt.Sscan(m[2], &n)
			refused += n
		}
	}
	if refused != 2 {
		t.Errorf("the refused checks (401, 403) counted %v times, want 2", refused)
	}

	// The four checks answered reach the check log (written off the
	// request path within moments).
	deadline := time.Now().Add(5 * time.Second)
	for {
		var n int64
		if err := f.g.Raw("SELECT count(*) FROM blocklist_checks WHERE user_id = ? AND cpf = '46881973659'", club.ID).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		if n-before == 4 {
			break
		}
		if n-before > 4 || time.Now().After(deadline) {
			t.Fatalf("check log: %d records, want 4", n-before)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A gate's revoked token stops checking within the 5 s the server keeps a
// verified token's user in memory, though its user, domain and Casbin
// decision were answered from memory until then.
func TestCheckRefusesARevokedTokenWithinTheCacheWindow(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	club := f.users["club"]
	tok, err := accounts.NewToken(ctx, f.g, club.ID, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	const check = "/api/v1/blocklist/check/46881973659"
	for i := 0; i < 3; i++ {
		if rec := f.call("GET", check, tok); rec.Code != 200 {
			t.Fatalf("fresh token: %d %s", rec.Code, rec.Body)
		}
	}
	toks, err := accounts.ListTokens(ctx, f.g, club.ID)
	if err != nil {
		t.Fatal(err)
	}
	revoked := toks[len(toks)-1]
	if _, err := accounts.RevokeToken(ctx, f.g, revoked.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for {
		rec := f.call("GET", check, tok)
		if rec.Code == 401 {
			break
		}
		if rec.Code != 200 || time.Since(start) > 6*time.Second {
			t.Fatalf("revoked token after %v: %d %s", time.Since(start), rec.Code, rec.Body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The club's other token still checks: only the revoked one is gone.
	if rec := f.call("GET", check, f.tokens["club"]); rec.Code != 200 {
		t.Errorf("the club's other token: %d", rec.Code)
	}
}
