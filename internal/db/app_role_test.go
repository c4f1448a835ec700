package db_test

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

// The application's connections work as juizado_app whatever role the DSN
// names (here the cluster's superuser), and stay so after RESET ROLE and
// RESET ALL; the role is no superuser and owns no table (issue 32 item 4,
// ../shared/API.md "Operations").
func TestAppRole_ConnectionsRunAsJuizadoApp(t *testing.T) {
	g := pgtest.NewDB(t)
	sqlDB, _ := g.DB()
	sqlDB.SetMaxOpenConns(1)
	for _, stmt := range []string{"", "RESET ROLE", "RESET ALL"} {
		if stmt != "" {
			if err := g.Exec(stmt).Error; err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		}
		var cur, sess string
		if err := g.Raw("SELECT current_user::text, session_user::text").Row().Scan(&cur, &sess); err != nil {
			t.Fatal(err)
		}
		if cur != db.AppRole || sess == db.AppRole {
			t.Fatalf("after %q: current_user %q, session_user %q; want %s taken by the DSN's role", stmt, cur, sess, db.AppRole)
		}
	}
	var super bool
	var owned int
	if err := g.Raw("SELECT rolsuper, (SELECT count(*) FROM pg_class WHERE relowner = r.oid) FROM pg_roles r WHERE rolname = ?", db.AppRole).Row().Scan(&super, &owned); err != nil {
		t.Fatal(err)
	}
	if super || owned != 0 {
		t.Fatalf("%s: superuser %v, owns %d relations; want neither", db.AppRole, super, owned)
	}
	// The owner's connection (migrate) is the DSN's role.
	owner := pgtest.OpenOwner(t, pgtest.NewDSN(t))
	var cur string
	if err := owner.Raw("SELECT current_user::text").Row().Scan(&cur); err != nil || cur == db.AppRole {
		t.Fatalf("OpenOwner works as %q (%v), want the DSN's role", cur, err)
	}
}

// As juizado_app, nothing that silences or rewrites the audit trail is
// allowed: session_replication_role = replica (the triggers off), disabling
// a trigger, TRUNCATE, DDL, UPDATE or DELETE of the trail (issue 32 item 4).
func TestAppRole_CannotSetSessionReplicationRoleNorSilenceTheAudit(t *testing.T) {
	g := pgtest.NewDB(t)
	for _, stmt := range []string{
		"SET session_replication_role = replica",
		"ALTER TABLE bans DISABLE TRIGGER audit_write",
		"ALTER TABLE bans DISABLE TRIGGER ALL",
		"TRUNCATE bans CASCADE",
		"DROP TRIGGER audit_write ON bans",
		"CREATE TABLE sneaky (id int)",
		"CREATE OR REPLACE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
		"UPDATE audit_log SET actor_name = 'x'",
		"DELETE FROM audit_log",
		"DELETE FROM goose_db_version",
		// An audit row of a write it did not make (only reads are inserted directly).
		`INSERT INTO audit_log (id, actor_name, role, action, table_name, record_id, after, prev_hash, row_hash)
		 VALUES (0, 'Juíza', 'judge', 'update', 'bans', '1', '{"id": 1}', '\x', '\x')`,
		"SET ROLE postgres_not_a_member",
	} {
		err := g.Exec(stmt).Error
		if err == nil {
			t.Errorf("%s: accepted as %s", stmt, db.AppRole)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "permission denied") && !strings.Contains(msg, "must be owner") && !strings.Contains(msg, "does not exist") && !strings.Contains(msg, "inserts only reads") {
			t.Errorf("%s: %v, want a refusal of rights", stmt, err)
		}
	}
	// What the application does: read and write the court's records, record
	// reads in the trail, sign checkpoints, take ids from sequences.
	if err := g.Exec(`INSERT INTO audit_log (id, actor_name, role, action, table_name, record_id, prev_hash, row_hash)
		VALUES (0, 'Ana', 'clerk', 'read', 'members', '1', '\x', '\x')`).Error; err != nil {
		t.Fatal(err)
	}
	if err := g.Exec("INSERT INTO courts (code, name) VALUES ('26.0100', 'Juizado')").Error; err != nil {
		t.Fatal(err)
	}
	if err := g.Exec("UPDATE courts SET name = 'Juizado do Torcedor' WHERE code = '26.0100'").Error; err != nil {
		t.Fatal(err)
	}
	if err := g.Exec("INSERT INTO audit_checkpoints (audit_id, head_hash, key_id, signature) VALUES (1, '\\x00', 'k', '\\x00')").Error; err != nil {
		t.Fatal(err)
	}
}

// A write by any role but juizado_app is audited as "outside" naming that
// role, even when the connection sets juizado.origin = 'app' (what 00031
// trusted) and the actor settings of a judge; the application's write
// keeps its actor (issue 32 item 4).
func TestAuditOutsideByRole_OriginSettingAndActorClaimNotTrusted(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDSN(t)
	g := pgtest.Open(t, dsn)
	actx := db.WithActor(ctx, actor.Actor{UserID: 7, Name: "Ana", Role: "clerk", Court: "26.0100"})
	if err := db.WithTx(actx, g, func(ctx context.Context) error {
		return db.Conn(ctx, g).Exec("INSERT INTO courts (code, name) VALUES ('26.0100', 'Juizado')").Error
	}); err != nil {
		t.Fatal(err)
	}
	psql, err := sql.Open("pgx", dsn) // the cluster's superuser, as psql
	if err != nil {
		t.Fatal(err)
	}
	defer psql.Close()
	tx, err := psql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"SET LOCAL juizado.origin = 'app'", "SET LOCAL juizado.actor_id = '3'",
		"SET LOCAL juizado.actor_name = 'Juíza Beatriz'", "SET LOCAL juizado.actor_role = 'judge'",
		"SET LOCAL juizado.actor_domain = '26.0100'", "UPDATE courts SET name = 'Outro' WHERE code = '26.0100'"} {
		if _, err := tx.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	type row struct {
		ActorID   *int64
		ActorName string
		Role      string
		Domain    string
		Action    string
	}
	var rows []row
	if err := g.Raw("SELECT actor_id, actor_name, role, domain, action FROM audit_log WHERE table_name = 'courts' ORDER BY id").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("audit rows: %+v", rows)
	}
	if r := rows[0]; r.Role != "clerk" || r.ActorName != "Ana" || r.ActorID == nil || *r.ActorID != 7 || r.Domain != "26.0100" {
		t.Errorf("the application's insert: %+v, want Ana the clerk", r)
	}
	r := rows[1]
	if r.Role != "outside" || r.ActorID != nil || r.Domain != "" || !strings.HasPrefix(r.ActorName, "postgres") || !strings.Contains(r.ActorName, "claiming Juíza Beatriz, judge") {
		t.Errorf("the superuser's update with origin 'app' and a judge's settings: %+v, want outside, naming postgres and the claim", r)
	}
	out, err := audit.WrittenOutside(ctx, g, 0)
	if err != nil || len(out) != 1 || out[0].Table != "courts" || out[0].Action != "update" {
		t.Errorf("rows written outside: %v %v, want the update", out, err)
	}
}

// Migration 00095 grants the role in every database of the cluster: several
// databases migrated at once (the role made once, the grants per database)
// each give juizado_app its rights.
func TestAppRole_MigrationIdempotentAcrossDatabases(t *testing.T) {
	ctx := context.Background()
	var wg sync.WaitGroup
	dsns := []string{pgtest.NewEmptyDSN(t), pgtest.NewEmptyDSN(t), pgtest.NewEmptyDSN(t)}
	errs := make([]error, len(dsns))
	for i, dsn := range dsns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sqlDB, err := sql.Open("pgx", dsn)
			if err != nil {
				errs[i] = err
				return
			}
			defer sqlDB.Close()
			_, errs[i] = db.MigrateUp(ctx, sqlDB)
		}()
	}
	wg.Wait()
	for i, dsn := range dsns {
		if errs[i] != nil {
			t.Fatalf("database %d: %v", i, errs[i])
		}
		g := pgtest.Open(t, dsn)
		var ok bool
		if err := g.Raw("SELECT has_table_privilege('bans', 'UPDATE') AND NOT has_table_privilege('bans', 'TRUNCATE') AND has_table_privilege('audit_log', 'INSERT') AND NOT has_table_privilege('audit_log', 'UPDATE')").Row().Scan(&ok); err != nil || !ok {
			t.Fatalf("database %d: rights of %s wrong (%v)", i, db.AppRole, err)
		}
		sqlDB, _ := g.DB()
		if err := db.CheckSchema(ctx, sqlDB); err != nil {
			t.Fatalf("database %d: CheckSchema as %s: %v", i, db.AppRole, err)
		}
	}
}
