package gate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

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
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", "")
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
	if err := a.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
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
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", "")
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfg := gate.CourtConfig{URL: c.http.URL, Token: c.token, Keys: []string{c.pub(t)}}
	a := newAgent(t, dir, clk, nil, cfg)
	if err := a.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	if err := a.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
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
