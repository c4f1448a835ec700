package gate_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/gate"
)

const (
	cpfFourth = "12345678909"
	cpfFifth  = "98765432100"
)

// fetch GETs path at the court with the club token and extra header pairs.
func (c *court) fetch(t *testing.T, path string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", c.http.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept-Encoding", "identity")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// verifies checks the body's Ed25519 signature headers with the court's key.
func (c *court) verifies(t *testing.T, resp *http.Response, body []byte) bool {
	t.Helper()
	pub, _ := base64.StdEncoding.DecodeString(c.pub(t))
	sig, err := base64.StdEncoding.DecodeString(resp.Header.Get("X-Juizado-Signature"))
	return err == nil && ed25519.Verify(ed25519.PublicKey(pub), body, sig)
}

func cpfs(es []gate.Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.CPF)
	}
	slices.Sort(out)
	return out
}

// Issue 20 point 2, API.md "Gate agent" (upcoming): a final ban whose first
// day is 3 days ahead is published in the snapshot's upcoming, not in its
// items, and the court's check does not block on it; a ban sentenced later
// with a first day 7 days ahead reaches the agent through the feed's head
// page with no new version, one 8 days ahead is not published yet. Cut off
// from the court (server stopped) and restarted from its data_dir with no
// network, the agent blocks each ban from its first day's midnight in
// America/Sao_Paulo and stops after its last day.
func TestUpcomingBanStartsAtTheAgentOffline(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	c.ban(t, cpfPoa, "2025-06-13", "2025-06-14", "") // 3 days ahead
	resp, body := c.fetch(t, "/api/v1/blocklist")
	var snap gate.Snapshot
	if resp.StatusCode != 200 || json.Unmarshal(body, &snap) != nil || !c.verifies(t, resp, body) {
		t.Fatalf("snapshot: %d %s", resp.StatusCode, body)
	}
	if got := cpfs(snap.Items); !slices.Equal(got, []string{cpfRio}) {
		t.Errorf("items %v, want only the ban in force", got)
	}
	if got := cpfs(snap.Upcoming); !slices.Equal(got, []string{cpfPoa}) || snap.Upcoming[0].FirstDay != "2025-06-13" || snap.AsOf != "2025-06-10" {
		t.Errorf("upcoming %v as of %s, want the ban starting on the 13th as of the 10th", got, snap.AsOf)
	}
	if _, b := c.fetch(t, "/api/v1/blocklist/check/"+cpfPoa); !bytes.Contains(b, []byte(`"blocked":false`)) {
		t.Errorf("court's check blocks an upcoming ban: %s", b)
	}
	version := snap.Version

	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := c.config(t)
	a := newAgent(t, dir, clk, nil, cfg)
	mustSync(t, a)
	if r := check(t, a, cpfPoa); r.Blocked {
		t.Fatalf("upcoming ban blocks before its first day: %+v", r)
	}
	c.ban(t, cpfOther, "2025-06-17", "2025-06-18", "")  // 7 days ahead: published
	c.ban(t, cpfFourth, "2025-06-18", "2025-06-19", "") // 8 days ahead: not yet
	mustSync(t, a)
	st := a.Status().Courts[0]
	if st.Version != version || st.Upcoming != 2 || st.Entries != 1 {
		t.Fatalf("after the feed: %+v, want version %d, 1 entry, 2 upcoming", st, version)
	}
	// The head page repeats the set at each poll: kept on disk once.
	pages := func() int { n, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "pages", "*.json")); return len(n) }
	before := pages()
	if err := a.Sync(context.Background()); err != nil || pages() != before || before == 0 {
		t.Fatalf("poll with the same upcoming set: %v, %d pages then %d", err, before, pages())
	}

	c.http.Close() // the network is cut
	b := newAgent(t, dir, clk, nil, cfg)
	for _, ag := range []*gate.Agent{a, b} {
		for _, tc := range []struct {
			at      time.Time
			cpf     string
			blocked bool
		}{
			{day("2025-06-12", 23, 59), cpfPoa, false},
			{day("2025-06-13", 0, 0), cpfPoa, true}, // first day, midnight in São Paulo
			{day("2025-06-14", 23, 59), cpfPoa, true},
			{day("2025-06-15", 0, 0), cpfPoa, false}, // after the last day
			{day("2025-06-15", 0, 0), cpfRio, true},
			{day("2025-06-16", 23, 59), cpfOther, false},
			{day("2025-06-17", 0, 0), cpfOther, true}, // learned from a feed page, 7 days ahead
			{day("2025-06-19", 0, 0), cpfOther, false},
			{day("2025-06-18", 12, 0), cpfFourth, false}, // never published while the agent was online
		} {
			clk.Set(tc.at)
			r := check(t, ag, tc.cpf)
			if r.Blocked != tc.blocked {
				t.Errorf("%s at %s: blocked %v, want %v (%+v)", tc.cpf, tc.at, r.Blocked, tc.blocked, r)
			}
			if r.Blocked && (r.Bans[0].Court != "26.0100" || r.Versions["26.0100"] != version) {
				t.Errorf("%s answer: %+v", tc.cpf, r)
			}
		}
	}
	clk.Set(day("2025-06-13", 9, 0))
	if r := check(t, b, cpfPoa); !r.Blocked || !r.Stale {
		t.Errorf("offline for more than max_age: %+v, want blocked and stale", r)
	}
}

// API.md "Public list and blocklist" (strong ETag per representation) and
// "Gate agent": the JSON snapshot's ETag changes with the court's date even
// when the version does not (its upcoming set counts from that date), and
// when a ban that starts later is sentenced; an old ETag no longer gives
// 304; every body is signed as served; the items, the version, the CSV
// and the check answers stay those of the version. The feed carries the
// upcoming set on the page that reaches the head, not on earlier pages.
func TestSnapshotETagMovesWithTheDateNotTheItems(t *testing.T) {
	c := newCourt(t, "26.0100", day("2025-06-10", 15, 0))
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", "")
	c.ban(t, cpfPoa, "2025-06-15", "2025-06-20", "") // 5 days ahead
	type shot struct {
		etag, version string
		items         json.RawMessage
		snap          gate.Snapshot
	}
	get := func() shot {
		t.Helper()
		resp, body := c.fetch(t, "/api/v1/blocklist")
		var s shot
		var raw struct {
			Items json.RawMessage `json:"items"`
		}
		if resp.StatusCode != 200 || json.Unmarshal(body, &raw) != nil || json.Unmarshal(body, &s.snap) != nil || !c.verifies(t, resp, body) {
			t.Fatalf("snapshot: %d %s", resp.StatusCode, body)
		}
		s.etag, s.version, s.items = resp.Header.Get("ETag"), resp.Header.Get("X-Blocklist-Version"), raw.Items
		return s
	}
	checks := func() string {
		_, a := c.fetch(t, "/api/v1/blocklist/check/"+cpfRio)
		_, b := c.fetch(t, "/api/v1/blocklist/check/"+cpfPoa)
		return string(a) + string(b)
	}
	csv := func() (string, string) {
		resp, b := c.fetch(t, "/api/v1/blocklist?format=csv")
		return resp.Header.Get("ETag"), string(b)
	}
	s1 := get()
	chk1 := checks()
	csvTag1, csv1 := csv()
	if !strings.Contains(chk1, `"blocked":true`) || strings.Count(chk1, `"blocked":false`) != 1 {
		t.Fatalf("checks: %s", chk1)
	}
	if resp, _ := c.fetch(t, "/api/v1/blocklist", "If-None-Match", s1.etag); resp.StatusCode != 304 {
		t.Fatalf("same day, same ETag: %d", resp.StatusCode)
	}

	c.clk.Set(day("2025-06-11", 9, 0)) // the next day: nothing starts or ends
	s2 := get()
	if s2.version != s1.version || s2.etag == s1.etag || !bytes.Equal(s2.items, s1.items) || s2.snap.AsOf != "2025-06-11" ||
		!slices.Equal(cpfs(s2.snap.Upcoming), []string{cpfPoa}) {
		t.Fatalf("next day: version %s→%s, ETag %s→%s, as_of %s, upcoming %v, items same %v",
			s1.version, s2.version, s1.etag, s2.etag, s2.snap.AsOf, cpfs(s2.snap.Upcoming), bytes.Equal(s2.items, s1.items))
	}
	if resp, _ := c.fetch(t, "/api/v1/blocklist", "If-None-Match", s1.etag); resp.StatusCode != 200 {
		t.Errorf("yesterday's ETag: %d, want 200", resp.StatusCode)
	}
	if resp, _ := c.fetch(t, "/api/v1/blocklist", "If-None-Match", s2.etag); resp.StatusCode != 304 {
		t.Errorf("today's ETag: %d, want 304", resp.StatusCode)
	}
	if tag, body := csv(); tag != csvTag1 || body != csv1 {
		t.Errorf("CSV changed with the date: %s→%s", csvTag1, tag)
	}
	if chk := checks(); chk != chk1 {
		t.Errorf("check answers changed with the date:\n%s\n%s", chk1, chk)
	}

	// A sentence of a ban that starts later: a new body within a second or
	// so (the prepared body's freshness), the same version.
	c.ban(t, cpfOther, "2025-06-13", "2025-06-14", "")
	var s3 shot
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if s3 = get(); s3.etag != s2.etag || time.Now().After(deadline) {
			break
		}
	}
	if s3.etag == s2.etag || s3.version != s1.version || !slices.Equal(cpfs(s3.snap.Upcoming), []string{cpfPoa, cpfOther}) {
		t.Fatalf("after a sentence starting later: ETag %s, version %s, upcoming %v", s3.etag, s3.version, cpfs(s3.snap.Upcoming))
	}

	// Feed: two more versions; a page that stops before the head has no
	// upcoming, the head page has the whole set.
	v, _ := strconv.ParseInt(s1.version, 10, 64)
	c.ban(t, cpfFourth, "2025-06-01", "2026-01-01", "")
	c.ban(t, cpfFifth, "2025-06-01", "2026-01-01", "")
	page := func(q string) gate.FeedPage {
		t.Helper()
		resp, body := c.fetch(t, "/api/v1/blocklist/changes?"+q)
		var p gate.FeedPage
		if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil || !c.verifies(t, resp, body) {
			t.Fatalf("changes?%s: %d %s", q, resp.StatusCode, body)
		}
		return p
	}
	if p := page("since=" + strconv.FormatInt(v, 10) + "&limit=1"); p.To != v+1 || p.Upcoming != nil {
		t.Errorf("page before the head: to %d, upcoming %v", p.To, p.Upcoming)
	}
	if p := page("since=" + strconv.FormatInt(v, 10)); p.To != v+2 || p.Upcoming == nil || !slices.Equal(cpfs(*p.Upcoming), []string{cpfPoa, cpfOther}) || p.AsOf == nil || *p.AsOf != "2025-06-11" {
		t.Errorf("head page: to %d, upcoming %v as of %v", p.To, p.Upcoming, p.AsOf)
	}
}

// rewriter is a proxy in the middle that changes the agent's feed queries:
// limit=1 always (so a version of two changes comes in cursor pages), and,
// while spoil is set, a cursor the court did not issue.
func rewriter(t *testing.T, target string, spoil *atomic.Bool) *httptest.Server {
	u, _ := url.Parse(target)
	p := httputil.NewSingleHostReverseProxy(u)
	d := p.Director
	p.Director = func(r *http.Request) {
		d(r)
		if strings.HasSuffix(r.URL.Path, "/changes") {
			q := r.URL.Query()
			q.Set("limit", "1")
			if spoil.Load() && q.Get("cursor") != "" {
				q.Set("cursor", "AQAAAAAAAAABAAAAAAAAAAIAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAA")
			}
			r.URL.RawQuery = q.Encode()
		}
	}
	s := httptest.NewServer(p)
	t.Cleanup(s.Close)
	return s
}

// Issue 20 point 1 ("410 → new snapshot"), API.md "Public list and
// blocklist": when the feed no longer keeps the agent's version (410) the
// agent takes a new snapshot and goes on; when the court refuses the
// agent's cursor (422 on cursor: not one it issued) it does the same; and
// the new copy restarts from the data_dir with no network.
func TestAgentStartsOverOnGoneAndRefusedCursor(t *testing.T) {
	ctx := context.Background()
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	var spoil atomic.Bool
	px := rewriter(t, c.http.URL, &spoil)
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{c.pub(t)}}
	a := newAgent(t, dir, clk, nil, cfg)
	if err := a.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	v1 := a.Status().Courts[0].Version

	// 410: two versions, then the feed forgets up to the second.
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	c.ban(t, cpfOther, "2025-06-01", "2026-01-01", "")
	if err := c.srv.Lists().PruneFeed(ctx, v1+1); err != nil {
		t.Fatal(err)
	}
	if resp, _ := c.fetch(t, "/api/v1/blocklist/changes?since="+strconv.FormatInt(v1, 10)); resp.StatusCode != 410 {
		t.Fatalf("feed since a forgotten version: %d, want 410", resp.StatusCode)
	}
	if err := a.Sync(ctx); err != nil {
		t.Fatalf("sync after 410: %v", err)
	}
	if st := a.Status().Courts[0]; st.Version != v1+2 || st.LastError != "" || !check(t, a, cpfOther).Blocked || !check(t, a, cpfPoa).Blocked {
		t.Fatalf("after 410: %+v", st)
	}
	// Stored snapshots are named <version, 20 digits>-<body hash>.json.
	snaps, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "snapshots", "*.json"))
	if len(snaps) != 1 || !strings.HasPrefix(filepath.Base(snaps[0]), fmt.Sprintf("%020d-", v1+2)) {
		t.Errorf("stored snapshots after 410: %v, want one of version %d", snaps, v1+2)
	}

	// 422 on cursor: a version of two changes (two bans starting the next
	// day) read one change a page; the second page's cursor is spoilt.
	c.ban(t, cpfFourth, "2025-06-11", "2026-01-01", "")
	c.ban(t, cpfFifth, "2025-06-11", "2026-01-01", "")
	c.clk.Set(day("2025-06-11", 8, 0))
	clk.Set(day("2025-06-11", 8, 0))
	if err := c.srv.RefreshBlocklist(ctx); err != nil {
		t.Fatal(err)
	}
	if more, err := a.Courts[0].Poll(ctx, 0); err != nil || !more {
		t.Fatalf("first cursor page: more=%v err=%v", more, err)
	}
	spoil.Store(true)
	if resp, b := c.fetch(t, "/api/v1/blocklist/changes?since="+strconv.FormatInt(v1+2, 10)+"&cursor=AQAAAAAAAAABAAAAAAAAAAIAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAA"); resp.StatusCode != 422 || !bytes.Contains(b, []byte(`"cursor"`)) {
		t.Fatalf("court on a cursor it did not issue: %d %s", resp.StatusCode, b)
	}
	if err := a.Sync(ctx); err != nil {
		t.Fatalf("sync after a refused cursor: %v (%+v)", err, a.Status())
	}
	st := a.Status().Courts[0]
	if st.Version != v1+3 || st.LastError != "" || !check(t, a, cpfFourth).Blocked || !check(t, a, cpfFifth).Blocked {
		t.Fatalf("after the refused cursor: %+v", st)
	}

	// Restart from the data_dir with the court gone.
	c.http.Close()
	b := newAgent(t, dir, clk, nil, cfg)
	if st := b.Status().Courts[0]; st.Version != v1+3 || st.Entries != 5 {
		t.Fatalf("offline restart: %+v", st)
	}
	for _, cpf := range []string{cpfRio, cpfPoa, cpfOther, cpfFourth, cpfFifth} {
		if !check(t, b, cpf).Blocked {
			t.Errorf("%s not blocked after the offline restart", cpf)
		}
	}
	if err := b.Flush(); err != nil { // what Run does every gate.SpoolFlushEvery
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "checks.jsonl")); err != nil {
		t.Errorf("check log: %v", err)
	}
}

// Issue 20 point 3 (local store, "an index rebuilt from it at start"):
// every feed page applied after the snapshot is kept on disk, however many
// versions they move the copy, so an agent restarted offline holds the
// version and the entries it had (not only the first page's).
func TestAgentRestartsWithEveryPageAfterTheSnapshot(t *testing.T) {
	ctx := context.Background()
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := c.config(t)
	a := newAgent(t, dir, clk, nil, cfg)
	if err := a.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	for _, cpf := range []string{cpfPoa, cpfOther, cpfFourth} { // a page, a version each
		c.ban(t, cpf, "2025-06-01", "2026-01-01", "")
		if err := a.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	want := a.Status().Courts[0]
	if want.Entries != 4 {
		t.Fatalf("online: %+v", want)
	}
	c.http.Close()
	b := newAgent(t, dir, clk, nil, cfg)
	if st := b.Status().Courts[0]; st.Version != want.Version || st.Entries != 4 {
		t.Fatalf("offline restart: %+v, want version %d with 4 entries", st, want.Version)
	}
	for _, cpf := range []string{cpfRio, cpfPoa, cpfOther, cpfFourth} {
		if !check(t, b, cpf).Blocked {
			t.Errorf("%s not blocked after the offline restart", cpf)
		}
	}
}

// servedVersion is the court's juizado_blocklist_version gauge: the
// version whose snapshot bodies the court has prepared.
func (c *court) servedVersion(t *testing.T) int64 {
	t.Helper()
	_, b := c.fetch(t, "/metrics")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "juizado_blocklist_version "); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatal(err)
			}
			return int64(n)
		}
	}
	t.Fatalf("no juizado_blocklist_version in /metrics")
	return 0
}

// Issue 20 point 1 (a sentence reaches a gate within seconds), API.md
// "Gate agent", court side: a feed page is read from the feed table; the
// court does not prepare its whole snapshot (every entry read, encoded and
// signed) for it, so a gate's long-poll never waits behind that work. The
// page still comes after the day's refresh: on a new day (America/Sao_Paulo)
// the feed's first request makes the version of the bans that start at
// midnight, with nobody acting.
func TestFeedPageDoesNotPrepareTheSnapshot(t *testing.T) {
	c := newCourt(t, "26.0100", day("2025-06-10", 15, 0))
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", "")
	resp, body := c.fetch(t, "/api/v1/blocklist")
	var snap gate.Snapshot
	if resp.StatusCode != 200 || json.Unmarshal(body, &snap) != nil {
		t.Fatalf("snapshot: %d %s", resp.StatusCode, body)
	}
	v := snap.Version
	if got := c.servedVersion(t); got != v {
		t.Fatalf("prepared version %d, want the snapshot's %d", got, v)
	}
	page := func(q string) gate.FeedPage {
		t.Helper()
		resp, body := c.fetch(t, "/api/v1/blocklist/changes?"+q)
		var p gate.FeedPage
		if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil || !c.verifies(t, resp, body) {
			t.Fatalf("changes?%s: %d %s", q, resp.StatusCode, body)
		}
		return p
	}

	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	if p := page(fmt.Sprintf("since=%d", v)); p.To != v+1 || len(p.Changes) != 1 || p.Changes[0].CPF != cpfPoa {
		t.Fatalf("feed after a sentence: %+v", p)
	}
	if got := c.servedVersion(t); got != v {
		t.Errorf("the feed page prepared the snapshot: served version %d, want still %d", got, v)
	}
	// A long-poll answered by a commit: the same.
	done := make(chan gate.FeedPage)
	go func() { done <- page(fmt.Sprintf("since=%d&wait=20", v+1)) }()
	time.Sleep(300 * time.Millisecond)
	c.ban(t, cpfOther, "2025-06-01", "2026-01-01", "")
	if p := <-done; p.To != v+2 || len(p.Changes) != 1 || p.Changes[0].CPF != cpfOther {
		t.Fatalf("long-poll answered by a commit: %+v", p)
	}
	if got := c.servedVersion(t); got != v {
		t.Errorf("the long-poll prepared the snapshot: served version %d, want still %d", got, v)
	}

	// A ban that starts tomorrow: upcoming on the head page today; after
	// midnight the feed's request makes its version.
	c.ban(t, cpfFourth, "2025-06-11", "2026-01-01", "")
	if p := page(fmt.Sprintf("since=%d", v+2)); p.To != v+2 || p.Upcoming == nil || !slices.Equal(cpfs(*p.Upcoming), []string{cpfFourth}) {
		t.Fatalf("head page before midnight: %+v", p)
	}
	c.clk.Set(day("2025-06-11", 0, 1))
	p := page(fmt.Sprintf("since=%d", v+2))
	if p.To != v+3 || len(p.Changes) != 1 || p.Changes[0].CPF != cpfFourth || p.Changes[0].Op != "add" || p.Upcoming == nil || len(*p.Upcoming) != 0 {
		t.Fatalf("feed after midnight: %+v", p)
	}
	if got := c.servedVersion(t); got != v {
		t.Errorf("the feed's midnight refresh prepared the snapshot: served version %d, want still %d", got, v)
	}
	// The snapshot prepares what it serves.
	if resp, body = c.fetch(t, "/api/v1/blocklist"); resp.StatusCode != 200 || json.Unmarshal(body, &snap) != nil || snap.Version != v+3 || len(snap.Items) != 4 {
		t.Fatalf("snapshot after the feed: %d version %d, %d items", resp.StatusCode, snap.Version, len(snap.Items))
	}
	if got := c.servedVersion(t); got != v+3 {
		t.Errorf("served version after the snapshot %d, want %d", got, v+3)
	}
}
