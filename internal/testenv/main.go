package testenv

import (
	"context"
	"testing"
)

// Program is a program run in a test's process the way its main runs it
// (cmd/juizado's Main): Open connects and migrates, Listen binds, Run
// serves until its context ends, Close releases what Open took.
type Program interface {
	Open(ctx context.Context) error
	Listen() error
	Run(ctx context.Context) error
	Close() error
}

// MustRunMain opens m, binds it and runs it in the background until the
// test ends (model: wtf's MustRunMain). It returns a context that ends
// with the test, and stop, which ends the program and waits for Run to
// return (also called at the test's end; calling it twice is harmless).
func MustRunMain(tb testing.TB, m Program) (ctx context.Context, stop func()) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(func() { cancel(); _ = m.Close() })
	if err := m.Open(ctx); err != nil {
		tb.Fatal(err)
	}
	if err := m.Listen(); err != nil {
		tb.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	tb.Cleanup(stop)
	return ctx, stop
}
