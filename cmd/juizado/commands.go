package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

func rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "juizado",
		Short:         "Juizado do Torcedor: cases, stadium bans, public list and gate blocklist",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(serveCmd(), migrateCmd(), tokenCmd(), seedCmd(), devCmd(), backupCmd(), restoreCmd(), blocklistCmd(), auditCmd(), userCmd(), gateCmd(), tpuCmd(), exportCmd())
	return root
}

func serveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve the API and pages on JUIZADO_ADDR (refuses a schema that is behind)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(config.FromEnv())
		},
	}
}

func serve(cfg config.Config) error {
	ctx, cancel := signalContext()
	defer cancel()
	m := &Main{Config: cfg}
	defer m.Close()
	if err := m.Open(ctx); err != nil {
		return err
	}
	if err := m.Listen(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "juizado: serving on http://%s (court %s)\n", displayAddr(m.Addr()), cfg.Court)
	return m.Run(ctx)
}

func displayAddr(a string) string {
	if strings.HasPrefix(a, "[::]:") {
		return "localhost:" + strings.TrimPrefix(a, "[::]:")
	}
	if strings.HasPrefix(a, "0.0.0.0:") {
		return "localhost:" + strings.TrimPrefix(a, "0.0.0.0:")
	}
	return a
}

func migrateCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "migrate", Short: "Database schema: up, down, status"}
	run := func(f func(ctx context.Context, g *gorm.DB) error) func(*cobra.Command, []string) error {
		return func(*cobra.Command, []string) error {
			return withOwnerDB(func(ctx context.Context, g *gorm.DB, _ config.Config) error { return f(ctx, g) })
		}
	}
	cmd.AddCommand(&cobra.Command{Use: "up", Short: "Apply every pending migration", RunE: run(func(ctx context.Context, g *gorm.DB) error {
		sqlDB, _ := g.DB()
		applied, err := db.MigrateUp(ctx, sqlDB)
		for _, v := range applied {
			fmt.Printf("applied %05d\n", v)
		}
		if err == nil && len(applied) == 0 {
			fmt.Println("schema is up to date")
		}
		return err
	})})
	cmd.AddCommand(&cobra.Command{Use: "down", Short: "Roll back the latest migration", RunE: run(func(ctx context.Context, g *gorm.DB) error {
		sqlDB, _ := g.DB()
		v, err := db.MigrateDown(ctx, sqlDB)
		if err == nil {
			fmt.Printf("rolled back %05d\n", v)
		}
		return err
	})})
	cmd.AddCommand(&cobra.Command{Use: "status", Short: "List migrations and whether they are applied", RunE: run(func(ctx context.Context, g *gorm.DB) error {
		sqlDB, _ := g.DB()
		st, err := db.Status(ctx, sqlDB)
		for _, s := range st {
			state := "pending"
			if !s.AppliedAt.IsZero() {
				state = "applied " + s.AppliedAt.Format(time.RFC3339)
			}
			fmt.Printf("%05d  %-40s %s\n", s.Version, s.Name, state)
		}
		return err
	})})
	return cmd
}

func tokenCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "token", Short: "API tokens: create, list, revoke"}
	var spec accounts.UserSpec
	var group, expires string
	var createCourt bool
	create := &cobra.Command{
		Use:   "create --role ROLE --name NAME [--court TR.OOOO [--create-court]] [--club NAME] [--group ID] [--expires 90d]",
		Short: "Create the user NAME (or reuse it) and print a new token as the last line",
		RunE: func(c *cobra.Command, _ []string) error {
			var until time.Time
			if expires != "" {
				d, err := accounts.ParseExpiry(expires)
				if err != nil {
					return err
				}
				until = time.Now().Add(d)
			}
			return withDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
				if err := completeSpec(&spec, group, cfg); err != nil {
					return err
				}
				if err := checkCourt(ctx, g, spec, cfg, createCourt); err != nil {
					return err
				}
				tok, u, err := createTokenUntil(ctx, g, spec, until)
				if err != nil {
					return err
				}
				exp := ""
				if !until.IsZero() {
					exp = ", expires " + until.Format(time.RFC3339)
				}
				fmt.Fprintf(c.OutOrStdout(), "user %s (id %d, role %s%s)%s\n", u.Name, u.ID, u.Role, domainOf(u), exp)
				fmt.Fprintln(c.OutOrStdout(), tok)
				return nil
			})
		},
	}
	specFlags(create, &spec, &group, &createCourt)
	create.Flags().StringVar(&expires, "expires", "", "lifetime: days (90d) or a duration (12h); default none")
	_ = create.MarkFlagRequired("role")
	_ = create.MarkFlagRequired("name")
	cmd.AddCommand(create, tokenListCmd(), tokenRevokeCmd())
	return cmd
}

func domainOf(u accounts.User) string {
	switch {
	case u.CourtCode != nil:
		return ", court " + *u.CourtCode
	case u.Club != nil:
		return ", club " + *u.Club
	case u.GroupID != nil:
		return fmt.Sprintf(", group %d", *u.GroupID)
	case u.Credential() != "":
		return ", " + u.Credential()
	}
	return ""
}

// createToken makes (or reuses) the user and a token without expiry; a
// new judge receives the cases its court filed while it had none.
func createToken(ctx context.Context, g *gorm.DB, spec accounts.UserSpec) (string, accounts.User, error) {
	return createTokenUntil(ctx, g, spec, time.Time{})
}

// createTokenUntil is createToken with a token that expires at until
// (zero: never).
func createTokenUntil(ctx context.Context, g *gorm.DB, spec accounts.UserSpec, until time.Time) (string, accounts.User, error) {
	u, _, err := ensureAccount(ctx, g, spec, "")
	if err != nil {
		return "", u, err
	}
	tok, err := accounts.NewToken(ctx, g, u.ID, until)
	return tok, u, err
}
