package main

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/base64"
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
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry/blocklist/wire"
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

// stopBound is what ../shared/API.md "Gate agent" allows a stopped court or
// agent: it exits 0 within 5 s of SIGTERM (issue 32, item 3).
const stopBound = 5 * time.Second

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

// A court stopped with SIGTERM while gates long-poll the change feed
// (issue 32, item 3; ../shared/API.md "Gate agent"): every waiting poll is
// answered at once with the page it asked for, empty (to = since: the
// agent asks again), signed by the court's key and echoing the poll's
// nonce, so the agent takes it as a valid page; a request in flight (a
// gate's batch of check records whose body is still arriving) is finished
// and stored; the process exits 0 within 5 s. A real process and a real
// signal.
func TestStopOnSIGTERM_CourtAnswersLongPollAndExits0(t *testing.T) {
	bin := buildBinary(t)
	dsn := pgtest.NewDSN(t)
	g := pgtest.Open(t, dsn)
	club, _, err := createToken(context.Background(), g, accounts.UserSpec{Name: "portaria", Role: "club", Club: "Santos"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_ADDR=127.0.0.1:0", "JUIZADO_KEY_DIR="+t.TempDir())
	logs := &testenv.LogBuffer{}
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
	var host string
	select {
	case host = <-addr:
	case <-time.After(time.Minute):
		t.Fatalf("the server did not start:\n%s", logs)
	}
	base := "http://" + host
	c := client{t, base}
	var keys struct {
		Keys []struct {
			ID        string `json:"id"`
			PublicKey string `json:"public_key"`
		} `json:"keys"`
	}
	getJSON(c, "/api/v1/blocklist/key", club, &keys)
	pub := map[string]ed25519.PublicKey{}
	for _, k := range keys.Keys {
		b, err := base64.StdEncoding.DecodeString(k.PublicKey)
		if err != nil || len(b) != ed25519.PublicKeySize {
			t.Fatalf("key %s: %v", k.ID, err)
		}
		pub[k.ID] = b
	}
	var head struct {
		To int64 `json:"to"`
	}
	getJSON(c, "/api/v1/blocklist/changes?since=0", club, &head)

	const waiters = 25 // gates long-polling
	polled := make(chan feedAnswer, waiters)
	for i := range waiters {
		go longPoll(base, club, head.To, fmt.Sprintf("parada-%d", i), polled)
	}
	batch := fmt.Sprintf(`{"batch_id":"parada-1","device":"portao-1","records":[{"cpf":"46881973659","checked_at":%q,"version":%d,"blocked":false}]}`,
		time.Now().UTC().Format(time.RFC3339), head.To)
	upload := inFlight(t, host, fmt.Sprintf("POST /api/v1/blocklist/checks HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		host, club, len(batch), batch))
	time.Sleep(time.Second) // the polls are waiting, the upload's handler reads its body
	select {
	case a := <-polled:
		t.Fatalf("a long-poll answered before the stop: %d %s %v", a.status, a.body, a.err)
	default:
	}

	stopped := sigterm(t, cmd)
	nonces := map[string]bool{}
	for range waiters {
		select {
		case a := <-polled:
			if took := time.Since(stopped); took >= stopBound {
				t.Errorf("a long-poll answered %s after SIGTERM", took.Round(time.Millisecond))
			}
			var page struct {
				To      int64             `json:"to"`
				Changes []json.RawMessage `json:"changes"`
				Nonce   string            `json:"nonce"`
			}
			if a.err != nil || a.status != 200 || json.Unmarshal(a.body, &page) != nil || page.Changes == nil || len(page.Changes) != 0 || page.To != head.To {
				t.Fatalf("a long-poll at the stop: %d %s %v; want 200 with an empty page to %d", a.status, a.body, a.err, head.To)
			}
			sig, _ := base64.StdEncoding.DecodeString(a.sig)
			if k, ok := pub[a.keyID]; !ok || !ed25519.Verify(k, a.body, sig) {
				t.Errorf("the page at the stop is not signed by the court's key %q: the agent would refuse it", a.keyID)
			}
			nonces[page.Nonce] = true
		case <-time.After(stopBound):
			t.Fatalf("%d long-poll(s) not answered %s after SIGTERM:\n%s", waiters-len(nonces), stopBound, logs)
		}
	}
	if len(nonces) != waiters {
		t.Errorf("the pages at the stop echo the nonces %v, want each poll's own", nonces)
	}
	time.Sleep(300 * time.Millisecond) // the stop is under way
	status, body, err := upload()
	if err != nil || status != 201 || !strings.Contains(body, `"stored":1`) {
		t.Errorf("the upload in flight at the stop: %d %s %v; want 201 stored 1", status, body, err)
	}
	stoppedWithin(t, cmd, stopped, "juizado serve", logs)
	var stored int64
	if err := g.Raw("SELECT count(*) FROM blocklist_checks WHERE cpf = '46881973659'").Scan(&stored).Error; err != nil || stored != 1 {
		t.Errorf("the record of the upload finished at the stop: %d rows (%v), want 1", stored, err)
	}
}

// The gate agent stopped with SIGTERM while it long-polls a court (issue
// 32, item 3): its poll of the court ends at once, the record of the last
// check it answered is in the spool, and the agent exits 0 within 5 s.
// (A request whose headers have not all arrived when the stop begins is
// not in flight: net/http closes it unanswered, and the turnstile asks
// again; the court's test shows a handler in flight finished.)
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
	logs := &testenv.LogBuffer{}
	cmd.Stderr = logs
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
			t.Fatalf("the agent never took the court's list: %s", logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	const cpf = "46881973659"
	time.Sleep(500 * time.Millisecond) // the long-poll is waiting at the court
	resp, err := http.Get("http://" + gateAddr + "/check/" + cpf)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"blocked":false`) {
		t.Fatalf("a check before the stop: %d %s", resp.StatusCode, body)
	}
	stopped := sigterm(t, cmd)
	stoppedWithin(t, cmd, stopped, "juizado gate serve", logs)
	if !strings.Contains(logs.String(), "gate agent stopped") {
		t.Errorf("no stop logged:\n%s", logs)
	}
	spool, err := os.ReadFile(filepath.Join(dir, "data", "checks.jsonl"))
	if err != nil || !strings.Contains(string(spool), cpf) {
		t.Errorf("the check answered at the stop is not in the spool (%v): %s", err, spool)
	}
}
