package authz

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"
)

// NotifyChannel is the PostgreSQL channel on which a trigger on casbin_rule
// announces every change of the policy (migration 00008).
const NotifyChannel = "casbin"

// FallbackReload is how often a watcher reloads the policy even without a
// notification (a safety net; notifications arrive within milliseconds).
var FallbackReload = time.Minute

// Watcher keeps an enforcer in step with the casbin_rule table, so that a
// policy change made through any server instance (or directly in the
// database) is in force on every instance within moments: it LISTENs on
// NotifyChannel on a connection of its own and reloads the policy on each
// notification, after each reconnection and every FallbackReload.
type Watcher struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Watch starts a Watcher for e on the database of g. It returns once LISTEN
// is in force (so any change committed afterwards reaches e), or the error
// that prevented it. Close stops it.
func Watch(ctx context.Context, g *gorm.DB, e *casbin.SyncedEnforcer, log *slog.Logger) (*Watcher, error) {
	if log == nil {
		log = slog.Default()
	}
	if a, ok := e.GetAdapter().(*guard); ok {
		a.setLog(log) // the lines on skipped rows go to the server's log
	}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	conn, err := listen(ctx, sqlDB)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("policy: LISTEN %s: %w", NotifyChannel, err)
	}
	// A change committed between the enforcer's creation and LISTEN.
	if err := e.LoadPolicy(); err != nil {
		cancel()
		conn.Close()
		return nil, fmt.Errorf("policy: loading the policy: %w", err)
	}
	w := &Watcher{cancel: cancel, done: make(chan struct{})}
	dirty := make(chan struct{}, 1)
	mark := func() {
		select {
		case dirty <- struct{}{}:
		default:
		}
	}
	reloaded := make(chan struct{})
	go func() { // reloads, coalescing bursts of notifications
		defer close(reloaded)
		t := time.NewTicker(FallbackReload)
		defer t.Stop()
		failed := 0 // reloads failed in a row
		for {
			select {
			case <-ctx.Done():
				return
			case <-dirty:
			case <-t.C:
			}
			err := e.LoadPolicy()
			switch {
			case ctx.Err() != nil:
				return
			case err != nil:
				// One line when the reloads start failing, not one per
				// try; the policy last loaded stays in force.
				if failed == 0 {
					log.Error("policy: reloading the policy failed; the policy last loaded stays in force until it reloads", "err", err.Error())
				}
				failed++
				select {
				case <-ctx.Done():
					return
				case <-time.After(reloadRetry(failed)):
				}
				mark() // try again
			case failed > 0:
				log.Info("policy: the policy reloads again", "failed_reloads", failed)
				failed = 0
			}
		}
	}()
	go func() {
		defer close(w.done)
		defer func() { <-reloaded }()
		backoff := 100 * time.Millisecond
		for {
			err := wait(ctx, conn, mark)
			conn.Close()
			if ctx.Err() != nil {
				return
			}
			log.Warn("policy: policy notifications interrupted; reconnecting", "err", err.Error())
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(backoff):
				}
				backoff = min(backoff*2, 2*time.Second)
				if conn, err = listen(ctx, sqlDB); err == nil {
					break
				}
			}
			backoff = 100 * time.Millisecond
			mark() // notifications may have been missed
		}
	}()
	return w, nil
}

// reloadRetry is the pause before the next try after failed reloads in a
// row: 200 ms, doubling, at most 5 s.
func reloadRetry(failed int) time.Duration {
	return min(200*time.Millisecond<<min(failed-1, 5), 5*time.Second)
}

// Close stops the watcher and waits for it to end.
func (w *Watcher) Close() {
	w.cancel()
	<-w.done
}

// listen takes a connection of the pool for the watcher alone and LISTENs
// on it.
func listen(ctx context.Context, sqlDB *sql.DB) (*sql.Conn, error) {
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("not a pgx connection: %T", dc)
		}
		_, err := c.Conn().Exec(ctx, "LISTEN "+NotifyChannel)
		return err
	})
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// wait calls mark on each notification until the connection fails or ctx
// ends; the connection is then discarded rather than returned to the pool.
func wait(ctx context.Context, conn *sql.Conn, mark func()) error {
	var werr error
	_ = conn.Raw(func(dc any) error {
		c := dc.(*stdlib.Conn).Conn()
		for {
			if _, err := c.WaitForNotification(ctx); err != nil {
				werr = err
				return driver.ErrBadConn
			}
			mark()
		}
	})
	if werr == nil {
		werr = errors.New("connection lost")
	}
	return werr
}
