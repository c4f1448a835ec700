package pgtest

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/juizado/juizado/internal/pgcluster"
)

// RunCommand runs args (a command and its arguments) with the standard
// streams of this process and EnvDSN set to cluster c's admin DSN,
// passing SIGINT and SIGTERM on to it, and returns its exit status; err is
// set only when the command could not be run at all.
func RunCommand(c *pgcluster.Cluster, args []string) (int, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), EnvDSN+"="+c.DSN("postgres"))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		for s := range sig {
			if cmd.Process != nil {
				_ = cmd.Process.Signal(s)
			}
		}
	}()
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 1, err
	}
	return 0, nil
}
