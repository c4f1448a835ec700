// Command testcluster starts one throwaway PostgreSQL cluster, runs the
// command given after "--" with PGTEST_DSN set to the cluster's admin DSN,
// then stops and removes the cluster and exits with the command's status.
// `make test` runs `go test` through it: one cluster per run.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/juizado/juizado/internal/pgtest"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testcluster -- COMMAND [ARGS...]")
		os.Exit(2)
	}
	c, cleanup, err := pgtest.StartCluster()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcluster:", err)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "testcluster: PostgreSQL at", c.Dir)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), pgtest.EnvDSN+"="+c.DSN("postgres"))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-sig
		if cmd.Process != nil {
			_ = cmd.Process.Signal(s)
		}
	}()
	err = cmd.Run()
	cleanup()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		os.Exit(ee.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "testcluster:", err)
		os.Exit(1)
	}
}
