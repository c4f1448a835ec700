package blocklist

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
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

// CheckLog writes check records in batches off the request path: Log
// appends a record to a pending slice under a mutex (no goroutine is woken
// per record); one goroutine writes the pending records every Interval, or
// as soon as BatchSize of them wait. A batch that cannot be written is kept
// and tried again at the next tick (records are breach evidence, never
// dropped); while Buffer records wait, Log waits too. Close writes what is
// left. DOMAIN.md §6; issue 6 ("logged in batches off the request path").
type CheckLog struct {
	db       *gorm.DB
	logger   *slog.Logger
	interval time.Duration
	batch    int // records per COPY and the size that wakes the writer
	max      int // pending records beyond which Log waits

	mu      sync.Mutex
	space   *sync.Cond // signalled when pending is taken or Close is called
	pending []CheckRecord
	closed  bool

	spoolMu sync.Mutex
	spool   string // file of records kept on disk while the database is down; "" for none

	kick chan struct{} // capacity 1: a full batch waits
	stop chan struct{}
	done chan struct{}
	once sync.Once

	writes context.Context // every write's parent: Close cancels it after CloseGrace
	abort  context.CancelFunc
}

// CloseGrace is how long Close lets the writes finish before it cancels
// them (a database that hangs: no answer, no error); the records they held
// then go to the spool file (SpoolTo), or are reported as not written. It
// keeps a court's stop on SIGTERM within 5 s (issue 32, item 3; ../shared/
// API.md "Gate agent") whatever the database does.
const CloseGrace = 500 * time.Millisecond

// NewCheckLog starts the writer. buffer bounds the records waiting to be
// written (0: 65,536; a full buffer makes Log wait); interval is the longest
// a record waits before its batch is written (0: 200 ms).
func NewCheckLog(g *gorm.DB, logger *slog.Logger, buffer int, interval time.Duration) *CheckLog {
	if logger == nil {
		logger = slog.Default()
	}
	if buffer <= 0 {
		buffer = 65536
	}
	if interval <= 0 {
		interval = 200 * time.Millisecond
	}
	batch := 1000
	if batch > buffer {
		batch = buffer
	}
	l := &CheckLog{db: g, logger: logger, interval: interval, batch: batch, max: buffer,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	l.writes, l.abort = context.WithCancel(context.Background())
	l.space = sync.NewCond(&l.mu)
	go l.run()
	return l
}

// SpoolTo keeps the records that cannot be written on disk, in the file
// path (JSON lines, mode 0600), until the database takes them (degraded
// mode, issue 16 item 3: a gate's checks are breach evidence and survive an
// outage and a restart of the server); records spooled by an earlier run
// are written first. "" keeps them in memory only.
func (l *CheckLog) SpoolTo(path string) {
	l.spoolMu.Lock()
	l.spool = path
	l.spoolMu.Unlock()
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Spooled returns how many records wait in the spool file.
func (l *CheckLog) Spooled() int {
	rs, _ := l.readSpool()
	return len(rs)
}

func (l *CheckLog) readSpool() ([]CheckRecord, string) {
	l.spoolMu.Lock()
	path := l.spool
	l.spoolMu.Unlock()
	if path == "" {
		return nil, ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, path
	}
	var rs []CheckRecord
	for _, line := range bytes.Split(b, []byte("\n")) {
		var r CheckRecord
		if len(bytes.TrimSpace(line)) > 0 && json.Unmarshal(line, &r) == nil {
			rs = append(rs, r)
		}
	}
	return rs, path
}

// toSpool appends rs to the spool file; false when there is none or it
// cannot be written (the records then stay in memory).
func (l *CheckLog) toSpool(rs []CheckRecord) bool {
	l.spoolMu.Lock()
	defer l.spoolMu.Unlock()
	if l.spool == "" {
		return false
	}
	if err := os.MkdirAll(filepath.Dir(l.spool), 0o700); err != nil {
		return false
	}
	f, err := os.OpenFile(l.spool, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		l.logger.Error("blocklist check log: spool not writable", "err", err.Error())
		return false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, r := range rs {
		_ = enc.Encode(r)
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err == nil
}

// drainSpool writes the spooled records; the file goes when they are in.
func (l *CheckLog) drainSpool() {
	rs, path := l.readSpool()
	if len(rs) == 0 {
		return
	}
	for i := 0; i < len(rs); i += l.batch {
		if l.write(rs[i:min(i+l.batch, len(rs))]) != nil {
			// Keep what is left (the written part goes from the file).
			l.spoolMu.Lock()
			_ = os.Remove(path)
			l.spoolMu.Unlock()
			l.toSpool(rs[i:])
			return
		}
	}
	l.spoolMu.Lock()
	_ = os.Remove(path)
	l.spoolMu.Unlock()
	l.logger.Info("blocklist check log: spooled records written", "records", len(rs))
}

// Log queues a record. After Close it writes the record at once, or to
// the spool file when the write fails.
func (l *CheckLog) Log(r CheckRecord) {
	l.mu.Lock()
	for len(l.pending) >= l.max && !l.closed {
		l.space.Wait()
	}
	if l.closed {
		l.mu.Unlock()
		if rs := []CheckRecord{r}; l.write(rs) != nil {
			l.toSpool(rs)
		}
		return
	}
	l.pending = append(l.pending, r)
	full := len(l.pending) == l.batch
	l.mu.Unlock()
	if full {
		select {
		case l.kick <- struct{}{}:
		default:
		}
	}
}

// Pending is the number of records waiting to be written (a figure for
// /metrics: it grows when the database falls behind the gates).
func (l *CheckLog) Pending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.pending)
}

// take removes and returns the pending records.
func (l *CheckLog) take() []CheckRecord {
	l.mu.Lock()
	rs := l.pending
	l.pending = make([]CheckRecord, 0, l.batch) // the next batch does not regrow from nothing
	l.space.Broadcast()
	l.mu.Unlock()
	return rs
}

func (l *CheckLog) run() {
	defer close(l.done)
	t := time.NewTicker(l.interval)
	defer t.Stop()
	var failed []CheckRecord // a batch that could not be written, tried again
	flush := func() {
		rs := append(failed, l.take()...)
		failed = nil
		down := false
		defer func() {
			if failed == nil && !down {
				l.drainSpool() // the database answers: what waited on disk too
			}
		}()
		for len(rs) > 0 {
			n := min(len(rs), l.batch)
			if err := l.write(rs[:n]); err != nil {
				if l.toSpool(rs) {
					down = true
					return // on disk until the database returns
				}
				if over := len(rs) - l.max; over > 0 {
					// The database has refused writes for so long that
					// the memory bound is reached: the oldest go.
					l.logger.Error("blocklist check log: records dropped after failed writes", "records", over)
					rs = rs[over:]
				}
				failed = rs
				return
			}
			rs = rs[n:]
		}
	}
	for {
		select {
		case <-l.kick:
			flush()
		case <-t.C:
			flush()
		case <-l.stop:
			flush()
			if len(failed) > 0 {
				l.logger.Error("blocklist check log: records not written at close", "records", len(failed))
			}
			return
		}
	}
}

// write stores a batch with COPY (pgx), or with INSERTs when the
// connection is not pgx's.
func (l *CheckLog) write(rs []CheckRecord) error {
	ctx, cancel := context.WithTimeout(l.writes, 30*time.Second)
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
	return err
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

// Close stops queueing records (later ones are written at once) and waits
// until every queued record is written, or CloseGrace: then the writes
// still under way are cancelled and what they held goes to the spool file
// (or is logged as not written when there is none), and Close returns.
func (l *CheckLog) Close() {
	l.once.Do(func() {
		l.mu.Lock()
		l.closed = true
		l.space.Broadcast()
		l.mu.Unlock()
		close(l.stop)
		select {
		case <-l.done:
		case <-time.After(CloseGrace):
			l.logger.Warn("blocklist check log: the database did not take the records in time; they go to the spool", "after", CloseGrace.String())
			l.abort()
			<-l.done
		}
	})
}
