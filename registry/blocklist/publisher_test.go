package blocklist

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/juizado/juizado/registry/blocklist/wire"
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

// ../shared/API.md "Gate agent" (freshness and anti-rollback): the court
// time signed into each body is the court's clock, strictly increasing
// among the bodies of one process when the clock stands still or reads a
// little behind (a gate agent counts a body fresh only when its
// court_time is newer than the last it accepted), the clock as it reads
// when set back further, and the snapshot's tail carries it as
// json.Marshal writes the field.
func TestCourtTimeIsTheClockAndOnlyMovesForward(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	clk := clock.NewFixed(at)
	s := &Publisher{Lists: &Lists{Loc: time.UTC, Clock: clk}}
	a, b := s.CourtTime(), s.CourtTime()
	if !a.Equal(at) || !b.After(a) || b.Sub(a) != time.Nanosecond {
		t.Fatalf("fixed clock: %v then %v, want %v then a nanosecond later", a, b, at)
	}
	s.Lists.Clock = clock.NewFixed(at.Add(-time.Millisecond)) // read a little behind
	if c := s.CourtTime(); !c.After(b) {
		t.Fatalf("clock a millisecond behind: %v, want after %v", c, b)
	}
	s.Lists.Clock = clock.NewFixed(at.Add(-time.Hour)) // set back: signed as it reads
	if c := s.CourtTime(); !c.Equal(at.Add(-time.Hour)) {
		t.Fatalf("clock set back an hour: %v, want %v", c, at.Add(-time.Hour))
	}
	s.Lists.Clock = clock.NewFixed(at.Add(time.Minute))
	if d := s.CourtTime(); !d.Equal(at.Add(time.Minute)) {
		t.Fatalf("clock moved on: %v, want %v", d, at.Add(time.Minute))
	}
	day := civil.MustParse("2026-11-29")
	tail := snapshotTail([]byte("[]"), day, a, nil)
	snap, err := json.Marshal(Snapshot{Items: []Entry{}, Upcoming: []Entry{}, AsOf: day, CourtTime: a})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(snap, tail) {
		t.Fatalf("tail %s is not the end of %s", tail, snap)
	}
	// With the places (issue 32, item 2): after court_time, as json.Marshal
	// writes Snapshot.Places.
	places, pj, err := placesJSON(&Places{Venues: []wire.Venue{{ID: 7, Name: "Arena Corinthians", Aliases: []string{}}}, Homes: []wire.Home{{Club: "Corinthians", VenueIDs: []int64{7}}}})
	if err != nil {
		t.Fatal(err)
	}
	tail = snapshotTail([]byte("[]"), day, a, pj)
	if snap, err = json.Marshal(Snapshot{Items: []Entry{}, Upcoming: []Entry{}, AsOf: day, CourtTime: a, Places: places}); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(snap, tail) {
		t.Fatalf("tail with places %s is not the end of %s", tail, snap)
	}
}
