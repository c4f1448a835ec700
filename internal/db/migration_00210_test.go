package db_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/internal/db"
)

// Migration 00210: hearings written before it keep their history — a
// hearing no longer scheduled gets closed_at (its creation), and of two
// open hearings of one kind in a case (accepted before the rule of one
// open hearing of a kind, Lei 9.099/1995, arts. 72 and 81) the later is
// cancelled with the reason; the unique index then holds, and down undoes
// it.
func TestMigration00210_OneOpenHearingOfAKind(t *testing.T) {
	ctx := context.Background()
	sqlDB := downTo(t, 210)
	for _, q := range []string{
		"INSERT INTO courts (code, name) VALUES ('26.0100', 'Juizado') ON CONFLICT DO NOTHING",
		"INSERT INTO users (id, name, role, court_code) VALUES (9001, 'juiza-00210', 'judge', '26.0100')",
		`INSERT INTO cases (id, number, court_code, year, sequence, status, judge_id, filer_user_id, filer_role, filed_by_kind, filed_by_name,
			occurred_at, facts_date, filed_at) VALUES (9001, '00000019020258260100', '26.0100', 2025, 1, 'distributed', 9001, 9001, 'judge',
			'prosecutor', 'Promotoria', '2025-05-01T20:00:00Z', '2025-05-01', '2025-05-02T12:00:00Z')`,
		`INSERT INTO hearings (id, case_id, court_code, judge_id, kind, room, starts_at, ends_at, status, created_at) VALUES
			(9001, 9001, '26.0100', 9001, 'preliminary', 'Sala 1', '2025-06-10T14:00:00Z', '2025-06-10T15:00:00Z', 'scheduled', '2025-05-03T12:00:00Z'),
			(9002, 9001, '26.0100', 9001, 'preliminary', 'Sala 1', '2025-06-11T14:00:00Z', '2025-06-11T15:00:00Z', 'scheduled', '2025-05-04T12:00:00Z'),
			(9003, 9001, '26.0100', 9001, 'instruction', 'Sala 1', '2025-06-12T14:00:00Z', '2025-06-12T15:00:00Z', 'cancelled', '2025-05-05T12:00:00Z')`,
	} {
		if _, err := sqlDB.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := db.MigrateUp(ctx, sqlDB); err != nil {
		t.Fatalf("up: %v", err)
	}
	state := func(id int) (status, reason string, closed bool) {
		t.Helper()
		if err := sqlDB.QueryRow("SELECT status, reason, closed_at IS NOT NULL FROM hearings WHERE id = $1", id).Scan(&status, &reason, &closed); err != nil {
			t.Fatal(err)
		}
		return
	}
	if st, _, closed := state(9001); st != "scheduled" || closed {
		t.Errorf("the first open hearing: %s closed %v", st, closed)
	}
	if st, reason, closed := state(9002); st != "cancelled" || reason == "" || !closed {
		t.Errorf("the later duplicate: %s %q closed %v", st, reason, closed)
	}
	if st, _, closed := state(9003); st != "cancelled" || !closed {
		t.Errorf("the hearing cancelled before: %s closed %v", st, closed)
	}
	if _, err := sqlDB.Exec(`INSERT INTO hearings (case_id, court_code, judge_id, kind, room, starts_at, ends_at, status, created_at)
		VALUES (9001, '26.0100', 9001, 'preliminary', 'Sala 2', '2025-06-13T14:00:00Z', '2025-06-13T15:00:00Z', 'scheduled', now())`); err == nil {
		t.Error("a second open preliminary hearing was stored")
	}
	for { // down again, through the later migrations, until 00210 is undone
		v, err := db.MigrateDown(ctx, sqlDB)
		if err != nil || v < 210 {
			t.Fatalf("down again: %d %v", v, err)
		}
		if v == 210 {
			break
		}
	}
}
