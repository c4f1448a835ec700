package main

import (
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

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
	err := g.Transaction(func(tx *gorm.DB) error {
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
	psql, err := sql.Open("pgx", dsn) // not db.Open: no application origin, as psql
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
