package main

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/pgtest"
)

// courtKeys is GET /api/v1/blocklist/key: the court's signing keys.
type courtKeys struct {
	Keys []struct {
		ID        string `json:"id"`
		PublicKey string `json:"public_key"`
	} `json:"keys"`
}

// A court stopped with SIGTERM while gates long-poll the change feed
// (issue 32, item 3; ../shared/API.md "Gate agent"): every waiting poll is
// answered at once with the page it asked for, empty (to = since: the
// agent asks again), signed by the court's key and echoing the poll's
// nonce; a real gate agent following the court takes that page as fresh
// (its age drops to under a second, no page refused); a request in flight
// (a gate's batch of check records whose body is still arriving) is
// finished and stored; the process exits 0 within 5 s. Real processes
// and a real signal.
func TestStopOnSIGTERM_CourtAnswersLongPollAndExits0(t *testing.T) {
	bin := buildBinary(t)
	dsn := pgtest.NewDSN(t)
	g := pgtest.Open(t, dsn)
	club, _, err := createToken(context.Background(), g, accounts.UserSpec{Name: "portaria", Role: "club", Club: "Santos"})
	if err != nil {
		t.Fatal(err)
	}
	cmd, host, logs := serveProcess(t, bin, "DATABASE_URL="+dsn, "JUIZADO_KEY_DIR="+t.TempDir())
	base := "http://" + host
	c := client{t, base}
	var keys courtKeys
	getJSON(c, "/api/v1/blocklist/key", club, &keys)
	pub := map[string]ed25519.PublicKey{}
	for _, k := range keys.Keys {
		b, err := base64.StdEncoding.DecodeString(k.PublicKey)
		if err != nil || len(b) != ed25519.PublicKeySize {
			t.Fatalf("key %s: %v", k.ID, err)
		}
		pub[k.ID] = b
	}
	agent, agentAddr, _, agentLogs := gateProcess(t, bin, base, club, keys.Keys[0].PublicKey)
	var head struct {
		To int64 `json:"to"`
	}
	getJSON(c, "/api/v1/blocklist/changes?since=0", club, &head)

	const waiters = 25 // gates long-polling, besides the agent
	polled := make(chan feedAnswer, waiters)
	for i := range waiters {
		go longPoll(base, club, head.To, fmt.Sprintf("parada-%d", i), polled)
	}
	batch := fmt.Sprintf(`{"batch_id":"parada-1","device":"portao-1","records":[{"cpf":"46881973659","checked_at":%q,"version":%d,"blocked":false}]}`,
		time.Now().UTC().Format(time.RFC3339), head.To)
	upload := inFlight(t, host, fmt.Sprintf("POST /api/v1/blocklist/checks HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		host, club, len(batch), batch))
	// The polls wait, the upload's handler reads its body, the agent's
	// copy ages (it was confirmed when its own poll began).
	time.Sleep(3 * time.Second)
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
	// The agent took the stop's page: confirmed fresh at the stop, not
	// 3 s before it, and no page refused.
	st, err := statusOf(agentAddr)
	if err != nil || len(st.Courts) != 1 {
		t.Fatalf("the agent's status after the court stopped: %+v %v", st, err)
	}
	if age := st.Courts[0].AgeSeconds; age < 0 || age > 1.5 {
		t.Errorf("the agent's copy is %.1f s old after the court's stop page, want under 1.5 s (the page taken as fresh):\n%s", age, agentLogs)
	}
	if strings.Contains(agentLogs.String(), `"refused":true`) {
		t.Errorf("the agent refused a page of the court's stop:\n%s", agentLogs)
	}
	stoppedWithin(t, agent, sigterm(t, agent), "juizado gate serve with its court gone", agentLogs)
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
	var keys courtKeys
	getJSON(client{t, base}, "/api/v1/blocklist/key", club, &keys)
	if len(keys.Keys) == 0 {
		t.Fatal("the court lists no key")
	}
	cmd, gateAddr, dataDir, logs := gateProcess(t, bin, base, club, keys.Keys[0].PublicKey)
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
	stoppedWithin(t, cmd, sigterm(t, cmd), "juizado gate serve", logs)
	if !strings.Contains(logs.String(), "gate agent stopped") {
		t.Errorf("no stop logged:\n%s", logs)
	}
	spool, err := os.ReadFile(filepath.Join(dataDir, "checks.jsonl"))
	if err != nil || !strings.Contains(string(spool), cpf) {
		t.Errorf("the check answered at the stop is not in the spool (%v): %s", err, spool)
	}
}
