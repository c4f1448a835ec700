package gate_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/web"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/registry/gate"
	"github.com/juizado/juizado/templates"
)

// replica is a second server of court c (same database, same key
// directory) whose key ring is read now: rotated later through c.keys, it
// goes on signing with the key it read, as a server not restarted since a
// rotation does (blocklist.KeyRing.Rotate).
func (c *court) replica(t *testing.T, code string) *httptest.Server {
	t.Helper()
	enf, err := authz.Open(context.Background(), c.g)
	if err != nil {
		t.Fatal(err)
	}
	keys := &blocklist.KeyRing{Dir: c.keys.Dir}
	if _, err := keys.Keys(time.Now()); err != nil { // the current key read now
		t.Fatal(err)
	}
	srv, err := web.New(web.Deps{DB: c.g, Enforcer: enf, Clock: c.clk, Loc: sp, Templates: templates.FS, Keys: keys, Court: code,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := httptest.NewServer(srv.Echo)
	t.Cleanup(h.Close)
	return h
}

// switchProxy forwards every request to the server *to names.
func switchProxy(t *testing.T, to *atomic.Pointer[string]) *httptest.Server {
	t.Helper()
	p := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		u, _ := url.Parse(*to.Load())
		r.SetURL(u)
		r.Out.Header.Del("Accept-Encoding")
	}}
	s := httptest.NewServer(p)
	t.Cleanup(s.Close)
	return s
}

// API.md "Signed responses" (GET /api/v1/blocklist/key, not_after): once
// the court has rotated its key, the retired key's not_after (the rotation
// plus blocklist.KeyRetention) bounds the new bodies it may sign: a feed
// page or snapshot signed by it is applied before its not_after and
// refused as untrusted after it (agent clock), from a server of the court
// still signing with it. What the agent stored, verified, when fetched
// (the snapshot signed by the retired key) still loads at a restart after
// not_after.
func TestGateAgentRefusesNewBodiesOfARetiredKey(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	old := c.replica(t, "26.0100") // keeps signing with the first key
	pinned := c.pub(t)
	var to atomic.Pointer[string]
	cur := c.http.URL
	to.Store(&cur)
	px := switchProxy(t, &to)
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{pinned}}
	a := newAgent(t, dir, clk, nil, cfg)
	mustSync(t, a)
	if _, err := c.keys.Rotate(now); err != nil {
		t.Fatal(err)
	}
	notAfter := now.Add(blocklist.KeyRetention).UTC().Truncate(time.Second)
	// A page signed by the new key: the key list is read (the new key
	// endorsed by the pinned one, the pinned one's not_after).
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	if err := a.Sync(context.Background()); err != nil {
		t.Fatalf("page of the new key: %v", err)
	}
	if r := check(t, a, cpfPoa); !r.Blocked {
		t.Fatalf("page of the new key not applied: %+v", r)
	}
	// Before not_after, the retired key still signs for the court.
	to.Store(&old.URL)
	c.ban(t, cpfOther, "2025-06-01", "2026-01-01", "")
	clk.Set(notAfter.Add(-time.Minute))
	if err := a.Sync(context.Background()); err != nil {
		t.Fatalf("page of the retired key before its not_after: %v %+v", err, a.Status())
	}
	if r := check(t, a, cpfOther); !r.Blocked {
		t.Fatalf("page of the retired key before its not_after not applied: %+v", r)
	}
	// After it, no more.
	c.ban(t, cpfFourth, "2025-06-01", "2026-01-01", "")
	clk.Set(notAfter.Add(time.Minute))
	v := a.Status().Courts[0].Version
	if err := a.Sync(context.Background()); err == nil {
		t.Fatal("page of the retired key after its not_after applied")
	}
	st := a.Status().Courts[0]
	if st.Version != v || !strings.Contains(st.LastError, "not_after") {
		t.Fatalf("after not_after: %+v", st)
	}
	if r := check(t, a, cpfFourth); r.Blocked {
		t.Fatalf("change signed by the retired key applied: %+v", r)
	}
	// A new snapshot signed by it is refused too (a fresh data_dir that
	// learned not_after from the key list first: its first body is the
	// current key's).
	to.Store(&cur)
	f2 := newAgent(t, t.TempDir(), clk, nil, cfg)
	mustSync(t, f2)
	to.Store(&old.URL)
	if err := f2.Courts[0].Snapshot(context.Background()); err == nil || !strings.Contains(f2.Status().Courts[0].LastError, "not_after") {
		t.Fatalf("snapshot of the retired key after its not_after: %v %+v", err, f2.Status())
	}
	// Restart after not_after, the court gone: the stored snapshot (signed
	// by the retired key when it was fetched) and the pages load.
	c.http.Close()
	old.Close()
	b := newAgent(t, dir, clk, nil, cfg)
	if st := b.Status().Courts[0]; st.Version != v || st.StoreError != "" {
		t.Fatalf("restart after not_after: %+v, want version %d from the store", st, v)
	}
	for _, cpf := range []string{cpfRio, cpfPoa, cpfOther} {
		if r := check(t, b, cpf); !r.Blocked {
			t.Fatalf("%s after the restart: %+v", cpf, r)
		}
	}
}
