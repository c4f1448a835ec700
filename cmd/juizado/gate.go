package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/juizado/juizado/registry/gate"
	"github.com/spf13/cobra"
)

// gateShutdownTimeout bounds the agent's graceful stop (checks in flight,
// the courts' follow): it exits within 5 s of SIGTERM (issue 32, item 3).
const gateShutdownTimeout = 4 * time.Second

// gateCmd is `juizado gate serve --config FILE` and `juizado gate status
// --config FILE` (../shared/API.md "Gate agent"): the stadium-side agent,
// no database.
func gateCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "gate", Short: "Stadium gate agent: a verified local copy of every court's blocklist"}
	var cfgPath string
	serve := &cobra.Command{
		Use:   "serve --config FILE",
		Short: "Follow the courts of FILE and answer GET /check/{cpf}, /status, /metrics on its addr",
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := gate.LoadConfig(cfgPath)
			if err != nil {
				return err
			}
			// JSON lines on stderr, as the court's server logs.
			logger := slog.New(slog.NewJSONHandler(cmd.ErrOrStderr(), nil))
			cfg.Logger = logger
			a, err := gate.New(*cfg, nil)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			ln, err := net.Listen("tcp", cfg.Addr)
			if err != nil {
				return err
			}
			srv := &http.Server{Handler: a.Handler(), ReadHeaderTimeout: 5 * time.Second}
			followed := make(chan struct{})
			go func() { a.Run(ctx); close(followed) }()
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ln) }()
			logger.Info("gate agent listening", "addr", ln.Addr().String(), "courts", len(cfg.Courts))
			select {
			case err := <-served:
				stop()
				<-followed
				return errors.Join(err, a.Flush())
			case <-ctx.Done():
			}
			// SIGTERM: the long-polls to the courts end at once (ctx), the
			// checks in flight are answered, the check records written,
			// and the agent exits 0 within 5 s (issue 32, item 3).
			sctx, cancel := context.WithTimeout(context.Background(), gateShutdownTimeout)
			defer cancel()
			if err := srv.Shutdown(sctx); err != nil {
				logger.Warn("shutdown: checks still running were cut", "err", err.Error())
				_ = srv.Close()
			}
			select {
			case <-followed:
			case <-sctx.Done():
				logger.Warn("shutdown: the courts' follow did not end in time")
			}
			logger.Info("gate agent stopped")
			return a.Flush() // the check records still buffered
		},
	}
	serve.Flags().StringVar(&cfgPath, "config", "", "the agent's JSON configuration file")
	_ = serve.MarkFlagRequired("config")
	status := &cobra.Command{
		Use:   "status --config FILE",
		Short: "Print the running agent's GET /status (court, version, age, last error per court)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := gate.LoadConfig(cfgPath)
			if err != nil {
				return err
			}
			resp, err := http.Get("http://" + cfg.Addr + "/status")
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			var st gate.StatusReport
			if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
				return err
			}
			for _, c := range st.Courts {
				if c.Court == "" {
					c.Court = "-" // no list of this court held yet
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\tversion %d\tage %.0fs\t%s\n", c.Court, c.URL, c.Version, c.AgeSeconds, c.LastError)
				if c.StoreError != "" {
					fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\tstore: %s\n", c.Court, c.URL, c.StoreError)
				}
			}
			if len(st.UnknownVenues) > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "venues unknown to the courts (no scoped ban names them: check the spelling): %q\n", st.UnknownVenues)
			}
			return nil
		},
	}
	status.Flags().StringVar(&cfgPath, "config", "", "the agent's JSON configuration file")
	_ = status.MarkFlagRequired("config")
	cmd.AddCommand(serve, status)
	return cmd
}
