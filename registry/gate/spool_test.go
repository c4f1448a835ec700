package gate_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/gate"
)

// DOMAIN.md §6 ("each read is logged") and API.md "Gate agent": the court
// takes at most 10,000 records a batch (registry.MaxCheckBatch); a spool of
// 25,000 checks reaches it whole, in three parts, each stored once (a
// second upload adds nothing).
func TestGateAgentUploadsALargeSpoolInParts(t *testing.T) {
	now := time.Now()
	c := newCourt(t, "26.0100", now)
	clk := &agentClock{t: now}
	a := newAgent(t, t.TempDir(), clk, nil, gate.CourtConfig{URL: c.http.URL, Token: c.token, Keys: []string{c.pub(t)}})
	if err := a.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	const n = 25_000
	for range n {
		a.Check(cpfOther)
	}
	count := func() (rows, batches int64) {
		c.g.Raw("SELECT count(*) FROM blocklist_checks WHERE device = 'portao-1'").Scan(&rows)
		c.g.Raw("SELECT count(*) FROM blocklist_check_batches WHERE device = 'portao-1'").Scan(&batches)
		return
	}
	for i := range 2 {
		if err := a.Upload(context.Background()); err != nil {
			t.Fatalf("upload %d: %v", i, err)
		}
		if rows, batches := count(); rows != n || batches != 3 {
			t.Fatalf("upload %d: %d records in %d batches at the court, want %d in 3", i, rows, batches, n)
		}
	}
	if got := fmt.Sprint(a.Status().Courts[0].LastError); got != "" {
		t.Errorf("last error: %s", got)
	}
}
