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
			go func() {
				<-ctx.Done()
				sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = srv.Shutdown(sctx)
			}()
			go a.Run(ctx)
			logger.Info("gate agent listening", "addr", ln.Addr().String(), "courts", len(cfg.Courts))
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
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
