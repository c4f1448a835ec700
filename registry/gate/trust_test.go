package gate_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/blocklist/wire"
	"github.com/juizado/juizado/registry/gate"
)

// recorded is a court's answer as a man in the middle keeps it: status,
// signature headers and the exact body.
type recorded struct {
	status      int
	keyID, sig  string
	body        []byte
	contentType string
}

// record fetches path from the court as the agent would and keeps the answer.
func (c *court) record(t *testing.T, path string) recorded {
	t.Helper()
	resp, b := c.fetch(t, path)
	return recorded{status: resp.StatusCode, keyID: resp.Header.Get(wire.HeaderKeyID), sig: resp.Header.Get(wire.HeaderSignature),
		body: b, contentType: resp.Header.Get("Content-Type")}
}

// answer makes resp the recorded answer r (the man in the middle's edit).
func (r recorded) answer(resp *http.Response) []byte {
	resp.StatusCode, resp.Status = r.status, strconv.Itoa(r.status)+" "+http.StatusText(r.status)
	resp.Header.Del(wire.HeaderKeyID)
	resp.Header.Del(wire.HeaderSignature)
	resp.Header.Del("Content-Encoding")
	if r.keyID != "" {
		resp.Header.Set(wire.HeaderKeyID, r.keyID)
		resp.Header.Set(wire.HeaderSignature, r.sig)
	}
	if r.contentType != "" {
		resp.Header.Set("Content-Type", r.contentType)
	}
	return r.body
}

// onPath is an edit that answers the requests whose path ends with suffix
// with f, and leaves the others alone.
func onPath(routes map[string]func(*http.Response, []byte) []byte) *func(*http.Response, []byte) []byte {
	f := func(resp *http.Response, b []byte) []byte {
		for suffix, g := range routes {
			if strings.HasSuffix(resp.Request.URL.Path, suffix) {
				return g(resp, b)
			}
		}
		return b
	}
	return &f
}

// proxiedCourt is bannedCourt (at now) behind a man in the middle whose
// edit the test sets (mitm), with an agent clock at now.
func proxiedCourt(t *testing.T, now time.Time) (*court, *atomic.Pointer[func(*http.Response, []byte) []byte], *httptest.Server, *agentClock) {
	t.Helper()
	c := bannedCourt(t, now)
	edit := &atomic.Pointer[func(*http.Response, []byte) []byte]{}
	return c, edit, mitm(t, c.http.URL, edit), &agentClock{t: now}
}

// trustStatus is the agent's GET /status lines this file reads.
type trustStatus struct {
	Courts []struct {
		Version          int64    `json:"version"`
		AgeSeconds       float64  `json:"age_seconds"`
		LastError        string   `json:"last_error"`
		ClockSkewSeconds *float64 `json:"clock_skew_seconds"`
		RollbackRefused  *int64   `json:"rollback_refused"`
	} `json:"courts"`
}

func trustStatusOf(t *testing.T, a *gate.Agent) trustStatus {
	t.Helper()
	rec := serve(a, "GET", "/status")
	var st trustStatus
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &st) != nil || len(st.Courts) != 1 || st.Courts[0].RollbackRefused == nil ||
		!strings.Contains(rec.Body.String(), `"clock_skew_seconds":`) {
		t.Fatalf("GET /status: %d %s (want clock_skew_seconds and rollback_refused)", rec.Code, rec.Body)
	}
	return st
}

// API.md "Gate agent", freshness and anti-rollback (court side): a feed
// page signs court_time (the court's clock) and echoes nonce= as nonce; a
// nonce above 64 characters, or with a control character, is 422
// problem+json naming nonce; two pages in the same clock tick carry
// increasing times; the JSON snapshot signs court_time too; the key list
// is signed with the court's current key like the snapshot.
func TestCourtSignsCourtTimeAndEchoesTheNonce(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	page := func(q string) (wire.FeedPage[string], time.Time) {
		t.Helper()
		resp, b := c.fetch(t, "/api/v1/blocklist/changes?"+q)
		var p wire.FeedPage[string]
		if resp.StatusCode != 200 || !c.verifies(t, resp, b) || json.Unmarshal(b, &p) != nil {
			t.Fatalf("changes?%s: %d %s", q, resp.StatusCode, b)
		}
		if !strings.Contains(string(b), `"court_time":"`) {
			t.Fatalf("page without court_time: %s", b)
		}
		return p, p.CourtTime
	}
	n64 := strings.Repeat("n", wire.MaxNonce)
	p1, t1 := page("since=0&nonce=" + n64)
	p2, t2 := page("since=0&nonce=abc")
	if p1.Nonce != n64 || p2.Nonce != "abc" {
		t.Fatalf("nonce echoed %q and %q", p1.Nonce, p2.Nonce)
	}
	if t1.Before(now) || t1.After(now.Add(time.Second)) || !t2.After(t1) {
		t.Fatalf("court times %v then %v, want the court's clock %v, increasing", t1, t2, now)
	}
	if p, _ := page("since=0"); p.Nonce != "" {
		t.Fatalf("a page asked with no nonce echoes %q", p.Nonce)
	}
	for _, bad := range []string{strings.Repeat("n", wire.MaxNonce+1), "a%0Ab"} {
		resp, b := c.fetch(t, "/api/v1/blocklist/changes?since=0&nonce="+bad)
		if resp.StatusCode != 422 || resp.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(b), `"field":"nonce"`) {
			t.Errorf("nonce %q: %d %s %s, want 422 problem+json on nonce", bad, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	resp, b := c.fetch(t, "/api/v1/blocklist")
	var snap gate.Snapshot
	if resp.StatusCode != 200 || !c.verifies(t, resp, b) || json.Unmarshal(b, &snap) != nil || snap.CourtTime.Before(now) || snap.CourtTime.After(now.Add(time.Second)) {
		t.Fatalf("snapshot: %d court_time %v %s", resp.StatusCode, snap.CourtTime, b[max(0, len(b)-120):])
	}
	resp, b = c.fetch(t, "/api/v1/blocklist/key")
	if resp.StatusCode != 200 || resp.Header.Get(wire.HeaderKeyID) == "" || !c.verifies(t, resp, b) || !strings.Contains(string(b), c.pub(t)) {
		t.Fatalf("key list not signed by the current key: %d %v %s", resp.StatusCode, resp.Header, b)
	}
}

// API.md "Gate agent" (issue 32, item 1): someone between the gate and
// the court answers the feed with a bare, unsigned 410 and the snapshot
// with an older one, correctly signed, recorded earlier. The 410 is a hint:
// the agent asks for a snapshot, refuses the older one (rollback_refused,
// last_error), keeps its copy (both bans still block) and its version;
// after a restart, and even with its stored snapshot damaged and set aside,
// the older one is still refused (the highest version applied is kept in
// data_dir); the court's own answers are taken again once the man in the
// middle is gone.
func TestGateAgentRefusesAnOlderSnapshotAfterAnUnsignedGone(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c, edit, px, clk := proxiedCourt(t, now)
	old := c.record(t, "/api/v1/blocklist")
	dir := t.TempDir()
	cfg := gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{c.pub(t)}}
	a := newAgent(t, dir, clk, nil, cfg)
	mustSync(t, a)
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	c.ban(t, cpfOther, "2025-06-01", "2026-01-01", "")
	mustSync(t, a)
	held := a.Status().Courts[0].Version
	gone := recorded{status: http.StatusGone, body: []byte("gone")}
	edit.Store(onPath(map[string]func(*http.Response, []byte) []byte{
		"/changes":          func(r *http.Response, _ []byte) []byte { return gone.answer(r) },
		"/api/v1/blocklist": func(r *http.Response, _ []byte) []byte { return old.answer(r) },
	}))
	refusedOnce := func(a *gate.Agent, what string) {
		t.Helper()
		if err := a.Sync(context.Background()); err == nil {
			t.Fatalf("%s: the older snapshot was taken", what)
		}
		st := trustStatusOf(t, a).Courts[0]
		if st.Version != held || *st.RollbackRefused != 1 || !strings.Contains(st.LastError, "rollback") {
			t.Fatalf("%s: %+v, want version %d kept, rollback_refused 1 and the reason", what, st, held)
		}
		for _, cpf := range []string{cpfRio, cpfPoa, cpfOther} {
			if r := check(t, a, cpf); !r.Blocked {
				t.Fatalf("%s: %s answers free: %+v", what, cpf, r)
			}
		}
		if m := serve(a, "GET", "/metrics").Body.String(); !strings.Contains(m, "gate_court_rollback_refused_total{") {
			t.Errorf("%s: no gate_court_rollback_refused_total in the metrics", what)
		}
	}
	refusedOnce(a, "online")
	refusedOnce(newAgent(t, dir, clk, nil, cfg), "after a restart")
	snaps, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "snapshots", "*.json"))
	if len(snaps) != 1 {
		t.Fatalf("stored snapshots: %v", snaps)
	}
	b, err := os.ReadFile(snaps[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1 // damage: the stored copy is set aside at the next start
	if err := os.WriteFile(snaps[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	d := newAgent(t, dir, clk, nil, cfg)
	if err := d.Sync(context.Background()); err == nil {
		t.Fatalf("damaged store: the older snapshot was taken (%+v)", d.Status())
	}
	if st := trustStatusOf(t, d).Courts[0]; *st.RollbackRefused != 1 || !strings.Contains(st.LastError, "rollback") {
		t.Fatalf("damaged store: %+v, want the older snapshot refused as a rollback", st)
	}
	edit.Store(nil)
	mustSync(t, d)
	if st := d.Status().Courts[0]; st.Version != held || st.LastError != "" || !check(t, d, cpfOther).Blocked {
		t.Fatalf("the court's own snapshot after the man in the middle: %+v", st)
	}
}

// API.md "Gate agent" (issue 32, item 1): a page recorded earlier (signed,
// empty) and replayed for every poll does not keep the gate fresh: it does
// not echo the nonce of the request, it is refused (last_error says so)
// and nothing of it confirms the copy, so past max_age the checks answer
// stale and /status's age_seconds says how old the copy is. The court's own
// pages confirm it again.
func TestGateAgentReplayedPageLeavesItStale(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c, edit, px, clk := proxiedCourt(t, now)
	var mu sync.Mutex
	var page recorded
	keep := func(r *http.Response, b []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		page = recorded{status: r.StatusCode, keyID: r.Header.Get(wire.HeaderKeyID), sig: r.Header.Get(wire.HeaderSignature), body: b,
			contentType: r.Header.Get("Content-Type")}
		return b
	}
	edit.Store(onPath(map[string]func(*http.Response, []byte) []byte{"/changes": keep}))
	a := newAgent(t, t.TempDir(), clk, nil, gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{c.pub(t)}})
	mustSync(t, a)
	if st := trustStatusOf(t, a).Courts[0]; st.AgeSeconds != 0 || st.LastError != "" {
		t.Fatalf("after the court's page: %+v", st)
	}
	mu.Lock()
	rec := page
	mu.Unlock()
	if !strings.Contains(string(rec.body), `"nonce":"`) {
		t.Fatalf("recorded page without the agent's nonce: %s", rec.body)
	}
	edit.Store(onPath(map[string]func(*http.Response, []byte) []byte{"/changes": func(r *http.Response, _ []byte) []byte { return rec.answer(r) }}))
	for i := 1; i <= 3; i++ {
		clk.Set(now.Add(time.Duration(i) * 30 * time.Minute))
		if err := a.Sync(context.Background()); err == nil {
			t.Fatalf("replayed page %d taken", i)
		}
	}
	st := trustStatusOf(t, a).Courts[0]
	if st.AgeSeconds != 90*60 || !strings.Contains(st.LastError, "nonce") || !strings.Contains(st.LastError, "replayed") {
		t.Fatalf("after 90 minutes of replays: %+v, want age 5400 s and the replay in last_error", st)
	}
	if r := check(t, a, cpfRio); !r.Blocked || !r.Stale {
		t.Fatalf("past max_age (1 h) with a replayed page: %+v, want blocked and stale", r)
	}
	edit.Store(nil)
	mustSync(t, a)
	if r := check(t, a, cpfRio); r.Stale || a.Status().Courts[0].AgeSeconds != 0 {
		t.Fatalf("the court's page again: %+v %+v", r, a.Status())
	}
}

// API.md "Gate agent" (issue 32, item 1): a forged answer names a key the
// agent does not know, so it reads the key list, which the man in the
// middle answers unsigned, then signed by a key of its own, then as the
// court's list with the pinned key's not_after changed (the court's
// signature kept), each time with the pinned key's not_after in the past:
// every one is refused and nothing of it retires the pinned key, during
// the run or after a restart (an earlier agent's retired.json that retired
// it is set aside, not read); the court's pages are taken once the man in
// the middle is gone.
func TestGateAgentNeverRetiresAPinnedKeyOnUnsignedData(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c, edit, px, clk := proxiedCourt(t, now)
	pinned := c.pub(t)
	raw, _ := base64.StdEncoding.DecodeString(pinned)
	pinnedID := wire.KeyID(raw)
	past := now.Add(-24 * time.Hour).UTC().Format(time.RFC3339)
	forged := []byte(`{"keys":[{"id":"` + pinnedID + `","public_key":"` + pinned + `","not_after":"` + past + `"}]}`)
	_, evil, _ := ed25519.GenerateKey(rand.Reader)
	evilID := wire.KeyID(evil.Public().(ed25519.PublicKey))
	real := c.record(t, "/api/v1/blocklist/key")
	altered := []byte(strings.Replace(string(real.body), `"not_after":null`, `"not_after":"`+past+`"`, 1))
	if string(altered) == string(real.body) {
		t.Fatalf("key list without a current key: %s", real.body)
	}
	lists := []struct {
		name string
		list recorded
		want string
	}{
		{"unsigned", recorded{status: 200, body: forged, contentType: "application/json"}, "key list: the response has no signature"},
		{"signed by another key", recorded{status: 200, body: forged, contentType: "application/json", keyID: evilID,
			sig: base64.StdEncoding.EncodeToString(ed25519.Sign(evil, forged))}, "key list: signed by unknown key"},
		{"the court's list altered", recorded{status: 200, body: altered, contentType: "application/json", keyID: real.keyID, sig: real.sig},
			"key list: signature does not verify"},
	}
	dir := t.TempDir()
	cfg := gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{pinned}}
	a := newAgent(t, dir, clk, nil, cfg)
	mustSync(t, a)
	unknownKey := func(r *http.Response, b []byte) []byte {
		r.Header.Set(wire.HeaderKeyID, evilID)
		return b
	}
	for _, l := range lists {
		l := l
		edit.Store(onPath(map[string]func(*http.Response, []byte) []byte{
			"/changes": unknownKey,
			"/key":     func(r *http.Response, _ []byte) []byte { return l.list.answer(r) },
		}))
		if err := a.Sync(context.Background()); err == nil || !strings.Contains(a.Status().Courts[0].LastError, l.want) {
			t.Fatalf("%s: %v %+v, want %q", l.name, err, a.Status().Courts[0], l.want)
		}
	}
	if lists, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "keylists", "*")); len(lists) != 0 {
		t.Fatalf("refused key lists stored: %v", lists)
	}
	edit.Store(nil)
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	if err := a.Sync(context.Background()); err != nil || !check(t, a, cpfPoa).Blocked {
		t.Fatalf("the pinned key after the forged lists: %v %+v", err, a.Status())
	}
	// An earlier agent retired the pinned key from an unsigned list.
	courtDir, _ := filepath.Glob(filepath.Join(dir, "courts", "*"))
	poisoned := filepath.Join(courtDir[0], "retired.json")
	if err := os.WriteFile(poisoned, []byte(`{"`+pinnedID+`":"`+past+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	b := newAgent(t, dir, clk, nil, cfg)
	c.ban(t, cpfOther, "2025-06-01", "2026-01-01", "")
	if err := b.Sync(context.Background()); err != nil || !check(t, b, cpfOther).Blocked {
		t.Fatalf("after a restart with a retired.json retiring the pinned key: %v %+v", err, b.Status())
	}
	if _, err := os.Stat(poisoned + ".refused"); err != nil {
		t.Errorf("retired.json not set aside: %v", err)
	}
}

// API.md "Gate agent" (issue 32, item 1; DOMAIN.md §6, a ban in force from
// its first day to its last): a gate whose clock is 24 hours behind still
// blocks a ban that starts today at the court (it judges by the court's
// signed time, not by its own date), also restarted offline; a gate whose
// clock is 400 days ahead does not end a ban early, and ends it when the
// court's time, advanced by the time the agent counted since, passes its
// last day. /status and /metrics report the skew.
func TestGateAgentJudgesByTheCourtsTimeWhenItsClockIsWrong(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfPoa, "2025-06-10", "2025-06-20", "") // starts today
	c.ban(t, cpfRio, "2025-06-01", "2025-06-11", "") // ends tomorrow
	cfg := c.config(t)

	behind := &agentClock{t: now.Add(-24 * time.Hour)}
	dir := t.TempDir()
	a := newAgent(t, dir, behind, nil, cfg)
	mustSync(t, a)
	if r := check(t, a, cpfPoa); !r.Blocked || r.Stale {
		t.Fatalf("clock 24 h behind: a ban starting today at the court answers %+v", r)
	}
	st := trustStatusOf(t, a).Courts[0]
	if st.ClockSkewSeconds == nil || *st.ClockSkewSeconds < 86399 || *st.ClockSkewSeconds > 86401 {
		t.Fatalf("clock 24 h behind: skew %v, want about +86400 s", st.ClockSkewSeconds)
	}
	if m := serve(a, "GET", "/metrics").Body.String(); !strings.Contains(m, "gate_court_clock_skew_seconds{") {
		t.Errorf("no gate_court_clock_skew_seconds in the metrics:\n%s", m)
	}

	ahead := &agentClock{t: now.Add(400 * 24 * time.Hour)}
	b := newAgent(t, t.TempDir(), ahead, nil, cfg)
	mustSync(t, b)
	if r := check(t, b, cpfRio); !r.Blocked || r.Stale {
		t.Fatalf("clock 400 days ahead: a ban in force until tomorrow answers %+v", r)
	}
	if sk := trustStatusOf(t, b).Courts[0].ClockSkewSeconds; sk == nil || *sk > -400*86400+1 || *sk < -400*86400-1 {
		t.Fatalf("clock 400 days ahead: skew %v", sk)
	}
	ahead.Set(ahead.Now().Add(2 * 24 * time.Hour)) // two days counted by the agent: the court's 12th
	if r := check(t, b, cpfRio); r.Blocked {
		t.Fatalf("two days later (the court's 12th), a ban that ended on the 11th: %+v", r)
	}
	if r := check(t, b, cpfPoa); !r.Blocked {
		t.Fatalf("two days later (the court's 12th), a ban until the 20th: %+v", r)
	}

	c.http.Close()
	behind.Set(now.Add(-24*time.Hour + time.Hour))
	r := newAgent(t, dir, behind, nil, cfg)
	if res := check(t, r, cpfPoa); !res.Blocked {
		t.Fatalf("clock 24 h behind, restarted offline: %+v", res)
	}
}
