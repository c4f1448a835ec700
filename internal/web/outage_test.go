package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgcluster"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/internal/web"
	"gorm.io/gorm"
)

// Degraded mode: PostgreSQL is stopped while gates check
// CPFs and restarted. During the outage the CPF check answers 200 from the
// version in memory for the token verified before, saying how old it is;
// every other request is 503 with Retry-After (a page an HTML page), never
// 500; the check records wait in memory and on disk and reach the database
// when it returns.
func TestOutageUnderGateLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own PostgreSQL")
	}
	c, g, dir := privateCluster(t)
	ctx := context.Background()
	if err := cases.EnsureCourt(ctx, g, "26.0100", ""); err != nil {
		t.Fatal(err)
	}
	spool := filepath.Join(dir, "spool")
	srv := testenv.MustServer(t, g, testenv.With(func(d *web.Deps) { d.SpoolDir = spool }))
	defer srv.Close()
	tok := func(spec accounts.UserSpec) string {
		u, _, err := accounts.EnsureUser(ctx, g, spec)
		if err != nil {
			t.Fatal(err)
		}
		tk, err := accounts.NewToken(ctx, g, u.ID, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	club := tok(accounts.UserSpec{Name: "portao", Role: "club", Club: "Corinthians"})
	clerk := tok(accounts.UserSpec{Name: "cartorio", Role: "clerk", Court: "26.0100"})
	get := func(path, token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		srv.Echo.ServeHTTP(rec, req)
		return rec
	}
	if rec := get("/api/v1/blocklist/check/52601815906", club); rec.Code != 200 {
		t.Fatalf("check before the outage: %d %s", rec.Code, rec.Body)
	}
	if rec := get("/api/v1/cases", clerk); rec.Code != 200 {
		t.Fatalf("cases before the outage: %d", rec.Code)
	}
	// Gates keep checking through the outage.
	var checks, bad atomic.Int64
	var mu sync.Mutex
	var firstBad string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				rec := get("/api/v1/blocklist/check/52601815906", club)
				checks.Add(1)
				if rec.Code != 200 {
					bad.Add(1)
					mu.Lock()
					if firstBad == "" {
						firstBad = fmt.Sprintf("%d %s", rec.Code, rec.Body)
					}
					mu.Unlock()
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	rec := get("/api/v1/blocklist/check/52601815906", club)
	if rec.Code != 200 || rec.Header().Get("X-Blocklist-Age") == "" || rec.Header().Get("X-Blocklist-Verified-At") == "" {
		t.Errorf("check during the outage: %d, age %q, want 200 with the version's age", rec.Code, rec.Header().Get("X-Blocklist-Age"))
	}
	rec = get("/api/v1/cases", clerk)
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Header().Get("Content-Type"), "problem+json") {
		t.Errorf("API during the outage: %d Retry-After %q %s, want 503 problem with Retry-After", rec.Code, rec.Header().Get("Retry-After"), rec.Header().Get("Content-Type"))
	}
	rec = get("/verificar/ABCD-EFGH-IJKL", "")
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Header().Get("Content-Type"), "text/html") {
		t.Errorf("page during the outage: %d %q %s, want an HTML 503", rec.Code, rec.Header().Get("Content-Type"), shortBody(rec.Body.String()))
	}
	if rec := get("/readyz", ""); rec.Code != 503 {
		t.Errorf("readyz during the outage: %d", rec.Code)
	}
	time.Sleep(500 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(spool, "blocklist-checks.jsonl")); err != nil {
		t.Errorf("the check records are not on disk during the outage: %v", err)
	}
	if err := c.Start(true); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	if bad.Load() > 0 {
		t.Errorf("%d of %d checks failed through the outage; first: %s", bad.Load(), checks.Load(), firstBad)
	}
	want := checks.Load() + 2 // the workers' and the two single checks
	deadline := time.Now().Add(15 * time.Second)
	var n int64
	for time.Now().Before(deadline) {
		if err := g.Raw("SELECT count(*) FROM blocklist_checks").Scan(&n).Error; err == nil && n >= want {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if n < want {
		t.Errorf("check records after the outage: %d, want %d", n, want)
	}
	if rec := get("/api/v1/cases", clerk); rec.Code != 200 {
		t.Errorf("cases after the outage: %d", rec.Code)
	}
}

// privateCluster starts a PostgreSQL cluster of the test's own (the
// degraded-mode tests stop it), migrated as its owner, and returns it, a
// handle as the application's role, and the temporary directory that
// holds it (removed, and the cluster stopped, when the test ends).
func privateCluster(t *testing.T) (*pgcluster.Cluster, *gorm.DB, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts its own PostgreSQL")
	}
	dir, err := os.MkdirTemp("", "juizado-outage-") // traversable by postgres when run as root
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	_ = os.Chmod(dir, 0o755)
	c, err := pgcluster.Open(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Init(); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	ctx := context.Background()
	owner, err := db.OpenOwner(ctx, c.DSN("postgres")) // migrate: as the owner (it creates juizado_app)
	if err != nil {
		t.Fatal(err)
	}
	ownerSQL, _ := owner.DB()
	_, err = db.MigrateUp(ctx, ownerSQL)
	ownerSQL.Close()
	if err != nil {
		t.Fatal(err)
	}
	g, err := db.Open(ctx, c.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := g.DB()
	t.Cleanup(func() { sqlDB.Close() })
	return c, g, dir
}
