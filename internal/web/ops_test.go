package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/testenv"
)

// A client's Host header never becomes a metrics label: anyone could add
// series without end.
func TestMetricsIgnoreHostHeader(t *testing.T) {
	f := newFixture(t)
	for _, h := range []string{"evil-1.example", "evil-2.example"} {
		req := httptest.NewRequest("GET", "/healthz", nil)
		req.Host = h
		f.srv.Echo.ServeHTTP(httptest.NewRecorder(), req)
	}
	rec := f.call("GET", "/metrics", "")
	if strings.Contains(rec.Body.String(), "evil-") {
		t.Fatal("the Host header reached the metrics labels")
	}
	if !strings.Contains(rec.Body.String(), `url="/healthz"`) {
		t.Fatal("no series for /healthz")
	}
}

// Every answer carries a request id (32 hex digits, distinct per request)
// and the request's JSON log line names it, its route and status, never the
// CPF of the path.
func TestRequestIDInAnswerAndLog(t *testing.T) {
	f := newFixture(t)
	var logs bytes.Buffer
	srv := testenv.MustServer(t, f.g, testenv.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	ids := map[string]bool{}
	for i := 0; i < 50; i++ {
		req := httptest.NewRequest("GET", "/api/v1/blocklist/check/468.819.736-59", nil)
		req.Header.Set("Authorization", "Bearer "+f.tokens["club"])
		rec := httptest.NewRecorder()
		srv.Echo.ServeHTTP(rec, req)
		id := rec.Header().Get("X-Request-Id")
		if rec.Code != 200 || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) || ids[id] {
			t.Fatalf("answer %d, request id %q (seen before: %v)", rec.Code, id, ids[id])
		}
		ids[id] = true
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	var last map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if !ids[last["request_id"].(string)] || last["route"] != "/api/v1/blocklist/check/:cpf" || last["status"] != float64(200) {
		t.Errorf("log line %v", last)
	}
	if strings.Contains(logs.String(), "46881973659") || strings.Contains(logs.String(), "468.819.736-59") {
		t.Error("the CPF reached the request log")
	}
}

// /metrics gives the blocklist version this instance serves, its entries,
// and how many committed versions it has not served yet.
func TestBlocklistMetrics(t *testing.T) {
	f := newFixture(t)
	if rec := f.call("GET", "/api/v1/blocklist/check/46881973659", f.tokens["club"]); rec.Code != 200 {
		t.Fatalf("check: %d %s", rec.Code, rec.Body)
	}
	var v struct {
		Version int64
		Entries int64
	}
	if err := f.g.Raw("SELECT version, entries FROM blocklist_versions ORDER BY version DESC LIMIT 1").Scan(&v).Error; err != nil || v.Version == 0 {
		t.Fatalf("no version made by the check: %v", err)
	}
	metric := func(name string) string {
		body := f.call("GET", "/metrics", "").Body.String()
		m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s missing from /metrics", name)
		}
		return m[1]
	}
	if got := metric("juizado_blocklist_version"); got != fmt.Sprint(v.Version) {
		t.Errorf("version %s, want %d", got, v.Version)
	}
	if got := metric("juizado_blocklist_entries"); got != fmt.Sprint(v.Entries) {
		t.Errorf("entries %s, want %d", got, v.Entries)
	}
	if got := metric("juizado_blocklist_feed_lag_versions"); got != "0" {
		t.Errorf("lag %s, want 0", got)
	}
	// A version committed by another instance, not yet served here.
	if err := f.g.Exec("INSERT INTO blocklist_versions (generated_at, digest, entries) SELECT now(), '\\x00', entries FROM blocklist_versions ORDER BY version DESC LIMIT 1").Error; err != nil {
		t.Fatal(err)
	}
	if got := metric("juizado_blocklist_feed_lag_versions"); got != "1" {
		t.Errorf("lag %s after another instance's version, want 1", got)
	}
	if got := metric("juizado_blocklist_check_log_pending"); got == "" {
		t.Error("no check log gauge")
	}
}
