// Package pgtest gives tests a throwaway PostgreSQL database: one cluster per
// `make test` run (its admin DSN in PGTEST_DSN), or one started by TestMain
// when PGTEST_DSN is unset, and one database per test cloned from a migrated
// template (CREATE DATABASE … TEMPLATE …).
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgcluster"
	"github.com/juizado/juizado/migrations"
	"gorm.io/gorm"
)

// EnvDSN names the variable holding the admin DSN of the test cluster.
const EnvDSN = "PGTEST_DSN"

// Main runs a package's tests: when PGTEST_DSN is unset it starts a
// throwaway cluster in a temporary folder for the run and removes it after.
// Use it as `func TestMain(m *testing.M) { pgtest.Main(m) }`.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Getenv(EnvDSN) != "" {
		return m.Run()
	}
	c, cleanup, err := StartCluster()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		return 1
	}
	defer cleanup()
	os.Setenv(EnvDSN, c.DSN("postgres"))
	return m.Run()
}

// StartCluster creates and starts a cluster in a new temporary folder (fsync
// off) and returns it with a function that stops and removes it.
func StartCluster() (*pgcluster.Cluster, func(), error) {
	dir, err := os.MkdirTemp("", "juizado-pgtest-")
	if err != nil {
		return nil, nil, err
	}
	_ = os.Chmod(dir, 0o755)
	c, err := pgcluster.Open(dir + "/data")
	if err == nil {
		err = c.Init()
	}
	if err == nil {
		err = c.Start(true)
	}
	cleanup := func() {
		if c != nil {
			_ = c.Stop()
		}
		_ = os.RemoveAll(dir)
	}
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return c, cleanup, nil
}

// WithDBName returns dsn (URL or key/value form) pointing at database name.
func WithDBName(dsn, name string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err == nil {
			u.Path = "/" + name
			return u.String()
		}
	}
	re := regexp.MustCompile(`(^|\s)dbname=\S+`)
	if re.MatchString(dsn) {
		return re.ReplaceAllString(dsn, "${1}dbname="+name)
	}
	return dsn + " dbname=" + name
}

var (
	tplOnce sync.Once
	tplName string
	tplErr  error
)

// migrationsHash names the template after the migrations' content, so a
// cluster reused across changes never serves a stale schema.
func migrationsHash() string {
	h := sha256.New()
	_ = fs.WalkDir(migrations.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(migrations.FS, p)
			h.Write([]byte(p))
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func adminDSN(tb testing.TB) string {
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		tb.Fatal("pgtest: PGTEST_DSN is unset: run the tests with `make test` or call pgtest.Main from TestMain")
	}
	return dsn
}

func template(ctx context.Context, admin string) (string, error) {
	tplOnce.Do(func() {
		hash := migrationsHash()
		tplName = "juizado_tpl_" + hash
		conn, err := sql.Open("pgx", admin)
		if err != nil {
			tplErr = err
			return
		}
		defer conn.Close()
		c, err := conn.Conn(ctx)
		if err != nil {
			tplErr = err
			return
		}
		defer c.Close()
		sum := sha256.Sum256([]byte(hash))
		key := int64(binary.BigEndian.Uint64(sum[:8]))
		if _, err := c.ExecContext(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
			tplErr = err
			return
		}
		defer c.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", key)
		var exists bool
		if err := c.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tplName).Scan(&exists); err != nil {
			tplErr = err
			return
		}
		if exists {
			return
		}
		building := tplName + "_building"
		_, _ = c.ExecContext(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)")
		if _, err := c.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
			tplErr = err
			return
		}
		mdb, err := sql.Open("pgx", WithDBName(admin, building))
		if err != nil {
			tplErr = err
			return
		}
		_, err = db.MigrateUp(ctx, mdb)
		mdb.Close()
		if err != nil {
			tplErr = fmt.Errorf("pgtest: migrating the template: %w", err)
			return
		}
		if _, err := c.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+tplName); err != nil {
			tplErr = err
		}
	})
	return tplName, tplErr
}

// NewDSN creates a fresh, migrated database for the test and returns its
// DSN; the database is dropped when the test ends.
func NewDSN(tb testing.TB) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin := adminDSN(tb)
	tpl, err := template(ctx, admin)
	if err != nil {
		tb.Fatalf("pgtest: template: %v", err)
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	name := "juizado_test_" + hex.EncodeToString(rnd[:])
	conn, err := sql.Open("pgx", admin)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	for attempt := 0; ; attempt++ {
		_, err = conn.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tpl)
		var pg *pgconn.PgError
		if err != nil && errors.As(err, &pg) && pg.Code == "55006" && attempt < 50 {
			time.Sleep(50 * time.Millisecond) // template briefly in use by another clone
			continue
		}
		break
	}
	if err != nil {
		tb.Fatalf("pgtest: creating %s: %v", name, err)
	}
	dropAtCleanup(tb, admin, name)
	return WithDBName(admin, name)
}

// NewDB returns a GORM handle on a fresh, migrated database, closed and
// dropped when the test ends. It works as the application's role
// (db.Open: db.AppRole, migration 00095), as the server does: the tests'
// writes are the application's in the audit trail, and a right the
// application lacks fails the test. What only the owner or a superuser
// may do (DDL, ANALYZE, setval, session_replication_role, another
// session's backend) goes through Admin.
func NewDB(tb testing.TB) *gorm.DB {
	tb.Helper()
	return Open(tb, NewDSN(tb))
}

// Open opens the database at dsn through db.Open, as the application's
// role (a second connection pool to a test's database, say), and closes
// it when the test ends.
func Open(tb testing.TB, dsn string) *gorm.DB {
	tb.Helper()
	return openWith(tb, dsn, db.Open)
}

// OpenOwner opens the database at dsn through db.OpenOwner, as the role
// dsn names (the cluster's superuser for NewDSN's), and closes it when
// the test ends.
func OpenOwner(tb testing.TB, dsn string) *gorm.DB {
	tb.Helper()
	return openWith(tb, dsn, db.OpenOwner)
}

// Admin returns a handle on g's database as the cluster's superuser
// (OpenOwner on the admin DSN), closed when the test ends: for fixtures
// that the application's role may not do, and for the tests that play
// someone editing the database outside the application (their writes are
// audited as "outside", migration 00095).
func Admin(tb testing.TB, g *gorm.DB) *gorm.DB {
	tb.Helper()
	var name string
	if err := g.Raw("SELECT current_database()").Scan(&name).Error; err != nil {
		tb.Fatal(err)
	}
	return OpenOwner(tb, WithDBName(adminDSN(tb), name))
}

func openWith(tb testing.TB, dsn string, open func(context.Context, string) (*gorm.DB, error)) *gorm.DB {
	tb.Helper()
	g, err := open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	sqlDB, _ := g.DB()
	tb.Cleanup(func() { sqlDB.Close() })
	return g
}

// dropAtCleanup drops database name (WITH (FORCE): open sessions are
// ended) through the admin DSN when the test ends; a failure to connect
// leaves it for the cluster's removal.
func dropAtCleanup(tb testing.TB, admin, name string) {
	tb.Cleanup(func() {
		c, err := sql.Open("pgx", admin)
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = c.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
}

// NewEmptyDSN creates an empty database (no migrations applied) for the
// test and returns its DSN; it is dropped when the test ends.
func NewEmptyDSN(tb testing.TB) string {
	tb.Helper()
	admin := adminDSN(tb)
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	name := "juizado_empty_" + hex.EncodeToString(rnd[:])
	conn, err := sql.Open("pgx", admin)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec("CREATE DATABASE " + name); err != nil {
		tb.Fatalf("pgtest: creating %s: %v", name, err)
	}
	dropAtCleanup(tb, admin, name)
	return WithDBName(admin, name)
}
