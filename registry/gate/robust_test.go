package gate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry/gate"
)

// mitm is a proxy in front of target that passes each court response
// through edit while edit is set (nil: unchanged).
func mitm(t *testing.T, target string, edit *atomic.Pointer[func(*http.Response, []byte) []byte]) *httptest.Server {
	t.Helper()
	u, _ := url.Parse(target)
	p := httputil.NewSingleHostReverseProxy(u)
	d := p.Director
	p.Director = func(r *http.Request) { d(r); r.Header.Del("Accept-Encoding") }
	p.ModifyResponse = func(resp *http.Response) error {
		b, _ := io.ReadAll(resp.Body)
		if f := edit.Load(); f != nil {
			b = (*f)(resp, b)
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		resp.ContentLength = int64(len(b))
		resp.Header.Del("Content-Length")
		return nil
	}
	s := httptest.NewServer(p)
	t.Cleanup(s.Close)
	return s
}

// API.md "Signed responses": a snapshot or feed page that comes without
// the signature headers is refused, and last_error says that the response
// has no signature (not "signed by unknown key \"\"").
func TestGateAgentRefusesAnUnsignedResponseSayingSo(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	var edit atomic.Pointer[func(*http.Response, []byte) []byte]
	strip := func(resp *http.Response, b []byte) []byte {
		resp.Header.Del("X-Juizado-Key-Id")
		resp.Header.Del("X-Juizado-Signature")
		return b
	}
	edit.Store(&strip)
	px := mitm(t, c.http.URL, &edit)
	clk := &agentClock{t: now}
	const want = "the response has no signature (X-Juizado-Key-Id/X-Juizado-Signature missing)"
	a := newAgent(t, t.TempDir(), clk, nil, gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{c.pub(t)}})
	if err := a.Sync(context.Background()); err == nil || !strings.Contains(a.Status().Courts[0].LastError, want) {
		t.Fatalf("unsigned snapshot: %v %+v", err, a.Status())
	}
	edit.Store(nil)
	mustSync(t, a)
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	edit.Store(&strip)
	if err := a.Sync(context.Background()); err == nil || !strings.Contains(a.Status().Courts[0].LastError, want) {
		t.Fatalf("unsigned feed page: %v %+v", err, a.Status())
	}
	if r := check(t, a, cpfPoa); r.Blocked {
		t.Fatalf("unsigned page applied: %+v", r)
	}
}

// README "Gate agent" (store): a .sig file holds the key id and the
// signature only (no stray "Body" field); a store written with
// "Body":null in its .sig files still loads.
func TestGateAgentSigFilesHoldKeyAndSignatureOnly(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := c.config(t)
	a := newAgent(t, dir, clk, nil, cfg)
	mustSync(t, a)
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	mustSync(t, a)
	want := a.Status().Courts[0]
	sigs, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "*", "*.sig"))
	if len(sigs) != 2 {
		t.Fatalf("sig files %v, want the snapshot's and the page's", sigs)
	}
	for _, n := range sigs {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || len(m) != 2 || m["key_id"] == "" || m["signature"] == "" {
			t.Fatalf("%s: %s, want only key_id and signature", n, b)
		}
		// As the agent wrote them before: with "Body":null.
		old, _ := json.Marshal(map[string]any{"Body": nil, "key_id": m["key_id"], "signature": m["signature"]})
		if err := os.WriteFile(n, old, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c.http.Close()
	b := newAgent(t, dir, clk, nil, cfg)
	if st := b.Status().Courts[0]; st.Version != want.Version || st.Entries != 2 {
		t.Fatalf("store with \"Body\":null: %+v, want %+v", st, want)
	}
	if r := check(t, b, cpfPoa); !r.Blocked {
		t.Fatalf("page of a .sig with \"Body\":null not loaded: %+v", r)
	}
}

// offlineAgent is an agent of one court never reached (no network used).
func offlineAgent(t *testing.T) *gate.Agent {
	t.Helper()
	return newAgent(t, t.TempDir(), &agentClock{t: day("2025-06-10", 15, 0)}, nil,
		gate.CourtConfig{URL: "http://127.0.0.1:1", Token: "t", Keys: []string{testKey}})
}

// serve answers one request of the agent's handler.
func serve(a *gate.Agent, method, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec
}

// The guide's rule on API errors (application/problem+json, RFC 9457) for
// the agent's own answers: 405 with Allow: GET for any method but GET on
// /check/{cpf}, /status and /metrics, 404 for every other path, each a
// problem with status, title and detail in Portuguese. A HEAD of a check is
// 405 and leaves no evidence: not counted in gate_checks_total, not spooled.
func TestGateAgentErrorsAreProblemJSON(t *testing.T) {
	a := offlineAgent(t)
	problem := func(rec *httptest.ResponseRecorder, method, path string, status int) {
		t.Helper()
		var p struct {
			Status        int
			Title, Detail string
		}
		if rec.Code != status || rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s %s: %d %q %s, want %d application/problem+json", method, path, rec.Code, rec.Header().Get("Content-Type"), rec.Body, status)
			return
		}
		if method == "HEAD" {
			return // no body
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != status || p.Title == "" || p.Detail == "" {
			t.Errorf("%s %s: problem %s (%v)", method, path, rec.Body, err)
		}
	}
	for _, path := range []string{"/check/" + cpfRio, "/status", "/metrics"} {
		for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"} {
			rec := serve(a, m, path)
			problem(rec, m, path, 405)
			if rec.Header().Get("Allow") != "GET" {
				t.Errorf("%s %s: Allow %q, want GET", m, path, rec.Header().Get("Allow"))
			}
		}
	}
	for _, path := range []string{"/check", "/check/", "/check/x/y", "/check/1%2F2", "/", "/nada", "/status/x", "/metrics/", "//check/" + cpfRio, "/check/../status", "/./status", "/check/" + cpfRio + "/."} {
		problem(serve(a, "GET", path), "GET", path, 404)
	}
	rec := serve(a, "GET", "/check/123")
	problem(rec, "GET", "/check/123", 422)
	if !strings.Contains(rec.Body.String(), `"field":"cpf"`) {
		t.Errorf("422: %s", rec.Body)
	}
	m := serve(a, "GET", "/metrics").Body.String()
	for _, line := range []string{`gate_checks_total{blocked="false"} 0`, `gate_checks_total{blocked="true"} 0`, "gate_spooled_checks 0"} {
		if !strings.Contains(m, line) {
			t.Errorf("after HEAD and refused requests, metrics lack %q:\n%s", line, m)
		}
	}
	if rec := serve(a, "GET", "/check/"+cpfRio); rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("GET check: %d %s", rec.Code, rec.Body)
	}
	if m := serve(a, "GET", "/metrics").Body.String(); !strings.Contains(m, `gate_checks_total{blocked="false"} 1`) || !strings.Contains(m, "gate_spooled_checks 1") {
		t.Errorf("a GET check not counted:\n%s", m)
	}
}

// API.md "Gate agent" (GET /status, /metrics): /status entries (in force)
// and upcoming (starting within 7 days) are the metrics gate_court_entries
// and gate_court_upcoming, each the same count; a court never reached is
// court "" with its url (not the url as its code).
func TestGateAgentStatusAndMetricsCountAlike(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	c.ban(t, cpfOther, "2025-06-01", "2026-01-01", "")
	c.ban(t, cpfPoa, "2025-06-13", "2025-06-14", "") // 3 days ahead
	clk := &agentClock{t: now}
	a := newAgent(t, t.TempDir(), clk, nil, c.config(t))
	mustSync(t, a)
	st := a.Status().Courts[0]
	if st.Court != "26.0100" || st.Entries != 2 || st.Upcoming != 1 {
		t.Fatalf("status %+v, want 26.0100 with 2 entries, 1 upcoming", st)
	}
	m := serve(a, "GET", "/metrics").Body.String()
	for _, line := range []string{
		`gate_court_entries{court="26.0100",url="` + c.http.URL + `"} 2`,
		`gate_court_upcoming{court="26.0100",url="` + c.http.URL + `"} 1`,
	} {
		if !strings.Contains(m, line) {
			t.Errorf("metrics lack %q:\n%s", line, m)
		}
	}
	o := offlineAgent(t)
	if st := o.Status().Courts[0]; st.Court != "" || st.URL != "http://127.0.0.1:1" || st.Version != 0 || st.AgeSeconds != -1 {
		t.Errorf("court never reached: %+v, want court \"\" and its url", st)
	}
	var raw struct {
		Courts []map[string]any `json:"courts"`
	}
	if err := json.Unmarshal(serve(o, "GET", "/status").Body.Bytes(), &raw); err != nil || raw.Courts[0]["court"] != "" || raw.Courts[0]["url"] != "http://127.0.0.1:1" {
		t.Errorf("GET /status of a court never reached: %+v %v", raw, err)
	}
}

// logBuffer collects the agent's log lines (JSON).
type logBuffer struct{ testenv.LogBuffer }

// count is the number of lines whose msg is msg.
func (l *logBuffer) count(msg string) int {
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == msg {
			n++
		}
	}
	return n
}

// loggedAgent is newAgent with max_age and a JSON logger into logs.
func loggedAgent(t *testing.T, dir string, clk *agentClock, maxAge time.Duration, logs *logBuffer, courts ...gate.CourtConfig) *gate.Agent {
	t.Helper()
	a, err := gate.New(gate.Config{DataDir: dir, Device: "portao-1", MaxAge: gate.Duration(maxAge), Courts: courts,
		Logger: slog.New(slog.NewJSONHandler(logs, nil))}, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// README "Gate agent" (store) — fail closed: one byte changed in the
// newest stored page makes the restarted agent hold the copy of the page
// before, and that copy was never the one the court confirmed: the checks
// answer stale until the court confirms again (max_age 24h, restarted a
// minute later, court unreachable), also after a second restart; the page
// and its .sig are set aside as *.refused (not deleted), the damage is
// logged and reported as store_error (and gate_court_store_error), which
// the next network error does not replace. A damaged snapshot likewise
// (the copy drops to nothing, stale).
func TestGateAgentDamagedStoreIsStaleAndReported(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := c.config(t)
	logs := &logBuffer{}
	a := loggedAgent(t, dir, clk, 24*time.Hour, logs, cfg)
	mustSync(t, a)
	var versions []int64
	for _, cpf := range []string{cpfPoa, cpfOther, cpfFourth} {
		c.ban(t, cpf, "2025-06-01", "2026-01-01", "")
		mustSync(t, a)
		versions = append(versions, a.Status().Courts[0].Version)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "pages", "*-000000003.json"))
	if len(pages) != 1 {
		t.Fatalf("page 3 stored: %v", pages)
	}
	if r := check(t, a, cpfFourth); !r.Blocked || r.Stale {
		t.Fatalf("before the damage: %+v", r)
	}
	b, _ := os.ReadFile(pages[0])
	if err := os.WriteFile(pages[0], bytes.Replace(b, []byte("Torcedor"), []byte("Torcedxr"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	c.http.Close()
	clk.Set(now.Add(time.Minute))
	r2 := loggedAgent(t, dir, clk, 24*time.Hour, logs, cfg)
	st := r2.Status().Courts[0]
	if st.Version != versions[1] || !strings.Contains(st.StoreError, "000000003") {
		t.Fatalf("restart on a damaged page: %+v, want version %d and store_error naming the page", st, versions[1])
	}
	if r := check(t, r2, cpfFourth); r.Blocked || !r.Stale {
		t.Fatalf("copy before the damaged page: %+v, want not blocked and stale", r)
	}
	if r := check(t, r2, cpfOther); !r.Blocked || !r.Stale {
		t.Fatalf("page 2 still applied: %+v", r)
	}
	for _, n := range []string{pages[0] + ".refused", strings.TrimSuffix(pages[0], ".json") + ".sig.refused"} {
		if _, err := os.Stat(n); err != nil {
			t.Errorf("damaged page not set aside: %v", err)
		}
	}
	if _, err := os.Stat(pages[0]); err == nil {
		t.Errorf("damaged page left in the store")
	}
	if logs.count("gate store damaged") != 1 {
		t.Errorf("damage not logged once:\n%s", logs)
	}
	if err := r2.Sync(context.Background()); err == nil {
		t.Fatal("sync with the court stopped: no error")
	}
	st = r2.Status().Courts[0]
	if st.LastError == "" || !strings.Contains(st.StoreError, "000000003") {
		t.Fatalf("after the network error: %+v, want both errors", st)
	}
	if m := serve(r2, "GET", "/metrics").Body.String(); !strings.Contains(m, `gate_court_store_error{court="26.0100",url="`+c.http.URL+`"} 1`) {
		t.Errorf("metrics:\n%s", m)
	}
	// Restarted again: the store is whole now, but its copy is still not
	// the confirmed one.
	r3 := loggedAgent(t, dir, clk, 24*time.Hour, logs, cfg)
	if r := check(t, r3, cpfOther); !r.Blocked || !r.Stale || r3.Status().Courts[0].Version != versions[1] {
		t.Fatalf("second restart: %+v %+v", r, r3.Status())
	}

	// A damaged snapshot: nothing left, stale, reported.
	snaps, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "snapshots", "*.json"))
	if len(snaps) != 1 {
		t.Fatalf("snapshots %v", snaps)
	}
	b, _ = os.ReadFile(snaps[0])
	if err := os.WriteFile(snaps[0], bytes.Replace(b, []byte("Torcedor"), []byte("Torcedxr"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	r4 := loggedAgent(t, dir, clk, 24*time.Hour, logs, cfg)
	st = r4.Status().Courts[0]
	if st.Version != 0 || st.Entries != 0 || !strings.Contains(st.StoreError, "snapshot") {
		t.Fatalf("restart on a damaged snapshot: %+v", st)
	}
	if r := check(t, r4, cpfRio); r.Blocked || !r.Stale {
		t.Fatalf("damaged snapshot: %+v, want stale", r)
	}
	if _, err := os.Stat(snaps[0] + ".refused"); err != nil {
		t.Errorf("damaged snapshot not set aside: %v", err)
	}
	if logs.count("gate store damaged") != 2 {
		t.Errorf("snapshot damage not logged:\n%s", logs)
	}
}

// README "Gate agent" (logging): each court error is logged when it
// changes (401, a refused signature, the court down), not at every retry,
// and the recovery once.
func TestGateAgentLogsCourtErrorsWhenTheyChange(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	var edit atomic.Pointer[func(*http.Response, []byte) []byte]
	px := mitm(t, c.http.URL, &edit)
	clk := &agentClock{t: now}
	logs := &logBuffer{}
	a := loggedAgent(t, t.TempDir(), clk, time.Hour, logs, gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{c.pub(t)}})
	syncs := func(n int, ok bool) {
		t.Helper()
		for i := 0; i < n; i++ {
			if err := a.Sync(context.Background()); (err == nil) != ok {
				t.Fatalf("sync: %v", err)
			}
		}
	}
	syncs(1, true)
	if n := logs.count("gate court error"); n != 0 {
		t.Fatalf("errors logged on a good sync:\n%s", logs)
	}
	unauthorized := func(resp *http.Response, b []byte) []byte {
		resp.StatusCode, resp.Status = 401, "401 Unauthorized"
		return b
	}
	edit.Store(&unauthorized)
	syncs(3, false)
	if n := logs.count("gate court error"); n != 1 || !strings.Contains(logs.String(), "401") {
		t.Fatalf("401 three times: %d lines\n%s", n, logs)
	}
	tampered := func(resp *http.Response, b []byte) []byte {
		if strings.Contains(resp.Request.URL.Path, "/changes") {
			b = bytes.Replace(b, []byte("Torcedor"), []byte("Torcedxr"), 1)
		}
		return b
	}
	edit.Store(&tampered)
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	syncs(3, false)
	if n := logs.count("gate court error"); n != 2 || !strings.Contains(logs.String(), "signature does not verify") {
		t.Fatalf("refused signature three times: %d lines\n%s", n, logs)
	}
	edit.Store(nil)
	syncs(2, true)
	if n := logs.count("gate court recovered"); n != 1 {
		t.Fatalf("recovery: %d lines\n%s", n, logs)
	}
	px.Close()
	syncs(3, false)
	if n := logs.count("gate court error"); n != 3 {
		t.Fatalf("court down three times: %d error lines\n%s", n, logs)
	}
}

// README "Gate agent" (sync): after a restart, the first contact with a
// reachable court is an immediate poll, so the copy is confirmed at once
// (age about 0) rather than at the end of the first long-poll (25 s).
func TestGateAgentFirstContactConfirmsAtOnce(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := c.config(t)
	if err := newAgent(t, dir, clk, nil, cfg).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	clk.Set(now.Add(30 * time.Minute))
	b := newAgent(t, dir, clk, nil, cfg)
	if age := b.Status().Courts[0].AgeSeconds; age < 1799 {
		t.Fatalf("age after the restart %v, want the stored 30 min", age)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); b.Run(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(5 * time.Second)
	for b.Status().Courts[0].AgeSeconds != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("age %v 5 s after the start, want 0 (confirmed by the first poll)", b.Status().Courts[0].AgeSeconds)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
