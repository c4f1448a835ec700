package logsink

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuf is the underlying writer: a buffer that counts write calls.
type syncBuf struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Info lines wait for the flush (in one write), a warning flushes at once
// with the lines before it, Close writes the rest, and after Close lines
// go straight through.
func TestBufferedThenFlushed(t *testing.T) {
	out := &syncBuf{}
	w := New(out, 0, time.Hour)
	log := slog.New(Handler(slog.NewJSONHandler(w, nil), w))
	log.Info("request", "n", 1)
	log.Info("request", "n", 2)
	if out.String() != "" {
		t.Fatalf("info lines written before a flush: %q", out.String())
	}
	log.Warn("slow", "n", 3)
	if got := strings.Count(out.String(), "\n"); got != 3 || out.writes != 1 {
		t.Fatalf("after a warning: %d lines in %d writes, want 3 in 1: %q", got, out.writes, out.String())
	}
	log.With("k", "v").WithGroup("g").Error("failed", "n", 4)
	if !strings.Contains(out.String(), `"g":{"n":4}`) {
		t.Fatalf("error with attrs and group not flushed: %q", out.String())
	}
	log.Info("request", "n", 5)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "\n") != 5 {
		t.Fatalf("Close left lines behind: %q", out.String())
	}
	log.Info("after close", "n", 6)
	if strings.Count(out.String(), "\n") != 6 {
		t.Fatalf("a line after Close was not written: %q", out.String())
	}
}

// The ticker flushes; lines written from many goroutines stay whole.
func TestTickerAndWholeLines(t *testing.T) {
	out := &syncBuf{}
	w := New(out, 512, 5*time.Millisecond)
	defer w.Close()
	log := slog.New(Handler(slog.NewJSONHandler(w, nil), w))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				log.Info("request", "goroutine", g, "i", i, "pad", strings.Repeat("x", i%50))
			}
		}(g)
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\n") < 1600 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1600 {
		t.Fatalf("%d lines reached the writer by the ticker, want 1600", len(lines))
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line not whole: %q (%v)", l, err)
		}
	}
}
