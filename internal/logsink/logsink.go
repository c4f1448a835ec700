// Package logsink buffers the server's JSON log lines so that a request does
// not pay a write(2) of its own: at the rate of the stadium gates (tens of
// thousands of CPF checks a second, each with a request log line) the system
// call was a twentieth of the server's CPU. Lines reach the underlying
// writer every interval, when the buffer fills, at once for warnings and
// errors (Handler), and at Close.
package logsink

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Writer is an io.Writer that buffers whole writes (slog writes one line per
// call, so lines are never interleaved) and flushes them every interval.
// Safe for concurrent use. After Close it writes through.
type Writer struct {
	mu     sync.Mutex
	out    io.Writer
	buf    *bufio.Writer
	closed bool
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

// New starts a Writer over out with a buffer of size bytes (0: 64 KiB)
// flushed every interval (0: 100 ms).
func New(out io.Writer, size int, interval time.Duration) *Writer {
	if size <= 0 {
		size = 64 << 10
	}
	if interval <= 0 {
		interval = 100 * time.Millisecond
	}
	w := &Writer{out: out, buf: bufio.NewWriterSize(out, size), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run(interval)
	return w
}

func (w *Writer) run(interval time.Duration) {
	defer close(w.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = w.Flush()
		case <-w.stop:
			return
		}
	}
}

// Write buffers p (or writes it through after Close).
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.out.Write(p)
	}
	return w.buf.Write(p)
}

// Flush writes the buffered lines now.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Flush()
}

// Close stops the ticker and writes what is buffered; later writes go
// straight to the underlying writer.
func (w *Writer) Close() error {
	var err error
	w.once.Do(func() {
		close(w.stop)
		<-w.done
		w.mu.Lock()
		err = w.buf.Flush()
		w.closed = true
		w.mu.Unlock()
	})
	return err
}

// Handler wraps h, whose output is w, so that a record at level Warn or
// above is flushed at once (with the lines before it): an error is never
// left in a buffer should the process die right after it.
func Handler(h slog.Handler, w *Writer) slog.Handler { return flushing{h, w} }

type flushing struct {
	slog.Handler
	w *Writer
}

func (f flushing) Handle(ctx context.Context, r slog.Record) error {
	err := f.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := f.w.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (f flushing) WithAttrs(as []slog.Attr) slog.Handler {
	return flushing{f.Handler.WithAttrs(as), f.w}
}

func (f flushing) WithGroup(name string) slog.Handler {
	return flushing{f.Handler.WithGroup(name), f.w}
}
