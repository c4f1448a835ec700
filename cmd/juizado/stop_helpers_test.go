package main

import (
	"bufio"
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
	"syscall"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry/blocklist/wire"
)

// generous bounds the waits of the stop tests that must not hang: far above
// what a graceful stop takes (well under a second), far below what the stop
// took before (the long-poll's 30 s, the shutdown's 20 s, exit 1).
const generous = 10 * time.Second

// stopBound is what ../shared/API.md "Gate agent" allows a stopped court or
// agent: it exits 0 within 5 s of SIGTERM (issue 32, item 3).
const stopBound = 5 * time.Second

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

// sigterm sends SIGTERM to cmd and returns when it was sent.
func sigterm(t *testing.T, cmd *exec.Cmd) time.Time {
	t.Helper()
	at := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	return at
}

// stoppedWithin waits for cmd to end after the SIGTERM sent at since and
// fails the test unless it exited 0 within stopBound.
func stoppedWithin(t *testing.T, cmd *exec.Cmd, since time.Time, what string, logs fmt.Stringer) {
	t.Helper()
	code := waitExit(t, cmd, what)
	took := time.Since(since)
	if code != 0 {
		t.Errorf("%s exited %d after SIGTERM, want 0:\n%s", what, code, logs)
	}
	if took >= stopBound {
		t.Errorf("%s took %s to stop after SIGTERM, want under %s:\n%s", what, took.Round(time.Millisecond), stopBound, logs)
	}
}

// serveProcess starts `juizado serve` of bin on 127.0.0.1:0 with the
// environment env added (DATABASE_URL, ...) and returns the process, its
// host:port once it serves, and its log.
func serveProcess(t *testing.T, bin string, env ...string) (cmd *exec.Cmd, host string, logs *testenv.LogBuffer) {
	t.Helper()
	cmd = exec.Command(bin, "serve")
	cmd.Env = append(append(os.Environ(), "JUIZADO_ADDR=127.0.0.1:0"), env...)
	logs = &testenv.LogBuffer{}
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); pw.Close() })
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`serving on http://(\S+)`)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case host = <-addr:
	case <-time.After(time.Minute):
		t.Fatalf("the server did not start:\n%s", logs)
	}
	return cmd, host, logs
}

// gateStatus is the part of a gate agent's GET /status these tests read.
type gateStatus struct {
	Courts []struct {
		Version    int64   `json:"version"`
		AgeSeconds float64 `json:"age_seconds"`
		LastError  string  `json:"last_error"`
	} `json:"courts"`
}

// statusOf reads the agent's GET /status at addr.
func statusOf(addr string) (gateStatus, error) {
	var st gateStatus
	resp, err := http.Get("http://" + addr + "/status")
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// gateProcess starts `juizado gate serve` of bin following the court at
// base with the club's token and the court's public key, and returns once
// it holds the court's list (from then on it long-polls the feed): the
// process, its address, its data_dir and its log.
func gateProcess(t *testing.T, bin, base, club, key string) (cmd *exec.Cmd, addr, dataDir string, logs *testenv.LogBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	dataDir = filepath.Join(dir, "data")
	conf, _ := json.Marshal(map[string]any{"data_dir": dataDir, "addr": addr, "device": "portao-1",
		"courts": []map[string]any{{"url": base, "token": club, "keys": []string{key}}}})
	confPath := filepath.Join(dir, "gate.json")
	if err := os.WriteFile(confPath, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin, "gate", "serve", "--config", confPath)
	cmd.Env = os.Environ()
	logs = &testenv.LogBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.Now().Add(time.Minute)
	for {
		st, err := statusOf(addr)
		if err == nil && len(st.Courts) == 1 && st.Courts[0].Version > 0 && st.Courts[0].AgeSeconds >= 0 {
			return cmd, addr, dataDir, logs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent never took the court's list: %s", logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// inFlight opens a connection of its own to addr and sends the raw HTTP/1.1
// request all but its last two bytes (the end of the headers, or of the
// body): the server holds a request it has not finished reading (a
// handler reading the body, for a request with one). finish sends the
// rest and reads the answer.
func inFlight(t *testing.T, addr, raw string) (finish func() (status int, body string, err error)) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, raw[:len(raw)-2]); err != nil {
		t.Fatal(err)
	}
	return func() (int, string, error) {
		if _, err := io.WriteString(conn, raw[len(raw)-2:]); err != nil {
			return 0, "", err
		}
		_ = conn.SetReadDeadline(time.Now().Add(generous))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
}

// feedAnswer is a long-poll's answer as the agent reads it: status, the
// signature headers and the page.
type feedAnswer struct {
	status     int
	keyID, sig string
	body       []byte
	err        error
}

// longPoll asks the change feed of base for the versions after since,
// waiting up to 30 s, with nonce, and sends the answer on out.
func longPoll(base, token string, since int64, nonce string, out chan<- feedAnswer) {
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/blocklist/changes?since=%d&wait=30&nonce=%s", base, since, nonce), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		out <- feedAnswer{err: err}
		return
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	out <- feedAnswer{status: resp.StatusCode, keyID: resp.Header.Get(wire.HeaderKeyID), sig: resp.Header.Get(wire.HeaderSignature), body: b, err: err}
}
