package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/pgcluster"
	"github.com/spf13/cobra"
)

func backupCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Dump the database to FILE with pg_dump (custom format, compressed; mode 0600: it holds personal data)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			// Personal data (LGPD art. 46): the dump is readable by its owner
			// only, created so before pg_dump writes into it.
			f, err := os.OpenFile(args[0], os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
			if err != nil {
				return err
			}
			if err := f.Chmod(0o600); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			return pgTool("pg_dump", "--format=custom", "--no-owner", "--file="+args[0])
		},
	}
}

func restoreCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "restore FILE",
		Short: "Restore a dump made by `juizado backup` with pg_restore, replacing what the database holds",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if _, err := os.Stat(args[0]); err != nil {
				return err
			}
			return pgTool("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error", args[0])
		},
	}
}

// pgTool runs a PostgreSQL client tool of the installed server version on
// the configured database (DATABASE_URL or the private cluster).
func pgTool(name string, args ...string) error {
	d, err := dsn(context.Background(), config.FromEnv())
	if err != nil {
		return err
	}
	bin, err := pgcluster.FindBin()
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(bin, name), append([]string{"--dbname=" + d}, args...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
