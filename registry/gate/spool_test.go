package gate_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/gate"
)

// DOMAIN.md §6 ("each read is logged") and API.md "Gate agent": the court
// takes at most 10,000 records a batch (blocklist.MaxCheckBatch); a spool of
// 25,000 checks reaches it whole, in three parts, each stored once (a
// second upload adds nothing).
func TestGateAgentUploadsALargeSpoolInParts(t *testing.T) {
	now := time.Now()
	c := newCourt(t, "26.0100", now)
	clk := &agentClock{t: now}
	a := newAgent(t, t.TempDir(), clk, nil, c.config(t))
	mustSync(t, a)
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

// gate_spooled_checks counts every check record no court has taken yet:
// those buffered or in the spool file, and those cut into a batch whose
// upload failed (the court's answer lost: a 503 instead); it falls to 0
// once the court took them, and the retry stored nothing twice.
func TestGateAgentSpooledChecksCountTheOutbox(t *testing.T) {
	now := time.Now()
	c := newCourt(t, "26.0100", now)
	clk := &agentClock{t: now}
	var edit atomic.Pointer[func(*http.Response, []byte) []byte]
	px := mitm(t, c.http.URL, &edit)
	a := newAgent(t, t.TempDir(), clk, nil, gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{c.pub(t)}})
	mustSync(t, a)
	spooled := func() string {
		for _, line := range strings.Split(serve(a, "GET", "/metrics").Body.String(), "\n") {
			if strings.HasPrefix(line, "gate_spooled_checks ") {
				return strings.TrimPrefix(line, "gate_spooled_checks ")
			}
		}
		return "absent"
	}
	for range 7 {
		a.Check(cpfOther)
	}
	if got := spooled(); got != "7" {
		t.Fatalf("after 7 checks: gate_spooled_checks %s, want 7", got)
	}
	refuse := func(resp *http.Response, b []byte) []byte { // the court's answer to the upload lost: a 503 instead
		if resp.Request.URL.Path == "/api/v1/blocklist/checks" {
			resp.StatusCode, resp.Status = http.StatusServiceUnavailable, "503 Service Unavailable"
		}
		return b
	}
	edit.Store(&refuse)
	if err := a.Upload(context.Background()); err == nil {
		t.Fatal("upload with the court down: no error")
	}
	if st := a.Status().Courts[0]; !strings.Contains(st.UploadError, "503") {
		t.Errorf("upload_error %q, want the 503 named", st.UploadError)
	}
	a.Check(cpfOther)
	if got := spooled(); got != "8" {
		t.Errorf("a batch of 7 not taken and 1 check after: gate_spooled_checks %s, want 8", got)
	}
	edit.Store(nil)
	if err := a.Upload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := a.Status().Courts[0]; st.UploadError != "" {
		t.Errorf("upload_error %q after the court took the records, want none", st.UploadError)
	}
	if got := spooled(); got != "0" {
		t.Errorf("after the court took them: gate_spooled_checks %s, want 0", got)
	}
	var rows int64
	c.g.Raw("SELECT count(*) FROM blocklist_checks WHERE device = 'portao-1'").Scan(&rows)
	if rows != 8 {
		t.Errorf("%d records at the court, want 8", rows)
	}
}
