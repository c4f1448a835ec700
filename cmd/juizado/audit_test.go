package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"gorm.io/gorm"
)

// `juizado audit verify` exits 0 on an intact chain and 1 naming the first
// row edited directly in the database.
func TestAuditVerifyCLI(t *testing.T) {
	bin := buildBinary(t)
	dsn, g := demoDB(t)
	env := append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_KEY_DIR="+t.TempDir())
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
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
