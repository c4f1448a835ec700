package testenv

import (
	"bytes"
	"sync"
)

// LogBuffer is a log sink for tests: a server's or a process's goroutines
// write it (an io.Writer for slog handlers or exec.Cmd.Stderr) while the
// test reads it. The zero value is ready to use; safe for concurrent use.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p; it never fails.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
