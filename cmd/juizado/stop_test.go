package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/pgtest"
)

// generous is the bound these tests put on "at once": far above what a
// graceful stop takes (well under a second), far below what the stop took
// before (the long-poll's 30 s, the shutdown's 20 s, exit 1).
const generous = 10 * time.Second

// waitExit waits for cmd to end within generous and returns its exit code.
func waitExit(t *testing.T, cmd *exec.Cmd, what string) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return 0
	case <-time.After(generous):
		_ = cmd.Process.Kill()
		t.Fatalf("%s still running %s after SIGTERM", what, generous)
		return -1
	}
}

// getJSON GETs path of c with the bearer token and decodes the 200 answer.
func getJSON(c client, path, token string, into any) {
	c.t.Helper()
	r := c.do("GET", path, token, nil)
	expect(c.t, r, 200, "")
	if err := json.Unmarshal(r.body, into); err != nil {
		c.t.Fatalf("GET %s: %v: %s", path, err, r.body)
	}
}

// A court stopped with SIGTERM while a gate long-polls the change feed
// answers the poll at once with the page it asked for (empty: the agent
// asks again), and the process exits 0 (issue 32, item 3; ../shared/API.md
// "Gate agent": exits 0 within 5 s). A real process and a real signal.
func TestStopOnSIGTERM_CourtAnswersLongPollAndExits0(t *testing.T) {
	bin := buildBinary(t)
	dsn := pgtest.NewDSN(t)
	club, _, err := createToken(context.Background(), pgtest.Open(t, dsn), accounts.UserSpec{Name: "portaria", Role: "club", Club: "Santos"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_ADDR=127.0.0.1:0", "JUIZADO_KEY_DIR="+t.TempDir())
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`serving on http://(\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(time.Minute):
		t.Fatal("the server did not start")
	}
	var page struct {
		To      int64             `json:"to"`
		Changes []json.RawMessage `json:"changes"`
	}
	getJSON(client{t, base}, "/api/v1/blocklist/changes?since=0", club, &page)
	type answer struct {
		status int
		body   string
		err    error
	}
	polled := make(chan answer, 1)
	go func() {
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/blocklist/changes?since=%d&wait=30", base, page.To), nil)
		req.Header.Set("Authorization", "Bearer "+club)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			polled <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		polled <- answer{status: resp.StatusCode, body: string(b)}
	}()
	time.Sleep(time.Second) // the poll is waiting
	select {
	case a := <-polled:
		t.Fatalf("the long-poll answered before the stop: %+v", a)
	default:
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-polled:
		if a.err != nil || a.status != 200 || !strings.Contains(a.body, `"changes":[]`) {
			t.Fatalf("the long-poll at the stop: %+v, want 200 with an empty page", a)
		}
	case <-time.After(generous):
		t.Fatalf("the long-poll not answered %s after SIGTERM", generous)
	}
	if code := waitExit(t, cmd, "juizado serve"); code != 0 {
		t.Fatalf("juizado serve exited %d after SIGTERM, want 0", code)
	}
}

// The gate agent stopped with SIGTERM while it long-polls a court ends the
// poll, writes its check records and exits 0 (issue 32, item 3).
func TestStopOnSIGTERM_GateAgentExits0WhileLongPolling(t *testing.T) {
	bin := buildBinary(t)
	m, ctx := startOn(t, clock.System{}, pgtest.NewDSN(t), t.TempDir())
	club, _, err := createToken(ctx, m.DB, accounts.UserSpec{Name: "portaria", Role: "club", Club: "Santos"})
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + m.Addr()
	var keys struct {
		Keys []struct {
			PublicKey string `json:"public_key"`
		} `json:"keys"`
	}
	getJSON(client{t, base}, "/api/v1/blocklist/key", club, &keys)
	if len(keys.Keys) == 0 {
		t.Fatal("the court lists no key")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gateAddr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	conf, _ := json.Marshal(map[string]any{"data_dir": filepath.Join(dir, "data"), "addr": gateAddr, "device": "portao-1",
		"courts": []map[string]any{{"url": base, "token": club, "keys": []string{keys.Keys[0].PublicKey}}}})
	confPath := filepath.Join(dir, "gate.json")
	if err := os.WriteFile(confPath, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "gate", "serve", "--config", confPath)
	cmd.Env = os.Environ()
	var logs strings.Builder
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// Up to date with the court: from then on it long-polls the feed.
	deadline := time.Now().Add(time.Minute)
	for {
		var st struct {
			Courts []struct {
				Version    int64   `json:"version"`
				AgeSeconds float64 `json:"age_seconds"`
			} `json:"courts"`
		}
		resp, err := http.Get("http://" + gateAddr + "/status")
		if err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
			if len(st.Courts) == 1 && st.Courts[0].Version > 0 && st.Courts[0].AgeSeconds >= 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent never took the court's list: %s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // the long-poll is waiting at the court
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, "juizado gate serve"); code != 0 {
		t.Fatalf("juizado gate serve exited %d after SIGTERM, want 0:\n%s", code, logs.String())
	}
	if !strings.Contains(logs.String(), "gate agent stopped") {
		t.Errorf("no stop logged:\n%s", logs.String())
	}
}
