package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgcluster"
	"github.com/juizado/juizado/registry"
)

// failoverAcks are the writes the server acknowledged (a 2xx answer): the
// filings (case id → CNJ number), the sentences (ban id → case id), the
// notices (case id → how many), the final judgments (case id → ban id)
// and the highest blocklist version a club was served.
type failoverAcks struct {
	mu      sync.Mutex
	filings map[int64]string
	bans    map[int64]int64
	notices map[int64]int
	finals  map[int64]int64
	version int64
}

// Issue 16, item 6: a primary with a synchronous streaming-replication
// standby (PostgreSQL's own: pg_basebackup -R, primary_conninfo,
// synchronous_standby_names), the server on a DSN naming both hosts with
// target_session_attrs=read-write. Clerks, prosecutors and judges file,
// sentence, notify and certify final judgments while the primary is
// killed (SIGKILL to every one of its processes); the standby is
// promoted and the same server process goes on writing to it. Every write
// answered before the kill is on the promoted standby, the CNJ numbers
// have no gap, `juizado audit verify` and `juizado audit reconcile` pass,
// and the next blocklist version is the one after the last version made
// (no gap, the gates' feed continues from the version they hold).
func TestFailoverToSynchronousStandby(t *testing.T) {
	pgBin, err := pgcluster.FindBin()
	if err != nil {
		t.Skip("PostgreSQL's server binaries are not installed: ", err)
	}
	if _, err := os.Stat(filepath.Join(pgBin, "pg_basebackup")); err != nil {
		t.Skip("pg_basebackup is not installed: ", err)
	}
	began := time.Now()
	// The binary for the audit commands builds while the clusters start.
	binPath := filepath.Join(t.TempDir(), "juizado")
	built := make(chan error, 1)
	go func() {
		out, err := exec.Command(goBin(), "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			err = fmt.Errorf("go build: %v\n%s", err, out)
		}
		built <- err
	}()

	dir, err := os.MkdirTemp("", "juizado-failover-") // traversable by postgres when run as root
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	_ = os.Chmod(dir, 0o755)
	primary, err := pgcluster.Open(filepath.Join(dir, "primary"))
	if err != nil {
		t.Fatal(err)
	}
	if err := primary.Init(); err != nil {
		t.Fatal(err)
	}
	// Replication needs wal_level replica and WAL senders (the defaults,
	// written out); synchronous_commit on makes a commit wait for the
	// synchronous standby's flush.
	if err := primary.Configure(map[string]string{"wal_level": "replica", "max_wal_senders": "5", "synchronous_commit": "on"}); err != nil {
		t.Fatal(err)
	}
	if err := primary.Start(false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = primary.Stop() })
	ctx := context.Background()
	admin, err := sql.Open("pgx", primary.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE DATABASE juizado"); err != nil {
		t.Fatal(err)
	}
	mg, err := db.OpenOwner(ctx, primary.DSN("juizado")) // migrate: as the owner
	if err != nil {
		t.Fatal(err)
	}
	msql, _ := mg.DB()
	if _, err := db.MigrateUp(ctx, msql); err != nil {
		t.Fatal(err)
	}
	msql.Close()

	standby, err := pgcluster.Open(filepath.Join(dir, "standby"))
	if err != nil {
		t.Fatal(err)
	}
	if err := standby.InitStandby(primary, "standby"); err != nil {
		t.Fatal(err)
	}
	if err := standby.Start(false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = standby.Stop() })
	if _, err := admin.Exec("ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (standby)'"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("SELECT pg_reload_conf()"); err != nil {
		t.Fatal(err)
	}
	var state string
	for deadline := time.Now().Add(20 * time.Second); state != "sync"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the standby is not a synchronous standby (sync_state %q)", state)
		}
		state = ""
		_ = admin.QueryRow("SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'").Scan(&state)
	}
	admin.Close()
	t.Logf("primary and synchronous standby up in %s", time.Since(began).Round(time.Millisecond))

	dsn := fmt.Sprintf("host=%s,%s port=%d,%d user=postgres dbname=juizado sslmode=disable target_session_attrs=read-write",
		primary.Dir, standby.Dir, pgcluster.Port, pgcluster.Port)
	keyDir := filepath.Join(dir, "keys")
	m, ctx := startOn(t, clock.System{}, dsn, keyDir)
	tok := func(role, name, club string) string {
		tk, _, err := createToken(ctx, m.DB, accounts.UserSpec{Name: name, Role: role, Court: "26.0100", Club: club})
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	pros, judge, clerk, club := tok("prosecutor", "promotoria", ""), tok("judge", "juiza", ""), tok("clerk", "cartorio", ""), tok("club", "portaria", "Corinthians")
	base := "http://" + m.Addr()
	hc := &http.Client{Timeout: 30 * time.Second}
	send := func(method, path, token string, body any) (int, http.Header, map[string]any, error) {
		var rd io.Reader
		if body != nil {
			b, err := json.Marshal(body)
			if err != nil {
				return 0, nil, nil, err
			}
			rd = bytes.NewReader(b)
		}
		req, err := http.NewRequest(method, base+path, rd)
		if err != nil {
			return 0, nil, nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := hc.Do(req)
		if err != nil {
			return 0, nil, nil, err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var out map[string]any
		_ = json.Unmarshal(b, &out)
		if res.StatusCode >= 300 {
			return res.StatusCode, res.Header, out, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
		}
		return res.StatusCode, res.Header, out, nil
	}
	var r1 map[string]any
	if err := json.Unmarshal(fixtures(t)["R1"], &r1); err != nil {
		t.Fatal(err)
	}
	today := time.Now().In(saoPaulo).Format("2006-01-02")
	acks := &failoverAcks{filings: map[int64]string{}, bans: map[int64]int64{}, notices: map[int64]int{}, finals: map[int64]int64{}}
	// cycle files a case for defendant i (a CPF of its own), sentences it
	// to a 12-month ban, records the three notices with waivers and
	// certifies the final judgment (the ban enters the blocklist), then
	// reads the blocklist as a club. It stops at the first refusal.
	cycle := func(i int) error {
		cpf9 := fmt.Sprintf("%09d", 201000000+i*7919)
		rep := map[string]any{}
		for k, v := range r1 {
			rep[k] = v
		}
		rep["defendants"] = []any{map[string]any{"kind": "person", "full_name": fmt.Sprintf("Torcedor Failover %d", i),
			"cpf": cpf9 + registry.CPFCheckDigits(cpf9), "birth_date": "1990-05-10", "mother_name": "Maria Failover"}}
		_, _, k, err := send("POST", "/api/v1/cases", pros, rep)
		if err != nil {
			return err
		}
		caseID := int64(k["id"].(float64))
		def := int64(k["defendants"].([]any)[0].(map[string]any)["id"].(float64))
		acks.mu.Lock()
		acks.filings[caseID] = k["number"].(string)
		acks.mu.Unlock()
		// The accusation received first (Lei 9.099/1995, arts. 77, 81).
		for _, st := range []struct{ tok, to string }{{clerk, "preliminary_hearing"}, {pros, "accusation"}, {clerk, "instruction_hearing"}} {
			if _, _, _, err := send("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", caseID), st.tok, map[string]any{"to": st.to}); err != nil {
				return err
			}
		}
		_, _, s, err := send("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), judge, map[string]any{"defendant_id": def, "ban": map[string]any{"months": 12},
			"text": map[string]any{"reasoning": "Autoria provada."}, "reporting_duty": map[string]any{"place": "24º DP", "club": "Corinthians"}})
		if err != nil {
			return err
		}
		banID := int64(s["ban"].(map[string]any)["id"].(float64))
		acks.mu.Lock()
		acks.bans[banID] = caseID
		acks.mu.Unlock()
		for _, n := range []map[string]any{
			{"party": "prosecution", "notified_on": today, "waived_appeal": true},
			{"party": "defendant", "defendant_id": def, "notified_on": today, "waived_appeal": true},
			{"party": "defence", "defendant_id": def, "notified_on": today, "waived_appeal": true},
		} {
			if _, _, _, err := send("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", caseID), clerk, n); err != nil {
				return err
			}
			acks.mu.Lock()
			acks.notices[caseID]++
			acks.mu.Unlock()
		}
		if _, _, _, err := send("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", caseID), clerk, map[string]any{"to": "final"}); err != nil {
			return err
		}
		acks.mu.Lock()
		acks.finals[caseID] = banID
		acks.mu.Unlock()
		_, _, b, err := send("GET", "/api/v1/blocklist", club, nil)
		if err != nil {
			return err
		}
		acks.mu.Lock()
		acks.version = max(acks.version, int64(b["version"].(float64)))
		acks.mu.Unlock()
		return nil
	}

	// Two writers until the primary dies; a refusal before the kill fails the test.
	var killed atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	var refusedMu sync.Mutex
	var refusedBefore []string
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				err := cycle(int(next.Add(1)))
				if err == nil {
					continue
				}
				if !killed.Load() {
					refusedMu.Lock()
					refusedBefore = append(refusedBefore, err.Error())
					refusedMu.Unlock()
				}
				return
			}
		}()
	}
	finals := func() int { acks.mu.Lock(); defer acks.mu.Unlock(); return len(acks.finals) }
	for deadline := time.Now().Add(30 * time.Second); finals() < 4; time.Sleep(20 * time.Millisecond) {
		refusedMu.Lock()
		n := len(refusedBefore)
		refusedMu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
	}
	if finals() < 4 {
		killed.Store(true)
		wg.Wait()
		t.Fatalf("the writers did not reach 4 final judgments before the kill: %d; refused: %v", finals(), refusedBefore)
	}
	// Kill while a cycle is under way (a case filed, its final judgment not yet answered).
	inFlight := func() bool { acks.mu.Lock(); defer acks.mu.Unlock(); return len(acks.filings) > len(acks.finals) }
	for deadline := time.Now().Add(5 * time.Second); !inFlight() && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	killed.Store(true)
	if err := primary.Kill(); err != nil {
		t.Fatal(err)
	}
	killedAt := time.Now()
	wg.Wait()
	if len(refusedBefore) > 0 {
		t.Fatalf("writes refused before the kill: %v", refusedBefore)
	}
	acks.mu.Lock()
	t.Logf("acknowledged before the kill: %d filings, %d sentences, %d notices, %d final judgments; blocklist version %d",
		len(acks.filings), len(acks.bans), sum(acks.notices), len(acks.finals), acks.version)
	acks.mu.Unlock()

	// No primary: writes answer 503 with Retry-After, never 500.
	code, hdr, _, _ := send("POST", "/api/v1/cases", pros, r1)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Errorf("filing with the primary dead: %d Retry-After %q, want 503 with Retry-After", code, hdr.Get("Retry-After"))
	}
	if err := standby.Promote(); err != nil {
		t.Fatal(err)
	}
	// The same server process reaches the promoted standby through the DSN.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		res, err := hc.Get(base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not reach the promoted standby (readyz %v %v)", res, err)
		}
	}
	t.Logf("writes again %s after the kill", time.Since(killedAt).Round(time.Millisecond))

	// Every acknowledged write is on the promoted standby.
	sb, err := sql.Open("pgx", standby.DSN("juizado"))
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	var inRecovery bool
	if err := sb.QueryRow("SELECT pg_is_in_recovery()").Scan(&inRecovery); err != nil || inRecovery {
		t.Fatalf("the standby was not promoted: in recovery %v, %v", inRecovery, err)
	}
	digits := strings.NewReplacer("-", "", ".", "")
	for id, number := range acks.filings {
		var got string
		if err := sb.QueryRow("SELECT number FROM cases WHERE id = $1", id).Scan(&got); err != nil || got != digits.Replace(number) {
			t.Errorf("acknowledged filing %d (%s) on the standby: %q, %v", id, number, got, err)
		}
	}
	for ban, caseID := range acks.bans {
		var got int64
		if err := sb.QueryRow("SELECT case_id FROM bans WHERE id = $1", ban).Scan(&got); err != nil || got != caseID {
			t.Errorf("acknowledged sentence (ban %d of case %d) on the standby: case %d, %v", ban, caseID, got, err)
		}
	}
	for caseID, n := range acks.notices {
		var got int
		if err := sb.QueryRow("SELECT count(*) FROM notifications WHERE case_id = $1 AND waived_appeal", caseID).Scan(&got); err != nil || got < n {
			t.Errorf("acknowledged notices of case %d on the standby: %d of %d, %v", caseID, got, n, err)
		}
	}
	for caseID, ban := range acks.finals {
		var status string
		var listed bool
		if err := sb.QueryRow(`SELECT k.status, EXISTS (SELECT 1 FROM blocklist_entries e WHERE e.ban_id = $2)
			FROM cases k WHERE k.id = $1`, caseID, ban).Scan(&status, &listed); err != nil || status != "final" || !listed {
			t.Errorf("acknowledged final judgment of case %d on the standby: status %q, ban %d on the blocklist %v, %v", caseID, status, ban, listed, err)
		}
	}
	// The CNJ numbers have no gap (CNJ Res. 65/2008: one sequence per unit and year).
	rows, err := sb.Query("SELECT number FROM cases ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		p, err := cases.ParseCNJ(n)
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, p.Sequence)
	}
	rows.Close()
	t.Logf("on the promoted standby: %d filings, %d of them acknowledged (a filing committed as the primary died has its answer lost)", len(seqs), len(acks.filings))
	for i, s := range seqs {
		if s != i+1 {
			t.Errorf("CNJ sequences on the standby %v: a gap at %d", seqs, i+1)
			break
		}
	}

	// The blocklist version continues without a gap from the last one made.
	// A club may be served a version behind the last one made (the new one
	// is being prepared), never one the standby lacks.
	var last int64
	if err := sb.QueryRow("SELECT max(version) FROM blocklist_versions").Scan(&last); err != nil || last < acks.version {
		t.Fatalf("blocklist version on the standby %d, below the %d a club was served (%v)", last, acks.version, err)
	}
	if err := cycle(int(next.Add(1))); err != nil {
		t.Fatalf("a full cycle after the failover: %v", err)
	}
	var made int64
	if err := sb.QueryRow("SELECT max(version) FROM blocklist_versions").Scan(&made); err != nil || made != last+1 {
		t.Errorf("blocklist version made by the final judgment after the failover: %d, want %d (the next after %d; %v)", made, last+1, last, err)
	}
	var lo, hi, n int64
	if err := sb.QueryRow("SELECT min(version), max(version), count(*) FROM blocklist_versions").Scan(&lo, &hi, &n); err != nil {
		t.Fatal(err)
	}
	if hi-lo+1 != n {
		t.Errorf("blocklist versions %d..%d are %d rows: a gap", lo, hi, n)
	}
	served := int64(0)
	for deadline := time.Now().Add(10 * time.Second); served < made && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, _, b, err := send("GET", "/api/v1/blocklist", club, nil); err == nil {
			served = int64(b["version"].(float64))
		}
	}
	if served != made {
		t.Errorf("snapshot after the failover: version %d, want %d", served, made)
	}
	// A gate holding the version served before the kill follows the feed on.
	_, _, feed, err := send("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d", acks.version), club, nil)
	if err != nil {
		t.Fatal(err)
	}
	if feed["from"] != float64(acks.version) || feed["to"] != float64(made) {
		t.Errorf("feed after the failover: from %v to %v, want %d to %d", feed["from"], feed["to"], acks.version, made)
	}
	prev := acks.version
	for _, ch := range feed["changes"].([]any) {
		v := int64(ch.(map[string]any)["version"].(float64))
		if v != prev && v != prev+1 {
			t.Errorf("feed after the failover jumps from version %d to %d", prev, v)
		}
		prev = v
	}
	if prev != made {
		t.Errorf("feed after the failover ends at version %d, want %d", prev, made)
	}

	// The audit chain verifies and the blocklist reconciles on the promoted standby.
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	run := cli(t, binPath, append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_KEY_DIR="+keyDir, "JUIZADO_COURT=26.0100"))
	out, code := run("audit", "verify")
	if code != 0 || !strings.Contains(out, "intact") {
		t.Errorf("juizado audit verify after the failover: exit %d\n%s", code, out)
	}
	t.Logf("juizado audit verify: %s", strings.TrimSpace(out))
	if out, code := run("audit", "reconcile"); code != 0 {
		t.Errorf("juizado audit reconcile after the failover: exit %d\n%s", code, out)
	}
	t.Logf("failover test in %s", time.Since(began).Round(time.Millisecond))
}

func sum(m map[int64]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
