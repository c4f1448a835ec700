package app

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/documents"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/templates"
	"gorm.io/gorm"
)

// App is the application: every service, built once by New over one
// database, one clock and the court's zone. The HTTP packages
// (internal/api, internal/ui, internal/server), the CLI commands, the seed
// and the tests take their services from here; the use cases that span
// services are its methods (usecases.go), each one transaction.
type App struct {
	// Clock is "now" (clock.System in production).
	Clock clock.Clock
	// Loc is the court's zone (JUIZADO_TZ, America/Sao_Paulo): legal dates.
	Loc *time.Location
	// Court is the court served by default (JUIZADO_COURT): the issuer of
	// the public poster and of the blocklist.
	Court string
	// Keys signs the blocklist (blocklist.KeyRing on JUIZADO_KEY_DIR, or a
	// key kept in memory for this process only).
	Keys *blocklist.KeyRing
	// Cases are the case services (NewCases).
	Cases *Cases
	// Lists is the public list and the blocklist's versions: every write
	// of Cases that changes bans refreshes the blocklist through it.
	Lists *blocklist.Lists
	// Blocklist publishes Lists' blocklist signed with Keys (the prepared
	// snapshot, the feed and its long-poll, the ticker, the check log):
	// built once here, never nil; the API and the pages serve it.
	Blocklist *blocklist.Publisher
	// Public is the public list per filter, read once for many readers
	// (blocklist.PublicCache over Blocklist).
	Public *blocklist.PublicCache
	// Groups are the fan groups and their member registers.
	Groups *registry.Groups
	// Documents issues, stores and verifies the court documents (PDF).
	Documents *documents.Service
	// Accounts are the users, their sign-in and their API tokens.
	Accounts *accounts.Accounts
	// Audit reads the audit trail.
	Audit *audit.Trail

	db    *gorm.DB
	stats statsCache
}

// New builds every service once on the migrated database g with the
// settings of cfg (Court, PublicURL and TemplatesDir: the documents), the
// clock clk (nil: the system's), the court's zone loc and the blocklist's
// signing keys (nil: a key kept in memory for this process only,
// blocklist.EphemeralKeyRing). A nil g or loc is an error.
func New(cfg config.Config, g *gorm.DB, clk clock.Clock, loc *time.Location, keys *blocklist.KeyRing) (*App, error) {
	if g == nil || loc == nil {
		return nil, errors.New("app: a database and the court's zone are required")
	}
	if clk == nil {
		clk = clock.System{}
	}
	if keys == nil {
		keys = blocklist.EphemeralKeyRing()
	}
	lists := &blocklist.Lists{DB: g, Clock: clk, Loc: loc, FormatNumber: cases.FormatNumber, CursorKey: keys.CursorKey}
	cs, err := NewCases(g, clk, loc, lists)
	if err != nil {
		return nil, err
	}
	pub := blocklist.NewPublisher(lists, keys, cfg.Court, nil)
	a := &App{
		Clock: clk, Loc: loc, Court: cfg.Court, Keys: keys, Cases: cs, Lists: lists,
		Blocklist: pub, Public: &blocklist.PublicCache{Publisher: pub},
		Groups:   &registry.Groups{DB: g, Clock: clk, Loc: loc},
		Accounts: &accounts.Accounts{DB: g, Lockout: accounts.DefaultLockout},
		Audit:    &audit.Trail{DB: g},
		db:       g,
	}
	a.Documents = &documents.Service{
		DB: g, Case: cs.Case, Casefile: cs.Casefile, Decisions: cs.Decisions, Schedule: cs.Schedule, Execution: cs.Execution,
		BNMP:  cs.BNMP,
		Lists: lists, Groups: a.Groups, Clock: clk, Loc: loc,
		Wording: pdf.Wording{Embedded: templates.FS, Dir: cfg.TemplatesDir},
		BaseURL: cfg.PublicURL, Court: cfg.Court,
	}
	return a, nil
}

// InTx runs fn in one transaction carried by ctx, with the actor of ctx
// set for the audit trail (db.WithTx): the services called with that
// context write in it, and fn's error rolls everything back.
func (a *App) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.WithTx(ctx, a.db, fn)
}

// SQL is the database's pool, for the server's session store, its pool
// metrics and its readiness probe.
func (a *App) SQL() (*sql.DB, error) { return a.db.DB() }

// Ready reports whether the database answers and its schema is the
// program's (db.CheckSchema): the readiness probe.
func (a *App) Ready(ctx context.Context) error {
	sqlDB, err := a.db.DB()
	if err == nil {
		err = sqlDB.PingContext(ctx)
	}
	if err == nil {
		err = db.CheckSchema(ctx, sqlDB)
	}
	return err
}

// WatchPolicy keeps e in step with casbin_rule, changed anywhere
// (authz.Watch), until ctx ends or the watcher is closed.
func (a *App) WatchPolicy(ctx context.Context, e *casbin.SyncedEnforcer, log *slog.Logger) (*authz.Watcher, error) {
	return authz.Watch(ctx, a.db, e, log)
}

// NewCheckLog is the gates' check log on the application's database
// (blocklist.NewCheckLog, default batch and queue), logging to log.
func (a *App) NewCheckLog(log *slog.Logger) *blocklist.CheckLog {
	return blocklist.NewCheckLog(a.db, log, 0, 0)
}
