package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/juizado/juizado/cases/datajud"
	"github.com/juizado/juizado/internal/app"
)

// exitRejected is the exit status of an export that left cases out (each
// listed on stderr with its reasons).
const exitRejected = 3

// exitError is an error with the process's exit status.
type exitError struct {
	code int
	msg  string
}

// Error is the message main prints before exiting with code.
func (e *exitError) Error() string { return e.msg }

// exportCmd: juizado export datajud --month YYYY-MM [--format json|xml]
// [--out FILE] [--court TR.OOOO]: the court's cases for the CNJ's DataJud
// (Res. CNJ 331/2020).
func exportCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "export", Short: "Exports to the CNJ (DataJud)"}
	var month, format, out, court string
	dj := &cobra.Command{
		Use:   "datajud",
		Short: "Write every case with a movement in a month as DataJud receives it (JSON of the public API, or MTD XML)",
		Long: "Writes every case of the court (JUIZADO_COURT, or --court) with a movement in --month (YYYY-MM, " +
			"America/Sao_Paulo), each with its docket up to the month's end: --format json (default), an array of " +
			"documents in the shape of DataJud's public API (docs/datajud.schema.json); --format xml, the MTD's " +
			"processos (intercomunicacao). Output on stdout, or --out FILE (written whole or not at all). A case " +
			"DataJud would reject (no class, a code the TPU lacks, a movement without its national code, a number " +
			"not of the court) is listed on stderr with its reasons and left out; the exit status is then 3.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withTPUApp(func(ctx context.Context, a *app.App) error {
				return exportDataJud(ctx, cmd, a, court, month, format, out)
			})
		},
	}
	dj.Flags().StringVar(&month, "month", "", "the month, YYYY-MM")
	dj.Flags().StringVar(&format, "format", datajud.FormatJSON, "json or xml")
	dj.Flags().StringVar(&out, "out", "", "write to FILE instead of stdout")
	dj.Flags().StringVar(&court, "court", "", "the court TR.OOOO (default JUIZADO_COURT)")
	_ = dj.MarkFlagRequired("month")
	cmd.AddCommand(dj)
	return cmd
}

// exportDataJud runs the export to stdout or to out (through a temporary
// file renamed at the end, so a failed export leaves no partial file),
// listing the rejected cases and the summary on stderr.
func exportDataJud(ctx context.Context, cmd *cobra.Command, a *app.App, court, month, format, out string) error {
	stderr := cmd.ErrOrStderr()
	var w io.Writer = cmd.OutOrStdout()
	var tmp *os.File
	if out != "" {
		var err error
		if tmp, err = os.CreateTemp(filepath.Dir(out), ".datajud-*"); err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		w = tmp
	}
	sum, err := a.ExportDataJud(ctx, court, month, format, w, func(r datajud.Rejection) {
		fmt.Fprintln(stderr, "não exportado:", r)
	})
	if err != nil {
		return err
	}
	if tmp != nil {
		if err := tmp.Close(); err != nil {
			return err
		}
		if err := os.Rename(tmp.Name(), out); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "datajud %s: %d processos exportados, %d não exportados\n", month, sum.Exported, sum.Rejected)
	if sum.Rejected > 0 {
		return &exitError{code: exitRejected, msg: fmt.Sprintf("%d processos não exportados (motivos acima)", sum.Rejected)}
	}
	return nil
}
