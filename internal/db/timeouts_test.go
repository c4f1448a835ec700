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
// transaction timeouts and the application's origin (issue 16, item 5): a
// write that meets a lock held elsewhere gives up after the lock timeout,
// as an unavailability (503), instead of waiting for the holder.
func TestPoolTimeoutsCutALockWait(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDSN(t)
	g, err := db.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := g.DB()
	defer sqlDB.Close()
	for setting, want := range map[string]string{"statement_timeout": "20s", "lock_timeout": "5s", "idle_in_transaction_session_timeout": "1min", "juizado.origin": db.Origin} {
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
	if took < 4*time.Second || took > 10*time.Second {
		t.Errorf("the write waited %v, want about the 5 s lock timeout", took)
	}
}
