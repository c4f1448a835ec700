package blocklist_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/blocklist"
)

// Versions made more than FeedRetention ago leave the feed; the latest
// version always stays, so a gate at it never gets 410.
func TestPruneFeedOlderThan(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.sentence(t, e.reps["R1"], "2025-06-10", 3)
	e.sentence(t, e.reps["R2"], "2025-06-10", 3)
	v, err := e.lists.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is older than a year before the clock: nothing pruned.
	if err := e.lists.PruneFeedOlderThan(ctx, e.clk.Now().Add(-365*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lists.Changes(ctx, 0, 10, ""); err != nil {
		t.Fatalf("nothing old enough, yet: %v", err)
	}
	// Everything is older than a day after the clock: all but the latest go.
	if err := e.lists.PruneFeedOlderThan(ctx, time.Now().Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lists.Changes(ctx, 0, 10, ""); !errors.Is(err, blocklist.ErrFeedGone) {
		t.Fatalf("since 0 after pruning: %v, want gone", err)
	}
	if p, err := e.lists.Changes(ctx, v.Version, 10, ""); err != nil || p.To != v.Version {
		t.Fatalf("since the latest version: %+v %v", p, err)
	}
}
