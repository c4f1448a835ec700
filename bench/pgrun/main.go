// Command pgrun starts a private PostgreSQL cluster for a benchmark, runs
// the command given after "--" with PGTEST_DSN set to its admin DSN, then
// stops and removes the cluster. Unlike internal/pgtest/cmd/testcluster it
// keeps fsync and synchronous commit on (-fast turns them off), so write
// figures count a durable commit, and it gives the server 1 GB of shared
// buffers (-shared-buffers) as a data-centre server would have. Socket only:
// no TCP listener.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/juizado/juizado/internal/pgcluster"
	"github.com/juizado/juizado/internal/pgtest"
)

func main() {
	fast := flag.Bool("fast", false, "fsync and synchronous_commit off (as the test clusters)")
	buffers := flag.String("shared-buffers", "1GB", "shared_buffers")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: pgrun [-fast] [-shared-buffers 1GB] -- COMMAND [ARGS...]")
		os.Exit(2)
	}
	if code, err := run(*fast, *buffers, args); err != nil {
		fmt.Fprintln(os.Stderr, "pgrun:", err)
		os.Exit(1)
	} else {
		os.Exit(code)
	}
}

func run(fast bool, buffers string, args []string) (int, error) {
	dir, err := os.MkdirTemp("", "juizado-bench-pg-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755)
	c, err := pgcluster.Open(filepath.Join(dir, "data"))
	if err != nil {
		return 0, err
	}
	if err := c.Init(); err != nil {
		return 0, err
	}
	conf := fmt.Sprintf("\n# bench/pgrun\nshared_buffers = %s\neffective_cache_size = 8GB\nmax_wal_size = 4GB\ncheckpoint_timeout = 15min\n", buffers)
	f, err := os.OpenFile(filepath.Join(c.Dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	_, err = f.WriteString(conf)
	f.Close()
	if err != nil {
		return 0, err
	}
	if err := c.Start(fast); err != nil {
		return 0, err
	}
	defer c.Stop()
	fmt.Fprintf(os.Stderr, "pgrun: PostgreSQL at %s (fsync %v, shared_buffers %s)\n", c.Dir, map[bool]string{true: "off", false: "on"}[fast], buffers)
	return pgtest.RunCommand(c, args)
}
