package main

// Accounts on the command line: `juizado user create|password|disable|
// enable|list` and `juizado token list|revoke` (token create is in
// commands.go).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/spf13/cobra"
	"golang.org/x/term"
	"gorm.io/gorm"
)

// withDB opens the database of the environment, refuses a schema that is
// behind and runs fn.
func withDB(fn func(ctx context.Context, g *gorm.DB, cfg config.Config) error) error {
	return withOpenDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
		sqlDB, _ := g.DB()
		if err := db.CheckSchema(ctx, sqlDB); err != nil {
			return err
		}
		return fn(ctx, g, cfg)
	})
}

// withOpenDB opens the database of the environment (DATABASE_URL, or the
// private cluster) as the application's role (db.Open), runs fn and closes
// it, whatever the schema's state.
func withOpenDB(fn func(ctx context.Context, g *gorm.DB, cfg config.Config) error) error {
	return withDBOpenedBy(openDB, fn)
}

// withOwnerDB is withOpenDB working as the role DATABASE_URL names
// (db.OpenOwner): `migrate` and `seed --scale`.
func withOwnerDB(fn func(ctx context.Context, g *gorm.DB, cfg config.Config) error) error {
	return withDBOpenedBy(openOwnerDB, fn)
}

func withDBOpenedBy(open func(context.Context, config.Config) (*gorm.DB, error), fn func(ctx context.Context, g *gorm.DB, cfg config.Config) error) error {
	cfg := config.FromEnv()
	ctx := context.Background()
	g, err := open(ctx, cfg)
	if err != nil {
		return err
	}
	if h, err := g.DB(); err == nil {
		defer h.Close()
	}
	return fn(ctx, g, cfg)
}

// specFlags adds --role, --name, --full-name, --title, --court, --create-court,
// --club, --group, --oab and --defensoria to cmd.
func specFlags(cmd *cobra.Command, spec *accounts.UserSpec, group *string, createCourt *bool) {
	cmd.Flags().StringVar(&spec.Role, "role", "", "admin, clerk, judge, prosecutor, police, fan_group, club or defence")
	cmd.Flags().StringVar(&spec.Name, "name", "", "the user's name")
	cmd.Flags().StringVar(&spec.FullName, "full-name", "", "the person's full name, shown in signature blocks instead of --name")
	cmd.Flags().StringVar(&spec.Title, "title", "", "the office signed under the full name (e.g. \"Juíza de Direito\")")
	cmd.Flags().StringVar(&spec.Court, "court", "", "court TR.OOOO for staff roles (default JUIZADO_COURT)")
	cmd.Flags().StringVar(&spec.Club, "club", "", "club name, for role club")
	cmd.Flags().StringVar(group, "group", "", "fan group id, for role fan_group")
	cmd.Flags().StringVar(&spec.OAB, "oab", "", "OAB registration, state and number (SP123456), for role defence (a lawyer)")
	cmd.Flags().StringVar(&spec.Defensoria, "defensoria", "", "state of the Defensoria Pública (SP), for role defence (a public defender)")
	cmd.Flags().BoolVar(createCourt, "create-court", false, "create the court of --court when it does not exist yet")
}

// checkCourt refuses the court of a staff spec unless it is a state court
// code (TR.OOOO, TR 01–27: J = 8, cases.CheckCourtCode) that exists, or is
// the default court (JUIZADO_COURT, which serve creates), or create is set
// (--create-court). Other roles have no court.
func checkCourt(ctx context.Context, g *gorm.DB, spec accounts.UserSpec, cfg config.Config, create bool) error {
	if !accounts.IsStaff(spec.Role) {
		return nil
	}
	if err := cases.CheckCourtCode(spec.Court); err != nil {
		return fmt.Errorf("--court: %w", err)
	}
	if create || spec.Court == cfg.Court {
		return nil
	}
	ok, err := cases.CourtExists(ctx, g, spec.Court)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("--court %s: no such court (the default is JUIZADO_COURT=%s); add --create-court to create it", spec.Court, cfg.Court)
	}
	return nil
}

// completeSpec reads --group and fills the default court of staff roles.
func completeSpec(spec *accounts.UserSpec, group string, cfg config.Config) error {
	if group != "" {
		id, err := strconv.ParseInt(group, 10, 64)
		if err != nil || id <= 0 {
			return fmt.Errorf("--group must be a fan group id (a positive integer)")
		}
		spec.Group = id
	}
	if accounts.IsStaff(spec.Role) && spec.Court == "" {
		spec.Court = cfg.Court
	}
	if spec.Role != accounts.RoleDefence && (spec.OAB != "" || spec.Defensoria != "") {
		return fmt.Errorf("--oab e --defensoria valem só para o perfil defence")
	}
	return nil
}

// ensureAccount makes (or reuses) the user of spec, its court first, with
// password pw ("" leaves it as it is); a new judge receives the cases its
// court filed while it had none (app.App.AddUser: one transaction).
func ensureAccount(ctx context.Context, g *gorm.DB, spec accounts.UserSpec, pw string) (accounts.User, bool, error) {
	if accounts.IsStaff(spec.Role) {
		if err := cases.EnsureCourt(ctx, g, spec.Court, ""); err != nil {
			return accounts.User{}, false, err
		}
	}
	a, err := openApp(g, config.FromEnv())
	if err != nil {
		return accounts.User{}, false, err
	}
	u, created, _, err := a.AddUser(ctx, spec, pw)
	return u, created, err
}

// readPassword reads a new password: the whole of stdin (without its final
// line break) with --password-stdin, else typed twice at the terminal.
func readPassword(c *cobra.Command, fromStdin bool) (string, error) {
	if fromStdin {
		b, err := io.ReadAll(io.LimitReader(c.InOrStdin(), 4096))
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), nil
	}
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return "", errors.New("no terminal to type the password: use --password-stdin")
	}
	ask := func(prompt string) (string, error) {
		fmt.Fprint(c.ErrOrStderr(), prompt)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(c.ErrOrStderr())
		return string(b), err
	}
	pw, err := ask("Senha: ")
	if err != nil {
		return "", err
	}
	again, err := ask("Repita a senha: ")
	if err != nil {
		return "", err
	}
	if pw != again {
		return "", errors.New("the passwords differ")
	}
	return pw, nil
}

func userCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "user", Short: "People's accounts: create, password, disable, enable, list"}

	var spec accounts.UserSpec
	var group string
	var fromStdin, createCourt bool
	create := &cobra.Command{
		Use:   "create --name NAME --role ROLE [--court TR.OOOO [--create-court]|--club NAME|--group ID|--oab UF123456|--defensoria UF] [--password-stdin]",
		Short: "Create a user who signs in with a password (argon2id); typed twice, or read from stdin",
		RunE: func(c *cobra.Command, _ []string) error {
			return withDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
				if err := completeSpec(&spec, group, cfg); err != nil {
					return err
				}
				if err := checkCourt(ctx, g, spec, cfg, createCourt); err != nil {
					return err
				}
				if _, err := accounts.FindUser(ctx, g, spec.Name); err == nil {
					has, err := accounts.HasPassword(ctx, g, spec.Name)
					if err != nil {
						return err
					}
					if has {
						return fmt.Errorf("user %q exists and has a password: use `juizado user password --name %s`", spec.Name, spec.Name)
					}
				}
				pw, err := readPassword(c, fromStdin)
				if err != nil {
					return err
				}
				if err := accounts.CheckPasswordLength(pw); err != nil {
					return err
				}
				u, created, err := ensureAccount(ctx, g, spec, pw)
				if err != nil {
					return err
				}
				verb := "created"
				if !created {
					verb = "password set for existing"
				}
				fmt.Fprintf(c.OutOrStdout(), "%s user %s (id %d, role %s%s)\n", verb, u.Name, u.ID, u.Role, domainOf(u))
				return nil
			})
		},
	}
	specFlags(create, &spec, &group, &createCourt)
	create.Flags().BoolVar(&fromStdin, "password-stdin", false, "read the password from stdin")
	_ = create.MarkFlagRequired("name")
	_ = create.MarkFlagRequired("role")

	var pwName string
	var pwStdin bool
	password := &cobra.Command{
		Use:   "password --name NAME [--password-stdin]",
		Short: "Set a user's password",
		RunE: func(c *cobra.Command, _ []string) error {
			return withDB(func(ctx context.Context, g *gorm.DB, _ config.Config) error {
				u, err := accounts.FindUser(ctx, g, pwName)
				if err != nil {
					return err
				}
				pw, err := readPassword(c, pwStdin)
				if err != nil {
					return err
				}
				if err := accounts.SetPassword(ctx, g, u.ID, pw); err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "password set for %s\n", u.Name)
				return nil
			})
		},
	}
	password.Flags().StringVar(&pwName, "name", "", "the user's name")
	password.Flags().BoolVar(&pwStdin, "password-stdin", false, "read the password from stdin")
	_ = password.MarkFlagRequired("name")

	toggle := func(use, short string, disable bool) *cobra.Command {
		var name string
		cc := &cobra.Command{
			Use:   use + " --name NAME",
			Short: short,
			RunE: func(c *cobra.Command, _ []string) error {
				return withDB(func(ctx context.Context, g *gorm.DB, _ config.Config) error {
					u, err := accounts.SetDisabled(ctx, g, name, disable, time.Now())
					if err != nil {
						return err
					}
					fmt.Fprintf(c.OutOrStdout(), "user %s %sd\n", u.Name, use)
					return nil
				})
			},
		}
		cc.Flags().StringVar(&name, "name", "", "the user's name")
		_ = cc.MarkFlagRequired("name")
		return cc
	}

	list := &cobra.Command{
		Use:   "list",
		Short: "List the users",
		RunE: func(c *cobra.Command, _ []string) error {
			return withDB(func(ctx context.Context, g *gorm.DB, _ config.Config) error {
				us, err := accounts.ListUsers(ctx, g)
				if err != nil {
					return err
				}
				w := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "ID\tNAME\tROLE\tDOMAIN\tSTATE")
				for _, u := range us {
					state := "active"
					if u.DisabledAt != nil {
						state = "disabled " + u.DisabledAt.Format(time.RFC3339)
					}
					fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", u.ID, u.Name, u.Role, u.Domain(), state)
				}
				return w.Flush()
			})
		},
	}
	cmd.AddCommand(create, password, toggle("disable", "Disable a user: its tokens answer 401, its sessions end, it cannot sign in", true),
		toggle("enable", "Enable a disabled user again", false), list)
	return cmd
}

func tokenListCmd() *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "list --name NAME",
		Short: "List a user's tokens (ids, dates, state; never the tokens)",
		RunE: func(c *cobra.Command, _ []string) error {
			return withDB(func(ctx context.Context, g *gorm.DB, _ config.Config) error {
				u, err := accounts.FindUser(ctx, g, name)
				if err != nil {
					return err
				}
				ts, err := accounts.ListTokens(ctx, g, u.ID)
				if err != nil {
					return err
				}
				now := time.Now()
				w := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "ID\tCREATED\tEXPIRES\tSTATE")
				for _, t := range ts {
					exp := "never"
					if t.ExpiresAt != nil {
						exp = t.ExpiresAt.Format(time.RFC3339)
					}
					fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", t.ID, t.CreatedAt.Format(time.RFC3339), exp, t.State(now))
				}
				return w.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the user's name")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

func tokenRevokeCmd() *cobra.Command {
	var name string
	var all bool
	cmd := &cobra.Command{
		Use:   "revoke ID | --all --name NAME",
		Short: "Revoke a token by id (see token list), or every token of a user; revoked tokens answer 401",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if all == (len(args) == 1) || all && name == "" || !all && name != "" {
				return errors.New("give a token ID, or --all --name NAME")
			}
			return withDB(func(ctx context.Context, g *gorm.DB, _ config.Config) error {
				if all {
					u, err := accounts.FindUser(ctx, g, name)
					if err != nil {
						return err
					}
					n, err := accounts.RevokeAll(ctx, g, u.ID, time.Now())
					if err != nil {
						return err
					}
					fmt.Fprintf(c.OutOrStdout(), "revoked %d token(s) of %s\n", n, u.Name)
					return nil
				}
				id, err := strconv.ParseInt(args[0], 10, 64)
				if err != nil || id <= 0 {
					return fmt.Errorf("token id %q: a positive integer (see juizado token list)", args[0])
				}
				t, err := accounts.RevokeToken(ctx, g, id, time.Now())
				if err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "token %d revoked at %s\n", t.ID, t.RevokedAt.Format(time.RFC3339))
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "every token of the user --name")
	cmd.Flags().StringVar(&name, "name", "", "the user's name (with --all)")
	return cmd
}

// openApp builds the application of a CLI command (app.New) on g with
// cfg: the court's zone JUIZADO_TZ, the system clock and a signing key
// kept in memory (a command serves no blocklist to gates).
func openApp(g *gorm.DB, cfg config.Config) (*app.App, error) {
	loc, err := time.LoadLocation(cfg.TimeZone)
	if err != nil {
		return nil, err
	}
	return app.New(cfg, g, clock.System{}, loc, nil)
}
