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
		for {
			select {
			case <-ctx.Done():
				return
			case <-dirty:
			case <-t.C:
			}
			if err := e.LoadPolicy(); err != nil && ctx.Err() == nil {
				log.Error("policy: reloading the policy", "err", err.Error())
				time.Sleep(200 * time.Millisecond)
				mark() // try again
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
