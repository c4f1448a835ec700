package db_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// migrate up, status, down and up again on an empty database; CheckSchema
// reports a schema that is behind.
func TestMigrateUpDownStatus(t *testing.T) {
	ctx := context.Background()
	sqlDB, err := sql.Open("pgx", pgtest.NewEmptyDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer sqlDB.Close()
	if err := db.CheckSchema(ctx, sqlDB); !errors.Is(err, db.ErrSchemaBehind) {
		t.Fatalf("empty database: CheckSchema = %v, want ErrSchemaBehind", err)
	}
	applied, err := db.MigrateUp(ctx, sqlDB)
	if err != nil || len(applied) == 0 || applied[0] != 1 {
		t.Fatalf("up: %v %v", applied, err)
	}
	if err := db.CheckSchema(ctx, sqlDB); err != nil {
		t.Fatalf("after up: %v", err)
	}
	st, err := db.Status(ctx, sqlDB)
	if err != nil || len(st) != len(applied) || st[0].AppliedAt.IsZero() {
		t.Fatalf("status: %+v %v", st, err)
	}
	last := applied[len(applied)-1]
	for range applied {
		if _, err := db.MigrateDown(ctx, sqlDB); err != nil {
			t.Fatalf("down: %v", err)
		}
	}
	var n int
	if err := sqlDB.QueryRow("SELECT count(*) FROM information_schema.tables WHERE table_name = 'cases'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("cases table after down: %d %v", n, err)
	}
	again, err := db.MigrateUp(ctx, sqlDB)
	if err != nil || again[len(again)-1] != last {
		t.Fatalf("up again: %v %v", again, err)
	}
}

// Migration 00014: two fan groups with one CNPJ stop it with their list (the
// court decides which record is right); without duplicates it makes the
// CNPJ unique among the groups that have one.
func TestMigration00014_FanGroupCNPJUnique(t *testing.T) {
	ctx := context.Background()
	sqlDB := downTo(t, 14)
	if _, err := sqlDB.Exec(`INSERT INTO fan_groups (name, cnpj) VALUES ('Torcida A', '11222333000181'), ('Torcida B', '11222333000181'),
		('Torcida C', NULL), ('Torcida D', NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MigrateUp(ctx, sqlDB); err == nil || !strings.Contains(err.Error(), "11222333000181") || !strings.Contains(err.Error(), "Torcida B") {
		t.Fatalf("up with two groups on one CNPJ: %v", err)
	}
	if _, err := sqlDB.Exec(`UPDATE fan_groups SET cnpj = NULL WHERE name = 'Torcida B'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MigrateUp(ctx, sqlDB); err != nil {
		t.Fatalf("up: %v", err)
	}
	if _, err := sqlDB.Exec(`INSERT INTO fan_groups (name, cnpj) VALUES ('Torcida E', '11222333000181')`); !db.IsUniqueViolation(err, "fan_groups_cnpj_key") {
		t.Fatalf("a second group with the CNPJ: %v", err)
	}
	if _, err := sqlDB.Exec(`INSERT INTO fan_groups (name) VALUES ('Torcida F')`); err != nil {
		t.Fatalf("a third de facto group: %v", err)
	}
}

// downTo opens a fresh migrated database and migrates it down, one
// migration at a time, until migration version is undone; the database
// closes with the test.
func downTo(t *testing.T, version int64) *sql.DB {
	t.Helper()
	sqlDB, err := sql.Open("pgx", pgtest.NewDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlDB.Close() })
	for {
		v, err := db.MigrateDown(context.Background(), sqlDB)
		if err != nil || v < version {
			t.Fatalf("down: %d %v, want %05d undone", v, err, version)
		}
		if v == version {
			return sqlDB
		}
	}
}
