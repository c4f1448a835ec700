package blocklist

import (
	"context"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
)

// While one request prepares a new version, the others are answered from
// the version in hand (same day) instead of waiting; on a new day they wait.
func TestPreparedBlocklistServesVersionInHandWhileRebuilding(t *testing.T) {
	s := &Publisher{Lists: &Lists{Loc: time.UTC, Clock: clock.NewFixed(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))}}
	old := &Prepared{Version: 7}
	s.bl.state.Store(&blocklistState{p: old, day: civil.Today(s.now(), time.UTC), checked: time.Now().Add(-time.Hour)})
	s.bl.mu.Lock() // a rebuild under way
	got, err := s.Prepared(context.Background())
	if err != nil || got != old {
		t.Fatalf("during a rebuild: %+v %v, want the version in hand", got, err)
	}
	// A new day: the request waits for the rebuild (here: until unlocked).
	s.bl.state.Store(&blocklistState{p: old, day: civil.Today(s.now(), time.UTC).AddDays(-1), checked: time.Now()})
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = recover() }() // no database here: the rebuild itself fails
		_, _ = s.Prepared(context.Background())
	}()
	select {
	case <-done:
		t.Fatal("on a new day the request did not wait for the rebuild")
	case <-time.After(100 * time.Millisecond):
	}
	s.bl.mu.Unlock()
	<-done
}
