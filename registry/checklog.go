package registry

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"
)

// CheckRecord is one CPF check by a club's gate: breach evidence (DOMAIN.md
// §6: "each read is logged").
type CheckRecord struct {
	UserID    int64
	Club      string
	CPF       string `gorm:"column:cpf"`
	CheckedAt time.Time
	Version   int64
}

// TableName is the table of check records.
func (CheckRecord) TableName() string { return "blocklist_checks" }

// CheckLog writes check records in batches off the request path: Log hands a
// record to a buffered channel; one goroutine writes a batch every Interval
// or every BatchSize records. Close writes what is left.
type CheckLog struct {
	db       *gorm.DB
	logger   *slog.Logger
	ch       chan CheckRecord
	done     chan struct{}
	interval time.Duration
	batch    int
	once     sync.Once
	mu       sync.RWMutex // Log holds it for reading; Close for writing
	closed   bool
}

// NewCheckLog starts the flusher. buffer is the channel's capacity (a full
// buffer makes Log wait: records are evidence, never dropped).
func NewCheckLog(g *gorm.DB, logger *slog.Logger, buffer int, interval time.Duration) *CheckLog {
	if logger == nil {
		logger = slog.Default()
	}
	if buffer <= 0 {
		buffer = 8192
	}
	if interval <= 0 {
		interval = 200 * time.Millisecond
	}
	l := &CheckLog{db: g, logger: logger, ch: make(chan CheckRecord, buffer), done: make(chan struct{}), interval: interval, batch: 1000}
	go l.run()
	return l
}

// Log queues a record. After Close it writes the record at once.
func (l *CheckLog) Log(r CheckRecord) {
	l.mu.RLock()
	if !l.closed {
		l.ch <- r
		l.mu.RUnlock()
		return
	}
	l.mu.RUnlock()
	l.write([]CheckRecord{r})
}

func (l *CheckLog) run() {
	defer close(l.done)
	t := time.NewTicker(l.interval)
	defer t.Stop()
	buf := make([]CheckRecord, 0, l.batch)
	flush := func() {
		if len(buf) > 0 {
			l.write(buf)
			buf = buf[:0]
		}
	}
	for {
		select {
		case r, ok := <-l.ch:
			if !ok {
				flush()
				return
			}
			buf = append(buf, r)
			if len(buf) >= l.batch {
				flush()
			}
		case <-t.C:
			flush()
		}
	}
}

// write stores a batch with COPY (pgx), or with INSERTs when the
// connection is not pgx's.
func (l *CheckLog) write(rs []CheckRecord) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := errNotPgx
	if sqlDB, e := l.db.DB(); e == nil {
		err = copyChecks(ctx, sqlDB, rs)
	}
	if errors.Is(err, errNotPgx) {
		err = l.db.WithContext(ctx).CreateInBatches(rs, 1000).Error
	}
	if err != nil {
		// The CPF stays out of the log line.
		l.logger.Error("blocklist check log: batch not written", "records", len(rs), "err", err.Error())
	}
}

var errNotPgx = errors.New("registry: not a pgx connection")

func copyChecks(ctx context.Context, sqlDB *sql.DB, rs []CheckRecord) error {
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errNotPgx
		}
		_, err := pc.Conn().CopyFrom(ctx, pgx.Identifier{"blocklist_checks"},
			[]string{"user_id", "club", "cpf", "checked_at", "version"},
			pgx.CopyFromSlice(len(rs), func(i int) ([]any, error) {
				r := rs[i]
				return []any{r.UserID, r.Club, r.CPF, r.CheckedAt, r.Version}, nil
			}))
		return err
	})
}

// Close stops taking records into the buffer and waits until every queued
// record is written.
func (l *CheckLog) Close() {
	l.once.Do(func() {
		l.mu.Lock()
		l.closed = true
		close(l.ch)
		l.mu.Unlock()
		<-l.done
	})
}
