package gate_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/gate"
)

// killProxy stands between the agent and a court: "slow" sends half of a
// snapshot's body and then nothing until the client goes away (a download
// that never ends), "down" closes every connection (network cut); the feed
// asked since a version below gone is 410 (the court pruned it: take a
// snapshot).
type killProxy struct {
	target string
	mu     sync.Mutex
	mode   string
	gone   int64
	// started receives once per slow snapshot, when half the body is out.
	started chan struct{}
}

func (p *killProxy) set(mode string, gone int64) {
	p.mu.Lock()
	p.mode, p.gone = mode, gone
	p.mu.Unlock()
}

func (p *killProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	mode, gone := p.mode, p.gone
	p.mu.Unlock()
	if mode == "down" {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	if since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64); r.URL.Path == "/api/v1/blocklist/changes" && since < gone {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusGone)
		_, _ = io.WriteString(w, `{"status": 410, "title": "feed pruned", "detail": "take a snapshot"}`)
		return
	}
	req, _ := http.NewRequestWithContext(r.Context(), r.Method, p.target+r.URL.RequestURI(), r.Body)
	req.Header.Set("Authorization", r.Header.Get("Authorization"))
	req.Header.Set("Content-Type", r.Header.Get("Content-Type"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for k, v := range resp.Header {
		if k != "Content-Length" && k != "Content-Encoding" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(resp.StatusCode)
	if mode == "slow" && r.URL.Path == "/api/v1/blocklist" {
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		p.started <- struct{}{}
		<-r.Context().Done()
		return
	}
	_, _ = w.Write(body)
}

// child is an agent process: this test binary re-run as
// TestGateAgentProcess on the configuration file (the same start as
// `juizado gate serve --config`: LoadConfig, New from data_dir, Sync).
type child struct {
	cmd    *exec.Cmd
	synced chan string // the line "synced <error or nil>"
}

func startChild(t testing.TB, cfgPath string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestGateAgentProcess$", "-test.v")
	cmd.Env = append(os.Environ(), "GATE_CHILD_CONFIG="+cfgPath)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, synced: make(chan string, 1)}
	t.Cleanup(func() { // a test that failed before its kill leaves no process behind
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if s, ok := strings.CutPrefix(sc.Text(), "synced "); ok {
				c.synced <- s
			} else if os.Getenv("GATE_KILL_DEBUG") != "" {
				fmt.Fprintln(os.Stderr, "child:", sc.Text())
			}
		}
	}()
	return c
}

// kill sends SIGKILL and waits for the process to end.
func (c *child) kill(t testing.TB) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.cmd.Wait()
}

// TestGateAgentProcess is the agent process of TestGateKill9DuringSnapshot
// (skipped unless GATE_CHILD_CONFIG names a configuration file): it starts
// from data_dir, syncs once, prints "synced <error>", then waits to be
// killed.
func TestGateAgentProcess(t *testing.T) {
	path := os.Getenv("GATE_CHILD_CONFIG")
	if path == "" {
		t.Skip("the agent process of TestGateKill9DuringSnapshot")
	}
	cfg, err := gate.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := gate.New(*cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("synced", a.Sync(context.Background()))
	time.Sleep(time.Hour)
}

// Issue 20 point 3 ("a kill -9 at any instant leaves a store that starts and
// is consistent"): an agent process (a real subprocess) is killed with
// SIGKILL while it downloads a snapshot (the court's answer held half-sent
// by a proxy), with no store yet and with one; then at random instants of a
// whole re-snapshot of 20,000 entries (download, verification, the writes
// of the store). After each kill the store starts offline (network cut) and
// holds either the old list or the new one, never a mix: the version, the
// number of entries and the checks agree; online, it reaches the court's
// current version.
func TestGateKill9DuringSnapshot(t *testing.T) {
	today := time.Now().In(sp)
	first, last := today.AddDate(0, 0, -10).Format("2006-01-02"), today.AddDate(0, 0, 300).Format("2006-01-02")
	c := newCourt(t, "26.0100", time.Now())
	c.ban(t, cpfRio, first, last, "")
	px := &killProxy{target: c.http.URL, started: make(chan struct{}, 1)}
	srv := httptest.NewServer(px)
	defer srv.Close()
	dir := t.TempDir()
	cc := gate.CourtConfig{URL: srv.URL, Token: c.token, Keys: []string{c.pub(t)}}
	cfg := gate.Config{DataDir: dir, Addr: "127.0.0.1:0", Device: "portao-kill", MaxAge: gate.Duration(time.Hour), Courts: []gate.CourtConfig{cc}}
	b, _ := json.Marshal(map[string]any{"data_dir": dir, "addr": cfg.Addr, "device": cfg.Device, "max_age": "1h", "courts": cfg.Courts})
	cfgPath := filepath.Join(t.TempDir(), "gate.json")
	if err := os.WriteFile(cfgPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	clk := &agentClock{t: time.Now()}
	// restart starts an agent on dir as the service would after the kill,
	// with the network down (offline) or up; it must start.
	restart := func(online bool) *gate.Agent {
		t.Helper()
		if online {
			px.set("", 0)
		} else {
			px.set("down", 0)
		}
		clk.Set(time.Now())
		a, err := gate.New(cfg, clk.Now)
		if err != nil {
			t.Fatalf("the store after kill -9 does not start: %v", err)
		}
		err = a.Sync(context.Background())
		if online && err != nil {
			t.Fatalf("online sync after the kill: %v", err)
		}
		if !online && err == nil {
			t.Fatal("sync with the network down: no error")
		}
		return a
	}
	waitStarted := func() {
		t.Helper()
		select {
		case <-px.started:
		case <-time.After(60 * time.Second):
			t.Fatal("the agent process never started the snapshot download")
		}
	}
	waitSynced := func(ch *child) {
		t.Helper()
		select {
		case s := <-ch.synced:
			if s != "<nil>" {
				t.Fatalf("agent process sync: %s", s)
			}
		case <-time.After(120 * time.Second):
			t.Fatal("the agent process did not sync")
		}
	}

	// 1. No store yet: killed in the first snapshot's download. The store
	// starts, empty: nothing blocked, and stale (never confirmed).
	px.set("slow", 0)
	ch := startChild(t, cfgPath)
	waitStarted()
	ch.kill(t)
	a := restart(false)
	if st := a.Status().Courts[0]; st.Version != 0 || st.Entries != 0 {
		t.Fatalf("after a kill in the first download: %+v", st)
	}
	if r := check(t, a, cpfRio); r.Blocked || !r.Stale {
		t.Fatalf("after a kill in the first download: %+v", r)
	}

	// 2. A whole sync (version 1), then a new ban (version 2) and a pruned
	// feed: killed in the new snapshot's download. Offline the store is
	// version 1; online, version 2.
	px.set("", 0)
	ch = startChild(t, cfgPath)
	waitSynced(ch)
	ch.kill(t)
	v1 := restart(false).Status().Courts[0].Version
	c.ban(t, cpfPoa, first, last, "")
	px.set("slow", v1+1)
	ch = startChild(t, cfgPath)
	waitStarted()
	ch.kill(t)
	a = restart(false)
	if st := a.Status().Courts[0]; st.Version != v1 || st.Entries != 1 {
		t.Fatalf("offline after a kill in the download: %+v, want version %d with 1 entry", st, v1)
	}
	if r := check(t, a, cpfRio); !r.Blocked || r.Versions["26.0100"] != v1 {
		t.Fatalf("offline after the kill, the old ban: %+v", r)
	}
	if r := check(t, a, cpfPoa); r.Blocked {
		t.Fatalf("offline after the kill, a ban of the snapshot never received: %+v", r)
	}
	a = restart(true)
	v2 := a.Status().Courts[0].Version
	if v2 <= v1 || !check(t, a, cpfPoa).Blocked || !check(t, a, cpfRio).Blocked {
		t.Fatalf("online after the kill: %+v", a.Status())
	}

	// 3. 20,000 more entries (version 3) and a pruned feed: the process is
	// killed at random instants of the whole re-snapshot (up to its full
	// length, measured first), each round from the store of version 2; each
	// time the store restarts offline holding version 2 (2 entries) or
	// version 3 (20,002), the checks with it.
	const n = 20_000
	atV2 := t.TempDir()
	copyDir(t, dir, atV2)
	seedBans(t, c, n)
	px.set("", v2+1)
	var full time.Duration
	for i := 0; i < 2; i++ { // the second run, with the binary and the files cached, is the shorter
		copyDir(t, atV2, dir)
		start := time.Now()
		ch = startChild(t, cfgPath)
		waitSynced(ch)
		full = time.Since(start)
		ch.kill(t)
	}
	v3 := restart(false).Status().Courts[0].Version
	if v3 <= v2 {
		t.Fatalf("version 3 is %d after %d", v3, v2)
	}
	snapshotsOf := func() []string {
		names, _ := filepath.Glob(filepath.Join(dir, "courts", "*", "snapshots", "*"))
		return names
	}
	t.Logf("a whole re-snapshot of %d entries by the process: %v", n+2, full)
	seen := map[int64]int{}
	const rounds = 10
	for i := 0; i < rounds; i++ {
		copyDir(t, atV2, dir)
		px.set("", v2+1)
		ch = startChild(t, cfgPath)
		// Round i kills within the i-th tenth of the sync's length.
		time.Sleep(full*time.Duration(i)/rounds + time.Duration(rand.Int64N(int64(full/rounds)+1)))
		ch.kill(t)
		a = restart(false)
		st := a.Status().Courts[0]
		seen[st.Version]++
		switch {
		case st.Version == v2 && st.Entries == 2:
			if check(t, a, "46881973659").Blocked {
				t.Fatalf("round %d: version 2 answers a ban of version 3", i)
			}
		case st.Version == v3 && st.Entries == n+2:
			if !check(t, a, "46881973659").Blocked {
				t.Fatalf("round %d: version 3 without its ban", i)
			}
		default:
			t.Fatalf("round %d: store after kill -9 is neither version %d (2 entries) nor %d (%d): %+v; files %v", i, v2, v3, n+2, st, snapshotsOf())
		}
		if !check(t, a, cpfRio).Blocked || !check(t, a, cpfPoa).Blocked {
			t.Fatalf("round %d: a ban of both versions not blocked: %+v", i, st)
		}
	}
	t.Logf("versions the store held after the %d kills: %v (version 2 = %d, version 3 = %d)", rounds, seen, v2, v3)
	a = restart(true)
	if st := a.Status().Courts[0]; st.Version != v3 || st.Entries != n+2 {
		t.Fatalf("online at the end: %+v", st)
	}
}

// copyDir makes dst a copy of the tree src (dst emptied first).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
