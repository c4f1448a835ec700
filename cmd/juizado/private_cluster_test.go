package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// With DATABASE_URL unset every command uses the private cluster of
// `make run` (private.go): a one-off command creates and starts it when
// needed and stops it again when it ends; commands started at once share
// one start; a command run while a server uses the cluster leaves it
// running, and the server stops it when it ends.
func TestPrivateClusterSharedAndStopped(t *testing.T) {
	if testing.Short() {
		t.Skip("initdb")
	}
	bin := buildBinary(t)
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
	addr := freeAddr(t)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DATABASE_URL=") && !strings.HasPrefix(kv, "PGTEST_") {
			env = append(env, kv)
		}
	}
	env = append(env, "JUIZADO_PGDATA="+pgdata, "JUIZADO_KEY_DIR="+filepath.Join(base, "keys"), "JUIZADO_ADDR="+addr)
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		return cmd
	}
	running := func() bool {
		_, err := os.Stat(filepath.Join(pgdata, "postmaster.pid"))
		return err == nil
	}
	if out, err := command("migrate", "up").CombinedOutput(); err != nil {
		t.Fatalf("juizado migrate up: %v\n%s", err, out)
	}
	if running() {
		t.Fatal("after migrate up the private cluster still runs")
	}
	// Three commands at once, the cluster stopped: one start, all succeed.
	var wg sync.WaitGroup
	outs := make([]string, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Go(func() {
			out, err := command("migrate", "status").CombinedOutput()
			outs[i], errs[i] = string(out), err
		})
	}
	wg.Wait()
	for i := range 3 {
		if errs[i] != nil || !strings.Contains(outs[i], "00016_name_heads.sql") {
			t.Errorf("concurrent migrate status %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	if running() {
		t.Fatal("after three concurrent commands the private cluster still runs")
	}
	// A server uses it: a command leaves it running; the server stops it.
	srv := command("serve")
	var srvOut strings.Builder
	srv.Stdout, srv.Stderr = &srvOut, &srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	up := false
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if r, err := http.Get(fmt.Sprintf("http://%s/healthz", addr)); err == nil {
			r.Body.Close()
			up = true
			break
		}
	}
	if !up {
		srv.Process.Kill()
		srv.Wait()
		t.Fatalf("serve did not start:\n%s", srvOut.String())
	}
	if out, err := command("migrate", "status").CombinedOutput(); err != nil {
		t.Errorf("migrate status beside serve: %v\n%s", err, out)
	}
	if !running() {
		t.Error("a command run beside serve stopped the server's cluster")
	}
	srv.Process.Signal(syscall.SIGINT)
	if err := srv.Wait(); err != nil {
		t.Errorf("serve after SIGINT: %v\n%s", err, srvOut.String())
	}
	if running() {
		t.Errorf("after serve ended the private cluster still runs:\n%s", srvOut.String())
	}
}
