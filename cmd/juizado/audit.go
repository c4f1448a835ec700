package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gorm.io/gorm"

	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/spf13/cobra"
)

// auditKeys is the ring that signs the audit trail's checkpoints: its own
// Ed25519 key under JUIZADO_KEY_DIR/audit, never in the database.
func auditKeys(cfg config.Config) *blocklist.KeyRing {
	return &blocklist.KeyRing{Dir: filepath.Join(cfg.KeyDir, "audit")}
}

func auditCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "audit", Short: "The audit trail: verify the chain, sign a checkpoint, reconcile the blocklist"}
	cmd.AddCommand(&cobra.Command{
		Use:   "verify",
		Short: "Exit 0 when the audit chain and its signed checkpoints are intact, no row was written outside the application and every audited row matches its last audited image; 1 naming the first broken row, every row written outside, and every row that differs or has no audit row",
		RunE: func(*cobra.Command, []string) error {
			return withOpenDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
				pubs, err := auditKeys(cfg).AllKeys()
				if err != nil {
					return err
				}
				keys := map[string]ed25519.PublicKey{}
				for _, k := range pubs {
					keys[k.ID] = k.Key
				}
				n, cps, _ := audit.Counts(ctx, g)
				err = audit.Verify(ctx, g, keys)
				var b *audit.Broken
				if errors.As(err, &b) {
					fmt.Printf("BROKEN at row %d: %s\n", b.ID, b.Reason)
					os.Exit(1)
				}
				if err != nil {
					return err
				}
				tail, err := audit.Tail(ctx, g)
				if err != nil {
					return err
				}
				outside, err := audit.WrittenOutside(ctx, g, 0)
				if err != nil {
					return err
				}
				signed := "never"
				if !tail.LastSigned.IsZero() {
					signed = tail.LastSigned.UTC().Format(time.RFC3339)
				}
				fmt.Printf("chain intact: %d rows, %d signed checkpoints; unsigned tail: %d rows after row %d (last checkpoint %s)\n", n, cps, tail.Rows, tail.LastRow, signed)
				if len(outside) > 0 {
					fmt.Printf("WRITTEN OUTSIDE THE APPLICATION: %d rows (by a database role other than %s: a direct SQL edit)\n", len(outside), db.AppRole)
					for _, o := range outside {
						fmt.Printf("  row %d: %s %s record %s at %s by %s\n", o.ID, o.Action, o.Table, o.RecordID, o.At.UTC().Format(time.RFC3339Nano), o.ActorName)
					}
				}
				drifts := 0
				err = audit.Drifts(ctx, g, func(d audit.Drift) error {
					if drifts == 0 {
						fmt.Println("ROWS THAT DO NOT MATCH THE AUDIT TRAIL (written with the triggers off, or never audited):")
					}
					drifts++
					fmt.Printf("  %s\n", d)
					return nil
				})
				if err != nil {
					return err
				}
				if drifts > 0 {
					fmt.Printf("%d rows do not match their last audited image\n", drifts)
				}
				if len(outside) > 0 || drifts > 0 {
					os.Exit(1)
				}
				fmt.Println("intact")
				return nil
			})
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "checkpoint",
		Short: "Sign the current head of the audit chain with the key under JUIZADO_KEY_DIR/audit",
		RunE: func(*cobra.Command, []string) error {
			return withOpenDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
				id, err := audit.Checkpoint(ctx, g, auditKeys(cfg))
				if err != nil {
					return err
				}
				fmt.Printf("signed the chain up to row %d\n", id)
				return nil
			})
		},
	})
	var fix bool
	rec := &cobra.Command{
		Use:   "reconcile [--fix]",
		Short: "Exit 0 when the blocklist entries are exactly the bans in force; 1 listing each difference (--fix makes a version for them)",
		RunE: func(*cobra.Command, []string) error {
			return withOpenDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
				a, err := openApp(g, cfg)
				if err != nil {
					return err
				}
				diff, v, err := a.Lists.Reconcile(ctx, fix)
				if err != nil {
					return err
				}
				if len(diff) == 0 {
					fmt.Println("blocklist reconciled: its entries are exactly the bans in force")
					return nil
				}
				fmt.Printf("blocklist and bans differ: %d\n", len(diff))
				for _, d := range diff {
					fmt.Printf("  ban %d: %s\n", d.BanID, d.Kind)
				}
				if fix {
					fmt.Printf("corrected: blocklist version %d made for the differences\n", v.Version)
					return nil
				}
				os.Exit(1)
				return nil
			})
		},
	}
	rec.Flags().BoolVar(&fix, "fix", false, "make a blocklist version for the differences")
	cmd.AddCommand(rec)
	return cmd
}
