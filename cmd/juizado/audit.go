package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/registry"
	"github.com/spf13/cobra"
)

// auditKeys is the ring that signs the audit trail's checkpoints: its own
// Ed25519 key under JUIZADO_KEY_DIR/audit, never in the database.
func auditKeys(cfg config.Config) *registry.KeyRing {
	return &registry.KeyRing{Dir: filepath.Join(cfg.KeyDir, "audit")}
}

func auditCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "audit", Short: "The audit trail: verify the chain, sign a checkpoint"}
	cmd.AddCommand(&cobra.Command{
		Use:   "verify",
		Short: "Exit 0 when the audit chain and its signed checkpoints are intact; 1 naming the first broken row",
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := context.Background()
			cfg := config.FromEnv()
			g, err := openDB(ctx, cfg)
			if err != nil {
				return err
			}
			if h, err := sqlHandle(g); err == nil {
				defer h.Close()
			}
			pubs, err := auditKeys(cfg).AllKeys()
			if err != nil {
				return err
			}
			keys := map[string]ed25519.PublicKey{}
			for _, k := range pubs {
				keys[k.ID] = k.Key
			}
			var n, cps int64
			g.Raw("SELECT count(*) FROM audit_log").Scan(&n)
			g.Raw("SELECT count(*) FROM audit_checkpoints").Scan(&cps)
			err = audit.Verify(ctx, g, keys)
			var b *audit.Broken
			if errors.As(err, &b) {
				fmt.Printf("BROKEN at row %d: %s\n", b.ID, b.Reason)
				os.Exit(1)
			}
			if err != nil {
				return err
			}
			fmt.Printf("intact: %d rows, %d signed checkpoints\n", n, cps)
			return nil
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "checkpoint",
		Short: "Sign the current head of the audit chain with the key under JUIZADO_KEY_DIR/audit",
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := context.Background()
			cfg := config.FromEnv()
			g, err := openDB(ctx, cfg)
			if err != nil {
				return err
			}
			if h, err := sqlHandle(g); err == nil {
				defer h.Close()
			}
			id, err := audit.Checkpoint(ctx, g, auditKeys(cfg))
			if err != nil {
				return err
			}
			fmt.Printf("signed the chain up to row %d\n", id)
			return nil
		},
	})
	return cmd
}
