package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/juizado/juizado/internal/pgcluster"
)

// The private cluster (DATABASE_URL unset) is shared by every juizado
// process of the user: `make run`, `token create`, `migrate status`...
// Each holds a shared lock on DIR.use for as long as it runs; starting
// the cluster happens under an exclusive lock on DIR.start, and the
// process that starts it leaves the mark DIR.started. When a process
// ends, it stops the cluster if it can take DIR.use exclusively (no other
// juizado process uses the cluster) and the mark is there (a juizado
// process started it, not the user by hand): the last one out stops it,
// and two commands started at once share one start.

// privateUse is this process's shared lock on DIR.use, nil when it does
// not use the private cluster.
var privateUse *os.File

// privateCluster is the private cluster this process uses.
var privateCluster *pgcluster.Cluster

// usePrivate takes the shared use lock and, under the start lock, creates
// c when it does not exist and starts it when it is not running (marking
// that a juizado process started it).
func usePrivate(c *pgcluster.Cluster) error {
	if err := os.MkdirAll(filepath.Dir(c.Dir), 0o755); err != nil {
		return err
	}
	use, err := os.OpenFile(c.Dir+".use", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	// Waits while another process is stopping the cluster.
	if err := syscall.Flock(int(use.Fd()), syscall.LOCK_SH); err != nil {
		use.Close()
		return err
	}
	start, err := os.OpenFile(c.Dir+".start", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		use.Close()
		return err
	}
	defer start.Close() // releases the start lock
	if err := syscall.Flock(int(start.Fd()), syscall.LOCK_EX); err != nil {
		use.Close()
		return err
	}
	if !c.Initialized() {
		fmt.Fprintln(os.Stderr, "juizado: DATABASE_URL is unset: creating the private PostgreSQL cluster in", c.Dir)
	}
	if err := c.Init(); err != nil {
		use.Close()
		return err
	}
	if !c.Running() {
		if err := c.Start(false); err != nil {
			use.Close()
			return err
		}
		if err := os.WriteFile(c.Dir+".started", []byte(fmt.Sprintln(os.Getpid())), 0o600); err != nil {
			use.Close()
			return err
		}
	}
	privateUse, privateCluster = use, c
	return nil
}

// releasePrivate ends this process's use of the private cluster, stopping
// it when this is the last juizado process using it and one of them
// started it. It says so on stderr.
func releasePrivate() error {
	if privateUse == nil {
		return nil
	}
	use, c := privateUse, privateCluster
	privateUse, privateCluster = nil, nil
	defer use.Close()
	if err := syscall.Flock(int(use.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return nil // another juizado process still uses it
	}
	if _, err := os.Stat(c.Dir + ".started"); err != nil {
		return nil // started by hand: left running
	}
	if c.Running() {
		fmt.Fprintln(os.Stderr, "juizado: stopping the private PostgreSQL cluster")
		if err := c.Stop(); err != nil {
			return err
		}
	}
	return os.Remove(c.Dir + ".started")
}
