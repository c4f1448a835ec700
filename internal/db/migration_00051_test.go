package db_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

// Migration 00051: a gate agent's batch_id is keyed by the club account that
// sent it; two accounts may store one batch id, one account may not store
// it twice. Down keeps, of the accounts sharing a batch id, the first
// received, and up again restores the key.
func TestMigration00051_CheckBatchPerAccount(t *testing.T) {
	ctx := context.Background()
	sqlDB, err := sql.Open("pgx", pgtest.NewDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer sqlDB.Close()
	ins := "INSERT INTO blocklist_check_batches (batch_id, user_id, records, received_at, digest) VALUES ('same-1', $1, 0, $2::timestamptz, $3)"
	digest := make([]byte, 32)
	if _, err := sqlDB.Exec(ins, 1, "2025-06-10T12:00:00Z", digest); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlDB.Exec(ins, 2, "2025-06-10T12:05:00Z", digest); err != nil {
		t.Fatalf("another account, same batch id: %v", err)
	}
	if _, err := sqlDB.Exec(ins, 1, "2025-06-10T12:10:00Z", digest); err == nil {
		t.Fatal("the same account stored one batch id twice")
	}
	if _, err := sqlDB.Exec(ins, 3, "2025-06-10T12:10:00Z", []byte{1}); err == nil {
		t.Fatal("a digest that is not 32 bytes (SHA-256) was stored")
	}
	for { // later migrations first, then 00051
		v, err := db.MigrateDown(ctx, sqlDB)
		if err != nil || v < 51 {
			t.Fatalf("down: %d %v, want 00051 undone", v, err)
		}
		if v == 51 {
			break
		}
	}
	var user int64
	var n int
	if err := sqlDB.QueryRow("SELECT count(*), min(user_id) FROM blocklist_check_batches").Scan(&n, &user); err != nil || n != 1 || user != 1 {
		t.Fatalf("after down: %d batches, first account %d (%v), want the first received only", n, user, err)
	}
	if _, err := db.MigrateUp(ctx, sqlDB); err != nil {
		t.Fatalf("up again: %v", err)
	}
	if _, err := sqlDB.Exec(ins, 2, "2025-06-10T12:05:00Z", digest); err != nil {
		t.Fatalf("after up again, another account: %v", err)
	}
}
