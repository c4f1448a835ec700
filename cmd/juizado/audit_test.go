package main

import (
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/pgtest"
	"gorm.io/gorm"
)

// cli runs the binary bin with env and gives its combined output and exit
// code; a failure to start it fails the test.
func cli(t *testing.T, bin string, env []string) func(args ...string) (string, int) {
	return func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
}

// `juizado audit verify` exits 0 on an intact chain and 1 naming the first
// row edited directly in the database.
func TestAuditVerifyCLI(t *testing.T) {
	bin := buildBinary(t)
	dsn, g := demoDB(t)
	env := append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_KEY_DIR="+t.TempDir())
	run := cli(t, bin, env)
	if out, code := run("audit", "checkpoint"); code != 0 {
		t.Fatalf("checkpoint: %d %s", code, out)
	}
	out, code := run("audit", "verify")
	if code != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("verify on an intact trail: %d %s", code, out)
	}
	var row int64
	g.Raw("SELECT id FROM audit_log WHERE table_name = 'bans' ORDER BY id LIMIT 1").Scan(&row)
	if row == 0 {
		t.Fatal("the seeded sentences wrote no audit rows for bans")
	}
	err := pgtest.Admin(t, g).Transaction(func(tx *gorm.DB) error { // a superuser: the application's role may not
		if err := tx.Exec("SET LOCAL session_replication_role = replica").Error; err != nil {
			return err
		}
		return tx.Exec(`UPDATE audit_log SET after = jsonb_set(after, '{last_day}', '"2099-12-31"') WHERE id = ?`, row).Error
	})
	if err != nil {
		t.Fatal(err)
	}
	out, code = run("audit", "verify")
	if code != 1 || !strings.Contains(out, "row "+strconv.FormatInt(row, 10)) {
		t.Fatalf("verify after a direct edit of row %d: exit %d, %s", row, code, out)
	}
}

// A write made outside the application (psql: a connection without the
// application's origin) is reported by `juizado audit verify` with its
// table, record and instant, exit 1, and the unsigned tail is shown; the
// blocklist left behind by it is found by `juizado audit reconcile` (exit
// 1), corrected with --fix (a new version), then reconciled (exit 0).
// Issue 16, item 4.
func TestAuditVerifyReportsWritesOutsideTheApplicationAndReconcile(t *testing.T) {
	bin := buildBinary(t)
	dsn, g := demoDB(t)
	env := append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_KEY_DIR="+t.TempDir())
	run := cli(t, bin, env)
	if out, code := run("audit", "reconcile"); code != 0 {
		t.Fatalf("reconcile before the edit: %d %s", code, out)
	}
	if out, code := run("audit", "verify"); code != 0 || !strings.Contains(out, "unsigned tail") {
		t.Fatalf("verify before the edit: %d %s", code, out)
	}
	var ban int64
	g.Raw("SELECT ban_id FROM blocklist_entries WHERE last_day IS NOT NULL ORDER BY ban_id LIMIT 1").Scan(&ban)
	if ban == 0 {
		t.Fatal("the demo data has no ban in force")
	}
	psql, err := sql.Open("pgx", dsn) // not db.Open: the DSN's role (a superuser), not juizado_app, as psql
	if err != nil {
		t.Fatal(err)
	}
	defer psql.Close()
	if _, err := psql.Exec("UPDATE bans SET last_day = '2099-12-31' WHERE id = $1", ban); err != nil {
		t.Fatal(err)
	}
	out, code := run("audit", "verify")
	if code != 1 || !strings.Contains(out, "WRITTEN OUTSIDE THE APPLICATION") || !strings.Contains(out, "update bans record "+strconv.FormatInt(ban, 10)+" at ") {
		t.Fatalf("verify after an UPDATE in psql: exit %d, %s", code, out)
	}
	out, code = run("audit", "reconcile")
	if code != 1 || !strings.Contains(out, "ban "+strconv.FormatInt(ban, 10)+": change") {
		t.Fatalf("reconcile after the edit: exit %d, %s", code, out)
	}
	var before int64
	g.Raw("SELECT max(version) FROM blocklist_versions").Scan(&before)
	if out, code := run("audit", "reconcile", "--fix"); code != 0 || !strings.Contains(out, "corrected") {
		t.Fatalf("reconcile --fix: exit %d, %s", code, out)
	}
	var after int64
	g.Raw("SELECT max(version) FROM blocklist_versions").Scan(&after)
	if after != before+1 {
		t.Errorf("versions %d → %d, want one new version", before, after)
	}
	if out, code := run("audit", "reconcile"); code != 0 {
		t.Fatalf("reconcile after --fix: exit %d, %s", code, out)
	}
}

// A superuser's connection that sets juizado.origin = 'app' (what migration
// 00031 trusted) and a judge's actor settings, then edits a ban, is named
// by `juizado audit verify` as written outside by its database role, not as
// the judge; the same superuser editing the ban again with the triggers off
// (session_replication_role = replica, which juizado_app may not set) leaves
// no audit row, and verify names the ban as differing from its last audited
// image. Issue 32, item 4.
func TestAuditVerifyCLI_OutsideByRoleNotByOriginSetting_AndRowEditedWithTriggersDisabled(t *testing.T) {
	bin := buildBinary(t)
	dsn, g := demoDB(t)
	run := cli(t, bin, append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_KEY_DIR="+t.TempDir()))
	if out, code := run("audit", "verify"); code != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("verify on the demo data: %d %s", code, out)
	}
	var ban int64
	g.Raw("SELECT id FROM bans ORDER BY id LIMIT 1").Scan(&ban)
	psql, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer psql.Close()
	id := strconv.FormatInt(ban, 10)
	exec := func(stmts ...string) {
		t.Helper()
		tx, err := psql.Begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		for _, q := range stmts {
			if _, err := tx.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	exec("SET LOCAL juizado.origin = 'app'", "SET LOCAL juizado.actor_id = '1'", "SET LOCAL juizado.actor_name = 'Juíza Demo'",
		"SET LOCAL juizado.actor_role = 'judge'", "SET LOCAL juizado.actor_domain = '26.0100'",
		"UPDATE bans SET override_reason = 'editado' WHERE id = "+id)
	out, code := run("audit", "verify")
	if code != 1 || !strings.Contains(out, "update bans record "+id+" at ") || !strings.Contains(out, " by postgres") || !strings.Contains(out, "claiming Juíza Demo, judge") {
		t.Fatalf("verify after an UPDATE with origin 'app' and a judge's settings: exit %d, %s", code, out)
	}
	if strings.Contains(out, "do not match") {
		t.Fatalf("an audited edit reported as not matching the trail: %s", out)
	}
	exec("SET LOCAL session_replication_role = replica", "UPDATE bans SET last_day = '2099-12-31' WHERE id = "+id)
	out, code = run("audit", "verify")
	if code != 1 || !strings.Contains(out, `bans {"id": `+id+`}: differs (last audit row `) {
		t.Fatalf("verify after an UPDATE with the triggers off: exit %d, %s", code, out)
	}
}
