// Command juizado is the one binary of Juizado: serve, migrate, token, seed
// and dev (what `make run` calls). Wiring only; the rules live in the
// domain packages.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
	_ "time/tzdata" // the binary never depends on the host's zoneinfo

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/logsink"
	"github.com/juizado/juizado/internal/pgcluster"
	"github.com/juizado/juizado/internal/web"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/templates"
	"gorm.io/gorm"
)

func main() {
	err := rootCmd().Execute()
	// The last juizado process using the private cluster stops it
	// (private.go): nothing is left running behind `make run` or a
	// one-off `token create`.
	if rerr := releasePrivate(); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "juizado:", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}

// Main is the wired program: configuration, database, HTTP server. Tests
// build one on a fresh database and start it on ":0".
type Main struct {
	Config config.Config
	Clock  clock.Clock
	DB     *gorm.DB
	Server *web.Server
	Logger *slog.Logger
	Loc    *time.Location

	httpServer *http.Server
	listener   net.Listener
	logSink    *logsink.Writer // when Open made the logger
}

// Open connects to the database, refuses a schema that is behind, makes
// sure the default court exists, syncs the TPU tables of the binary when
// newer (tpu.Sync) and builds the HTTP server.
func (m *Main) Open(ctx context.Context) error {
	if m.Clock == nil {
		m.Clock = clock.System{}
	}
	if m.Logger == nil {
		// JSON lines on stderr, written in batches (every 100 ms; warnings
		// and errors at once; the rest at Close).
		m.logSink = logsink.New(os.Stderr, 0, 0)
		m.Logger = slog.New(logsink.Handler(slog.NewJSONHandler(m.logSink, nil), m.logSink))
	}
	loc, err := time.LoadLocation(m.Config.TimeZone)
	if err != nil {
		return fmt.Errorf("JUIZADO_TZ %q: %w", m.Config.TimeZone, err)
	}
	m.Loc = loc
	g, err := openDB(ctx, m.Config)
	if err != nil {
		return err
	}
	m.DB = g
	sqlDB, _ := g.DB()
	if err := db.CheckSchema(ctx, sqlDB); err != nil {
		return err
	}
	if err := cases.EnsureCourt(ctx, g, m.Config.Court, ""); err != nil {
		return err
	}
	enf, err := authz.Open(ctx, g)
	if err != nil {
		return err
	}
	var keys *blocklist.KeyRing
	if m.Config.KeyDir != "" {
		keys = &blocklist.KeyRing{Dir: m.Config.KeyDir}
	}
	a, err := app.New(m.Config, g, m.Clock, loc, keys)
	if err != nil {
		return err
	}
	// The TPU tables of this binary, when newer than the database's (the
	// migrations sync them too; a binary upgraded with no new migration).
	if loaded, err := a.SyncTPU(ctx); err != nil {
		return err
	} else if len(loaded) > 0 {
		m.Logger.Info("tpu tables loaded from the binary", "tables", loaded)
	}
	m.Server, err = web.New(web.Deps{App: a, Enforcer: enf, Templates: templates.FS, Logger: m.Logger,
		SecureCookies: m.Config.SecureCookies, TrustProxy: m.Config.TrustProxy, SpoolDir: m.Config.SpoolDir})
	return err
}

// Listen binds the configured address; Addr tells the bound one (":0" picks
// a free port).
func (m *Main) Listen() error {
	l, err := net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return err
	}
	m.listener = l
	m.httpServer = &http.Server{Handler: m.Server.Echo, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second, WriteTimeout: 120 * time.Second}
	return nil
}

// Addr returns the listening address (host:port).
func (m *Main) Addr() string { return m.listener.Addr().String() }

// ShutdownTimeout bounds the graceful stop: the requests in flight get this
// long to finish once ctx ends (the long-polls of the change feed are
// answered at once), then the rest are cut; Run still returns nil, so a
// court stopped with SIGTERM exits 0 within 5 s (issue 32, item 3;
// ../shared/API.md "Gate agent"), even with its database hung: then
// the requests waiting on it are cut at this bound and the gates' check
// records still held go to the spool within blocklist.CloseGrace.
const ShutdownTimeout = 3500 * time.Millisecond

// Run serves until ctx ends, then shuts down gracefully: the long-polls
// answered at once (web.Server.StopLongPolls), the other requests in
// flight finished (up to ShutdownTimeout; those still running then are cut
// and logged). It returns nil after a stop, the listener's error
// otherwise.
func (m *Main) Run(ctx context.Context) error {
	if m.listener == nil {
		if err := m.Listen(); err != nil {
			return err
		}
	}
	errc := make(chan error, 1)
	go func() { errc <- m.httpServer.Serve(m.listener) }()
	tctx, stopTicker := context.WithCancel(ctx)
	defer stopTicker()
	go m.Server.RunBlocklistTicker(tctx, time.Minute)
	if err := m.Server.StartAccounts(tctx); err != nil { // policy watcher, session janitor
		return err
	}
	if m.Config.KeyDir != "" {
		go m.checkpointAudit(tctx, audit.CheckpointRows, audit.CheckpointEvery)
	}
	defer m.Server.Close() // writes the CPF checks still queued
	m.Logger.Info("serving", "addr", m.Addr())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	m.Server.StopLongPolls()
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := m.httpServer.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		m.Logger.Warn("shutdown: requests still running were cut", "after", ShutdownTimeout.String(), "err", err.Error())
		_ = m.httpServer.Close()
	}
	m.Logger.Info("stopped")
	return nil
}

// checkpointAudit signs the audit chain's head (with the key under
// JUIZADO_KEY_DIR/audit) once at start and then whenever rows rows were
// added since the last checkpoint, or every interval when any was, so the
// tail that a superuser could cut without a trace stays small;
// `juizado audit verify` shows its size.
func (m *Main) checkpointAudit(ctx context.Context, rows int64, every time.Duration) {
	t := time.NewTicker(min(every, 5*time.Second))
	defer t.Stop()
	last := time.Time{}
	for {
		tail, err := audit.Tail(ctx, m.DB)
		if err == nil && tail.Rows > 0 && (tail.Rows >= rows || time.Since(last) >= every) {
			_, err = audit.Checkpoint(ctx, m.DB, auditKeys(m.Config))
			last = time.Now()
		}
		if err != nil && !errors.Is(err, audit.ErrEmpty) && ctx.Err() == nil {
			m.Logger.Error("audit checkpoint", "err", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close releases the database and writes the log lines still buffered.
func (m *Main) Close() error {
	if m.Server != nil {
		m.Server.Close()
	}
	if m.logSink != nil {
		_ = m.logSink.Close()
	}
	if m.DB != nil {
		if sqlDB, err := m.DB.DB(); err == nil {
			return sqlDB.Close()
		}
	}
	return nil
}

// dsn returns DATABASE_URL, or the private cluster's DSN after making sure
// that cluster exists, runs and has the juizado database.
func dsn(ctx context.Context, cfg config.Config) (string, error) {
	if cfg.DatabaseURL != "" {
		return cfg.DatabaseURL, nil
	}
	c, err := pgcluster.Open(pgcluster.PrivateDir())
	if err != nil {
		return "", err
	}
	if privateUse == nil {
		if err := usePrivate(c); err != nil {
			return "", err
		}
	}
	admin, err := sql.Open("pgx", c.DSN("postgres"))
	if err != nil {
		return "", err
	}
	defer admin.Close()
	var exists bool
	if err := admin.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'juizado')").Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE juizado"); err != nil {
			return "", err
		}
	}
	return c.DSN("juizado"), nil
}

// openDB opens the environment's database as the application's role
// (db.Open: juizado_app on every connection, ../shared/API.md
// "Operations"): the server and the CLI's data commands.
func openDB(ctx context.Context, cfg config.Config) (*gorm.DB, error) {
	d, err := dsn(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return db.Open(ctx, d)
}

// openOwnerDB opens it as the role DATABASE_URL names (db.OpenOwner):
// `migrate` (the tables' owner) and `seed --scale`.
func openOwnerDB(ctx context.Context, cfg config.Config) (*gorm.DB, error) {
	d, err := dsn(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return db.OpenOwner(ctx, d)
}

// signalContext ends on SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
