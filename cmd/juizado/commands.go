package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
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
	root.AddCommand(serveCmd(), migrateCmd(), tokenCmd(), seedCmd(), devCmd(), backupCmd(), restoreCmd(), blocklistCmd(), auditCmd())
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

func sqlHandle(g *gorm.DB) (interface{ Close() error }, error) { return g.DB() }

func migrateCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "migrate", Short: "Database schema: up, down, status"}
	run := func(f func(ctx context.Context, g *gorm.DB) error) func(*cobra.Command, []string) error {
		return func(*cobra.Command, []string) error {
			ctx := context.Background()
			g, err := openDB(ctx, config.FromEnv())
			if err != nil {
				return err
			}
			if c, err := sqlHandle(g); err == nil {
				defer c.Close()
			}
			return f(ctx, g)
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
	cmd := &cobra.Command{Use: "token", Short: "API tokens"}
	var spec authz.UserSpec
	var group string
	create := &cobra.Command{
		Use:   "create --role ROLE --name NAME [--court TR.OOOO] [--club NAME] [--group ID]",
		Short: "Create the user NAME (or reuse it) and print a new token as the last line",
		RunE: func(c *cobra.Command, _ []string) error {
			cfg := config.FromEnv()
			if group != "" {
				id, err := strconv.ParseInt(group, 10, 64)
				if err != nil || id <= 0 {
					return fmt.Errorf("--group must be a fan group id (a positive integer)")
				}
				spec.Group = id
			}
			if authz.IsStaff(spec.Role) && spec.Court == "" {
				spec.Court = cfg.Court
			}
			ctx := context.Background()
			g, err := openDB(ctx, cfg)
			if err != nil {
				return err
			}
			if h, err := sqlHandle(g); err == nil {
				defer h.Close()
			}
			sqlDB, _ := g.DB()
			if err := db.CheckSchema(ctx, sqlDB); err != nil {
				return err
			}
			tok, u, err := createToken(ctx, g, spec)
			if err != nil {
				return err
			}
			fmt.Printf("user %s (id %d, role %s%s)\n", u.Name, u.ID, u.Role, domainOf(u))
			fmt.Println(tok)
			return nil
		},
	}
	create.Flags().StringVar(&spec.Role, "role", "", "admin, clerk, judge, prosecutor, police, fan_group or club")
	create.Flags().StringVar(&spec.Name, "name", "", "the user's name (created when missing)")
	create.Flags().StringVar(&spec.Court, "court", "", "court TR.OOOO for staff roles (default JUIZADO_COURT)")
	create.Flags().StringVar(&spec.Club, "club", "", "club name, for role club")
	create.Flags().StringVar(&group, "group", "", "fan group id, for role fan_group")
	_ = create.MarkFlagRequired("role")
	_ = create.MarkFlagRequired("name")
	cmd.AddCommand(create)
	return cmd
}

func domainOf(u authz.User) string {
	switch {
	case u.CourtCode != nil:
		return ", court " + *u.CourtCode
	case u.Club != nil:
		return ", club " + *u.Club
	case u.GroupID != nil:
		return fmt.Sprintf(", group %d", *u.GroupID)
	}
	return ""
}

// createToken makes (or reuses) the user and a token; a new judge receives
// the cases its court filed while it had none.
func createToken(ctx context.Context, g *gorm.DB, spec authz.UserSpec) (string, authz.User, error) {
	if authz.IsStaff(spec.Role) {
		if err := cases.EnsureCourt(ctx, g, spec.Court, ""); err != nil {
			return "", authz.User{}, err
		}
	}
	var tok string
	var u authz.User
	err := db.WithTx(ctx, g, func(ctx context.Context) error {
		var created bool
		var err error
		u, created, err = authz.EnsureUser(ctx, g, spec)
		if err != nil {
			return err
		}
		tok, err = authz.NewToken(ctx, g, u.ID, time.Time{})
		if err != nil {
			return err
		}
		if created && u.Role == "judge" {
			svc := &cases.Service{DB: g, Clock: clock.System{}}
			if _, err := svc.DistributePending(ctx, u.Court()); err != nil {
				return err
			}
		}
		return nil
	})
	return tok, u, err
}
