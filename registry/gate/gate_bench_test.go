package gate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/registry/gate"
	"gorm.io/gorm"
)

// Issue 20, "Speed": the gate agent's own costs, in process, against one
// real court on loopback (its own PostgreSQL database) seeded with
// GATE_BENCH_ENTRIES bans in force (default 1,000,000; one of them of the
// valid CPF 468.819.736-59):
//
//	go run ./internal/pgtest/cmd/testcluster -- go test -run '^$' -bench BenchmarkGate ./registry/gate/
//
// (the sync and the start from disk take more than the default -benchtime
// of 1 s at 1M, so they run once). Sub-benchmarks:
//
//   - Sync: a new agent on an empty data_dir takes the snapshot over HTTP,
//     verifies its Ed25519 signature, stores it, builds its index. Reported:
//     the seconds, the live heap the agent keeps (MB and bytes per entry,
//     after a GC) and the bytes stored on disk.
//   - ProcessSync: the same in an agent process of its own (this binary
//     re-run as TestGateAgentProcess: LoadConfig, New, Sync, as `juizado
//     gate serve`): the seconds from exec to synced, its resident memory
//     then (VmRSS) and at its peak (VmHWM), from /proc.
//   - Load: a new agent starts from that data_dir with no network
//     (re-verifies and re-indexes what it stored).
//   - Check/blocked, Check/not_blocked: Agent.Check in process (the Go call
//     behind GET /check/{cpf}: index lookup, dates, scope, versions, the
//     check record appended to the spool); goal < 1 µs.
//   - HTTPCheck: the agent's handler with httptest (no network).
func BenchmarkGate(b *testing.B) {
	n := 1_000_000
	if s := os.Getenv("GATE_BENCH_ENTRIES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 2 {
			b.Fatalf("GATE_BENCH_ENTRIES=%q: want a number ≥ 2", s)
		}
		n = v
	}
	// Seeding and the first refresh of 1M entries take longer than a
	// request's statement timeout.
	prev := db.Timeouts
	db.Timeouts.Statement, db.Timeouts.IdleInTx = 30*time.Minute, 30*time.Minute
	b.Cleanup(func() { db.Timeouts = prev })
	now := time.Now()
	c := newCourt(b, "26.0100", now)
	t0 := time.Now()
	seedBans(b, c, n)
	b.Logf("court seeded with %d bans in force, list refreshed in %.1f s", n, time.Since(t0).Seconds())
	clk := &agentClock{t: now}
	cfg := gate.CourtConfig{URL: c.http.URL, Token: c.token, Keys: []string{c.pub(b)}}
	stored := b.TempDir()
	{ // the court prepares the version's bodies on the first request: not the agent's cost
		a := newAgent(b, stored, clk, nil, cfg)
		if err := a.Sync(context.Background()); err != nil {
			b.Fatal(err)
		}
		if st := a.Status().Courts[0]; st.Entries != n {
			b.Fatalf("agent holds %d entries, want %d", st.Entries, n)
		}
	}

	b.Run("Sync", func(b *testing.B) {
		for range b.N {
			dir := b.TempDir()
			base := liveHeap()
			start := time.Now()
			a := newAgent(b, dir, clk, nil, cfg)
			if err := a.Sync(context.Background()); err != nil {
				b.Fatal(err)
			}
			el := time.Since(start)
			heap := liveHeap() - base
			runtime.KeepAlive(a)
			b.ReportMetric(el.Seconds(), "s")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
			b.ReportMetric(float64(heap)/float64(n), "heap-B/entry")
			b.ReportMetric(float64(dirSize(b, dir))/(1<<20), "disk-MB")
		}
	})
	b.Run("ProcessSync", func(b *testing.B) {
		for range b.N {
			dir := b.TempDir()
			cfgPath := filepath.Join(dir, "gate.json")
			js, _ := json.Marshal(map[string]any{"data_dir": filepath.Join(dir, "data"), "addr": "127.0.0.1:0", "device": "bench", "courts": []gate.CourtConfig{cfg}})
			if err := os.WriteFile(cfgPath, js, 0o600); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			ch := startChild(b, cfgPath)
			select {
			case s := <-ch.synced:
				if s != "<nil>" {
					b.Fatalf("agent process: %s", s)
				}
			case <-time.After(10 * time.Minute):
				b.Fatal("the agent process did not sync")
			}
			el := time.Since(start)
			st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", ch.cmd.Process.Pid))
			ch.kill(b)
			if err != nil {
				b.Fatal(err)
			}
			kb := func(field string) float64 {
				for _, l := range strings.Split(string(st), "\n") {
					if v, ok := strings.CutPrefix(l, field+":"); ok {
						n, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
						return n
					}
				}
				return 0
			}
			b.ReportMetric(el.Seconds(), "s")
			b.ReportMetric(kb("VmRSS")/1024, "rss-MB")
			b.ReportMetric(kb("VmHWM")/1024, "peak-rss-MB")
		}
	})
	b.Run("Load", func(b *testing.B) {
		for range b.N {
			base := liveHeap()
			start := time.Now()
			a := newAgent(b, stored, clk, nil, cfg)
			el := time.Since(start)
			heap := liveHeap() - base
			if st := a.Status().Courts[0]; st.Entries != n {
				b.Fatalf("loaded %d entries, want %d", st.Entries, n)
			}
			runtime.KeepAlive(a)
			b.ReportMetric(el.Seconds(), "s")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		}
	})

	a := newAgent(b, b.TempDir(), clk, nil, cfg)
	if err := a.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	if r := a.Check("46881973659"); !r.Blocked || len(r.Bans) != 1 {
		b.Fatalf("the seeded valid CPF is not blocked: %+v", r)
	}
	if r := a.Check(cpfOther); r.Blocked {
		b.Fatalf("a CPF with no ban blocked: %+v", r)
	}
	for _, k := range []struct{ name, cpf string }{{"blocked", "46881973659"}, {"not_blocked", cpfOther}} {
		b.Run("Check/"+k.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a.Check(k.cpf)
			}
		})
	}
	h := a.Handler()
	b.Run("HTTPCheck/blocked", func(b *testing.B) {
		b.ReportAllocs()
		req := httptest.NewRequest("GET", "/check/468.819.736-59", nil)
		for b.Loop() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatal(rec.Code)
			}
		}
	})
}

// seedBans gives court c n bans in force (first day 10 days ago, last day
// in 700 days), n-1 of synthetic 11-digit CPFs and one of 468.819.736-59,
// each of its own defendant, as bench/seed.sql, then refreshes its list.
func seedBans(tb testing.TB, c *court, n int) {
	tb.Helper()
	if err := pgtest.Admin(tb, c.g).Transaction(func(tx *gorm.DB) error {
		for _, q := range []string{
			`SET LOCAL session_replication_role = replica`, // no audit trigger per seeded row
			`INSERT INTO defendants (case_id, position, kind, full_name, cpf, birth_date)
		 SELECT (SELECT id FROM cases LIMIT 1), 1000 + g, 'person', 'Torcedor ' || g, lpad((10000000000 + g::bigint * 7919)::text, 11, '0'),
		        date '1990-01-01' + (g % 5000)
		 FROM generate_series(1, ` + strconv.Itoa(n-1) + `) g`,
			`INSERT INTO defendants (case_id, position, kind, full_name, cpf, birth_date)
		 SELECT id, 999, 'person', 'Torcedor Verificado', '46881973659', '1991-07-22' FROM cases LIMIT 1`,
			`INSERT INTO bans (case_id, defendant_id, subject, source, court_code, case_number, cpf, name, birth_date, facts_date,
		   law, article, range_min_months, range_max_months, first_day, months, computed_last_day, last_day, publish, created_at)
		 SELECT d.case_id, d.id, 'person', 'sentence', c.court_code, c.number, d.cpf, d.full_name, d.birth_date, '2025-05-01',
		        'Lei 14.597/2023', 'art. 201, § 2º', 6, 36, current_date - 10, 24, current_date + 700, current_date + 700, true, now()
		 FROM defendants d JOIN cases c ON c.id = d.case_id WHERE NOT EXISTS (SELECT 1 FROM bans b WHERE b.defendant_id = d.id)`,
		} {
			if err := tx.Exec(q).Error; err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	if err := c.srv.RefreshBlocklist(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

// liveHeap is the heap in use after a full collection, in bytes.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		tb.Fatal(fmt.Errorf("size of %s: %w", dir, err))
	}
	return n
}
