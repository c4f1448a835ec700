// Command testcluster starts one throwaway PostgreSQL cluster, runs the
// command given after "--" with PGTEST_DSN set to the cluster's admin DSN,
// then stops and removes the cluster and exits with the command's status.
// `make test` runs `go test` through it: one cluster per run.
package main

import (
	"fmt"
	"os"

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
	code, err := pgtest.RunCommand(c, args)
	cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcluster:", err)
	}
	os.Exit(code)
}
