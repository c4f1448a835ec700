package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// With DATABASE_URL unset a one-off command uses the private cluster of
// `make run`: it creates and starts it when needed and stops it again when
// it ends, so nothing is left running behind `migrate status`.
func TestPrivateClusterStoppedAfterCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("initdb")
	}
	bin := filepath.Join(t.TempDir(), "juizado")
	if out, err := exec.Command(goBin(), "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A folder the postgres user can reach when the tests run as root.
	base, err := os.MkdirTemp("/tmp", "juizado-private-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	pgdata := filepath.Join(base, "pg")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DATABASE_URL=") && !strings.HasPrefix(kv, "PGTEST_") {
			env = append(env, kv)
		}
	}
	env = append(env, "JUIZADO_PGDATA="+pgdata, "JUIZADO_KEY_DIR="+filepath.Join(base, "keys"))
	pidFile := filepath.Join(pgdata, "postmaster.pid")
	for _, args := range [][]string{{"migrate", "up"}, {"migrate", "status"}} {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("juizado %v: %v\n%s", args, err, out)
		}
		if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
			t.Fatalf("after juizado %v the private cluster still runs (%s: %v)", args, pidFile, err)
		}
		if args[1] == "status" && !strings.Contains(string(out), "00016_name_heads.sql") {
			t.Errorf("migrate status on the private cluster:\n%s", out)
		}
	}
}
