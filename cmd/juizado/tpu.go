package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"gorm.io/gorm"

	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/errs"
)

// tpuCmd: juizado tpu load --table classes|subjects|movements [--version
// V] FILE, and juizado tpu show --table T: the CNJ's unified tables (Res.
// CNJ 46/2007).
func tpuCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "tpu", Short: "The CNJ's unified tables (TPU): load a newer SGT export, show a table"}
	var table, version string
	load := &cobra.Command{
		Use:   "load FILE",
		Short: "Load a newer version of a TPU table from the SGT's CSV export (UTF-8 or Windows-1252), whole or nothing",
		Long: "Loads FILE, the CSV export of a TPU table from the CNJ's SGT (columns código, nome/descrição, código pai, ...; " +
			"`;` or `,`; UTF-8 or Windows-1252), as the table's new version: --version V (the SGT table's date, YYYY-MM-DD) " +
			"or a first line \"# versao: V\". Whole or nothing: a bad line lists every bad line with its reason and loads nothing; " +
			"a version not newer than the database's is refused.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			t, err := tpu.Parse(table, raw, version)
			if err != nil {
				return reportLines(cmd, err)
			}
			return withTPUApp(func(ctx context.Context, a *app.App) error {
				if err := a.LoadTPU(ctx, t, filepath.Base(args[0])); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "tpu %s: version %s loaded (%d items)\n", table, t.Version, len(t.Items))
				return nil
			})
		},
	}
	load.Flags().StringVar(&table, "table", "", "classes, subjects or movements")
	load.Flags().StringVar(&version, "version", "", "the SGT table's version, YYYY-MM-DD (else the file's \"# versao:\" line)")
	_ = load.MarkFlagRequired("table")
	var showTable string
	show := &cobra.Command{
		Use:   "show",
		Short: "Print a TPU table's version and items (code;name;parent;verified)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withTPUApp(func(ctx context.Context, a *app.App) error {
				t, err := a.TPU(ctx, showTable)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "# versao: %s\n", t.Version)
				for _, it := range t.Items {
					parent := ""
					if it.Parent != nil {
						parent = fmt.Sprint(*it.Parent)
					}
					fmt.Fprintf(out, "%d;%s;%s;%v\n", it.Code, it.Name, parent, it.Verified)
				}
				return nil
			})
		},
	}
	show.Flags().StringVar(&showTable, "table", "", "classes, subjects or movements")
	_ = show.MarkFlagRequired("table")
	cmd.AddCommand(load, show)
	return cmd
}

// withTPUApp runs fn on the application of the environment's database
// (schema checked).
func withTPUApp(fn func(ctx context.Context, a *app.App) error) error {
	return withDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
		a, err := openApp(g, cfg)
		if err != nil {
			return err
		}
		return fn(ctx, a)
	})
}

// reportLines prints each field error of err (a file's bad lines, with
// their line numbers) on the command's stderr and returns err.
func reportLines(cmd *cobra.Command, err error) error {
	var e *errs.Error
	if errors.As(err, &e) {
		for _, f := range e.Fields {
			if f.Line > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "linha %d, %s (%s): %s\n", f.Line, f.Field, f.Rule, f.Message)
			} else {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s (%s): %s\n", f.Field, f.Rule, f.Message)
			}
		}
		return errors.New(e.Message)
	}
	return err
}
