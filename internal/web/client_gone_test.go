package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/testenv"
)

// requestLine returns the request log line of route, waiting up to 5 s for
// the server to write it.
func requestLine(t *testing.T, logs *testenv.LogBuffer, route string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "request" && m["route"] == route {
				return m
			}
		}
	}
	t.Fatalf("no request log line for %s in:\n%s", route, logs.String())
	return nil
}

// API.md "Gate agent (turn 2)": a gate agent closing its long-poll on GET
// /api/v1/blocklist/changes?wait= (restart, network cut) is a client that
// went away, not a server error: the request is logged and counted with
// 499 (nginx's "client closed request"), never 500, and no ERROR line is
// written; the same for any route. A refused input is counted with its own
// status (422), not as a 500.
func TestClientClosedRequestIs499NotServerError_GateAgent(t *testing.T) {
	f := newFixture(t)
	if rec := f.call("GET", "/api/v1/blocklist/check/46881973659", f.tokens["club"]); rec.Code != 200 {
		t.Fatalf("check: %d %s", rec.Code, rec.Body)
	}
	var version int64
	if err := f.g.Raw("SELECT coalesce(max(version), 0) FROM blocklist_versions").Scan(&version).Error; err != nil {
		t.Fatal(err)
	}
	logs := &testenv.LogBuffer{}
	srv := testenv.MustServer(t, f.g, testenv.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	ts := httptest.NewServer(srv.Echo)
	defer ts.Close()

	// The agent's long-poll, closed by the agent 500 ms into a 10 s wait.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/v1/blocklist/changes?since=%d&wait=10", ts.URL, version), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.tokens["club"])
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("the long-poll answered %d after %v, want it still waiting when the client left", resp.StatusCode, time.Since(start))
	}
	line := requestLine(t, logs, "/api/v1/blocklist/changes")
	if line["status"] != float64(499) {
		t.Errorf("request log of the closed long-poll: %v, want status 499", line)
	}

	// Any route: a request whose client is gone before the handler reads
	// the database.
	gone, stop := context.WithCancel(context.Background())
	stop()
	r := httptest.NewRequest("GET", "/api/v1/cases", nil).WithContext(gone)
	r.Header.Set("Authorization", "Bearer "+f.tokens["clerk"])
	srv.Echo.ServeHTTP(httptest.NewRecorder(), r)
	if line := requestLine(t, logs, "/api/v1/cases"); line["status"] != float64(499) {
		t.Errorf("request log of a canceled GET /api/v1/cases: %v, want status 499", line)
	}

	// A refused input keeps its status in the metrics.
	r = httptest.NewRequest("GET", "/api/v1/blocklist/changes?since=x", nil)
	r.Header.Set("Authorization", "Bearer "+f.tokens["club"])
	rec := httptest.NewRecorder()
	srv.Echo.ServeHTTP(rec, r)
	if rec.Code != 422 {
		t.Fatalf("since=x: %d %s", rec.Code, rec.Body)
	}

	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(l, `"level":"ERROR"`) {
			t.Errorf("error log line for a client that went away: %s", l)
		}
	}
	mr := httptest.NewRecorder()
	srv.Echo.ServeHTTP(mr, httptest.NewRequest("GET", "/metrics", nil))
	metrics := mr.Body.String()
	count := func(code, url string) string {
		m := regexp.MustCompile(`(?m)^juizado_http_requests_total\{code="` + code + `",host="",method="GET",url="` + regexp.QuoteMeta(url) + `"\} (\S+)$`).FindStringSubmatch(metrics)
		if m == nil {
			return ""
		}
		return m[1]
	}
	if got := count("499", "/api/v1/blocklist/changes"); got != "1" {
		t.Errorf("499 count of the feed: %q, want 1", got)
	}
	if got := count("422", "/api/v1/blocklist/changes"); got != "1" {
		t.Errorf("422 count of the feed: %q, want 1", got)
	}
	if got := count("499", "/api/v1/cases"); got != "1" {
		t.Errorf("499 count of /api/v1/cases: %q, want 1", got)
	}
	if regexp.MustCompile(`juizado_http_request_duration_seconds_count\{code="5\d\d"`).MatchString(metrics) {
		t.Errorf("a 5xx was counted:\n%s", regexp.MustCompile(`(?m)^juizado_http_requests_total.*$`).FindAllString(metrics, -1))
	}
}
