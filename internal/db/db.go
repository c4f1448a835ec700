// Package db connects to PostgreSQL through GORM (pgx v5), runs the goose
// migrations embedded in package migrations, and carries transactions in the
// context so that one use case writes everything or nothing.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // also the database/sql driver "pgx"
	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/migrations"
	"github.com/pressly/goose/v3"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Timeouts bound how long one statement may run and wait for a lock, and
// how long a connection may sit idle inside a transaction, on every pooled
// connection (a held lock once made a read wait 24 s). They
// are below the server's write timeout (cmd/juizado: 120 s), so a request
// never waits longer than its answer may take; the lock wait leaves room
// for filings serialised on their court's sequence at peak.
var Timeouts = struct {
	Statement, Lock, IdleInTx time.Duration
}{Statement: 60 * time.Second, Lock: 20 * time.Second, IdleInTx: 60 * time.Second}

// AppRole is the database role the application works as (migration 00095;
// ../shared/API.md "Operations"): no superuser, owner of no table, with
// only the rights the server needs. The audit trail (migration 00095,
// audit_chain) records a write by any other role as made outside the
// application, naming that role.
const AppRole = "juizado_app"

// ErrNoAppRole is returned by Open when the database cannot give the
// connection AppRole: the role does not exist yet (migration 00095 not
// applied in this cluster) or DATABASE_URL's role may not take it.
var ErrNoAppRole = errors.New("db: cannot work as the application role " + AppRole + ": run `juizado migrate up` as the tables' owner (migration 00095 creates it), and connect as a superuser or a member of it")

// Open connects to the database at dsn (a postgres:// URL or a libpq
// key/value string, several hosts with target_session_attrs=read-write for
// a primary and its standby) as the application (AppRole) and checks that
// it answers. Every connection of the pool starts as AppRole (the startup
// parameter role, so RESET ROLE and DISCARD ALL keep it) whatever role
// dsn names (a superuser or the owner, in development and in the checks),
// and carries Timeouts. Errors: ErrNoAppRole (wrapped) when the role
// cannot be taken, else the connection's.
func Open(ctx context.Context, dsn string) (*gorm.DB, error) {
	return open(ctx, dsn, AppRole)
}

// OpenOwner is Open working as the role dsn names (no SET ROLE): for
// `juizado migrate`, which needs the tables' owner, for `seed --scale`
// (COPY, VACUUM and no audit trigger, as a superuser) and for the tests'
// fixtures (internal/pgtest).
func OpenOwner(ctx context.Context, dsn string) (*gorm.DB, error) {
	return open(ctx, dsn, "")
}

func open(ctx context.Context, dsn, role string) (*gorm.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("db: open: %w", err)
	}
	ms := func(d time.Duration) string { return fmt.Sprint(d.Milliseconds()) }
	params := map[string]string{"statement_timeout": ms(Timeouts.Statement), "lock_timeout": ms(Timeouts.Lock),
		"idle_in_transaction_session_timeout": ms(Timeouts.IdleInTx)}
	if role != "" {
		params["role"] = role
	}
	for k, v := range params {
		if _, set := cfg.RuntimeParams[k]; !set {
			cfg.RuntimeParams[k] = v
		}
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 5 * time.Second // an unreachable host fails fast (degraded mode)
	}
	sqlDB := stdlib.OpenDB(*cfg)
	sqlDB.SetMaxOpenConns(40)
	sqlDB.SetMaxIdleConns(20)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pctx); err != nil {
		sqlDB.Close()
		var pg *pgconn.PgError
		if role != "" && errors.As(err, &pg) && (pg.Code == "42704" || pg.Code == "42501") { // undefined_object, insufficient_privilege
			return nil, fmt.Errorf("%w (%s)", ErrNoAppRole, pg.Message)
		}
		return nil, fmt.Errorf("db: cannot reach the database: %w", err)
	}
	g, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), &gorm.Config{
		TranslateError: true,
		Logger:         logger.Discard,
		NowFunc:        func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("db: gorm: %w", err)
	}
	return g, nil
}

type txKey struct{}

type actorKey struct{}

// WithActor returns ctx carrying the actor whose writes the audit trail
// records (migration 00006: the transaction settings juizado.actor_*).
func WithActor(ctx context.Context, a actor.Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor carried by ctx, if any.
func ActorFrom(ctx context.Context) (actor.Actor, bool) {
	a, ok := ctx.Value(actorKey{}).(actor.Actor)
	return a, ok
}

// WithTx runs fn in one transaction carried by the context (with the
// actor of WithActor set for the audit trail): stores called
// with that context use it (see Conn). A transaction already in ctx is
// reused, so use cases compose. fn's error rolls everything back.
func WithTx(ctx context.Context, g *gorm.DB, fn func(ctx context.Context) error) error {
	if _, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return fn(ctx)
	}
	return g.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if a, ok := ActorFrom(ctx); ok {
			id := ""
			if a.UserID != 0 {
				id = fmt.Sprint(a.UserID)
			}
			if err := tx.Exec(`SELECT set_config('juizado.actor_id', ?, true), set_config('juizado.actor_name', ?, true),
				set_config('juizado.actor_role', ?, true), set_config('juizado.actor_domain', ?, true)`, id, a.Name, a.Role, a.Domain()).Error; err != nil {
				return err
			}
		}
		return fn(context.WithValue(ctx, txKey{}, tx))
	})
}

// WithSnapshot runs fn in one read-only REPEATABLE READ transaction
// carried by the context (see Conn): every read of fn sees the same
// snapshot of the database (a report of several queries that must add
// up). A transaction already in ctx is reused as it is.
func WithSnapshot(ctx context.Context, g *gorm.DB, fn func(ctx context.Context) error) error {
	if _, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return fn(ctx)
	}
	return g.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return fn(context.WithValue(ctx, txKey{}, tx))
	}, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
}

// Conn returns the transaction carried by ctx, or g, bound to ctx.
func Conn(ctx context.Context, g *gorm.DB) *gorm.DB {
	if tx, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return tx
	}
	return g.WithContext(ctx)
}

// IsUnavailable reports whether err says the database cannot serve now
// rather than that the request is wrong: no connection (refused, reset,
// timed out, the server shutting down or starting, a standby being
// promoted), a statement or lock wait cut by Timeouts, or a read-only
// server where a write was due. The HTTP layer answers 503 with
// Retry-After for it (degraded mode).
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch {
		case strings.HasPrefix(pg.Code, "08"), // connection exception
			pg.Code == "57P01", pg.Code == "57P02", pg.Code == "57P03", // admin/crash shutdown, cannot connect now
			pg.Code == "57014", // query_canceled (statement_timeout)
			pg.Code == "55P03", // lock_not_available (lock_timeout)
			pg.Code == "25006", // read_only_sql_transaction (a standby)
			pg.Code == "53300": // too_many_connections
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne), errors.Is(err, driver.ErrBadConn), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	msg := err.Error()
	for _, s := range []string{"conn closed", "connection refused", "connection reset", "broken pipe", "failed to connect", "server closed the connection", "unexpected EOF"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// IsUniqueViolation reports whether err is PostgreSQL's unique_violation
// (23505), optionally on the named constraint or index.
func IsUniqueViolation(err error, constraint string) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23505" {
		return constraint == "" || pg.ConstraintName == constraint
	}
	return errors.Is(err, gorm.ErrDuplicatedKey) && constraint == ""
}

func provider(sqlDB *sql.DB) (*goose.Provider, error) {
	sub, err := fs.Sub(migrations.FS, ".")
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectPostgres, sqlDB, sub)
}

// MigrateUp applies every pending migration and returns the versions applied,
// then syncs the TPU tables from the binary (tpu.Sync).
// The migrations run on one connection with no statement or lock timeout
// (an index on a large table takes longer than a request may), reset to the
// pool's Timeouts afterwards.
func MigrateUp(ctx context.Context, sqlDB *sql.DB) ([]int64, error) {
	p, err := provider(sqlDB)
	if err != nil {
		return nil, err
	}
	prev := sqlDB.Stats().MaxOpenConnections
	sqlDB.SetMaxOpenConns(1)
	defer func() {
		_, _ = sqlDB.ExecContext(context.Background(), "RESET statement_timeout; RESET lock_timeout")
		sqlDB.SetMaxOpenConns(prev)
	}()
	if _, err := sqlDB.ExecContext(ctx, "SET statement_timeout = 0; SET lock_timeout = 0"); err != nil {
		return nil, err
	}
	res, err := p.Up(ctx)
	var applied []int64
	for _, r := range res {
		applied = append(applied, r.Source.Version)
	}
	if err == nil {
		// The TPU tables embedded in the binary, when newer than the
		// database's (Res. CNJ 46/2007; package tpu).
		_, err = tpu.Sync(ctx, sqlDB, time.Now())
	}
	return applied, err
}

// MigrateDown rolls back the latest migration; it returns its version, or 0
// when none was applied.
func MigrateDown(ctx context.Context, sqlDB *sql.DB) (int64, error) {
	p, err := provider(sqlDB)
	if err != nil {
		return 0, err
	}
	r, err := p.Down(ctx)
	if r == nil {
		return 0, err
	}
	return r.Source.Version, err
}

// MigrationStatus is one migration and whether it is applied.
type MigrationStatus struct {
	Version   int64
	Name      string
	AppliedAt time.Time // zero when pending
}

// Status lists every migration of the binary with its state.
func Status(ctx context.Context, sqlDB *sql.DB) ([]MigrationStatus, error) {
	p, err := provider(sqlDB)
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]MigrationStatus, 0, len(st))
	for _, s := range st {
		name := s.Source.Path
		if i := strings.LastIndex(name, "/"); i >= 0 {
			name = name[i+1:]
		}
		out = append(out, MigrationStatus{Version: s.Source.Version, Name: name, AppliedAt: s.AppliedAt})
	}
	return out, nil
}

// ErrSchemaBehind is returned by CheckSchema when migrations are pending,
// or when AppRole may not read the schema's version (migration 00095 not
// applied in this database).
var ErrSchemaBehind = errors.New("db: the schema is behind this binary; run: juizado migrate up")

// CheckSchema returns ErrSchemaBehind (wrapped with the pending versions)
// when the database lacks a migration that the binary holds.
func CheckSchema(ctx context.Context, sqlDB *sql.DB) error {
	p, err := provider(sqlDB)
	if err != nil {
		return err
	}
	pending, err := p.HasPending(ctx)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "42501" { // insufficient_privilege: AppRole has no rights here yet (00095)
		return fmt.Errorf("%w (%s)", ErrSchemaBehind, pg.Message)
	}
	if err != nil {
		return fmt.Errorf("db: reading the schema version: %w", err)
	}
	if pending {
		cur, _ := p.GetDBVersion(ctx)
		var last int64
		if s := p.ListSources(); len(s) > 0 {
			last = s[len(s)-1].Version
		}
		return fmt.Errorf("%w (database at %d, binary at %d)", ErrSchemaBehind, cur, last)
	}
	return nil
}
