package db_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

// Every pooled connection carries the statement, lock and idle-in-
// transaction timeouts (and works as the application's role, migration
// 00095, which replaced the setting juizado.origin): a
// write that meets a lock held elsewhere gives up after the lock timeout,
// as an unavailability (503), instead of waiting for the holder.
func TestPoolTimeoutsCutALockWait(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDSN(t)
	saved := db.Timeouts
	db.Timeouts.Lock = 2 * time.Second // shorter than the default, for the test's sake
	g, err := db.Open(ctx, dsn)
	db.Timeouts = saved
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := g.DB()
	defer sqlDB.Close()
	for setting, want := range map[string]string{"statement_timeout": "1min", "lock_timeout": "2s", "idle_in_transaction_session_timeout": "1min", "role": db.AppRole} {
		var got string
		if err := g.Raw("SELECT current_setting(?)", setting).Scan(&got).Error; err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", setting, got, err, want)
		}
	}
	holder, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("INSERT INTO courts (code, name) VALUES ('26.0100', '')"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("LOCK TABLE courts IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = g.Exec("UPDATE courts SET name = 'x'").Error
	took := time.Since(start)
	if err == nil || !db.IsUnavailable(err) {
		t.Fatalf("write under a held lock: %v, want a lock timeout (unavailable)", err)
	}
	if took < 1500*time.Millisecond || took > 8*time.Second {
		t.Errorf("the write waited %v, want about the 2 s lock timeout", took)
	}
}
