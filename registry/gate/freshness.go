package gate

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Freshness and anti-rollback (../shared/API.md "Gate agent", issue 32
// item 1). Every body the court signs carries court_time, its clock when
// the body was made; a feed page also echoes the nonce the agent sent with
// the request. The agent
//   - sends a fresh random nonce with every feed request and refuses a page
//     that does not echo it (a page recorded earlier and replayed, or one
//     not made for this request);
//   - never replaces its copy with an older one: a page must continue the
//     copy (courtState.continues), a snapshot must be of a later version, or
//     of the same version with a later court_time (olderThanCopy); the
//     highest version applied and the latest court_time are kept in
//     freshness.json, so that this holds across restarts, also when the
//     stored copy was damaged and set aside;
//   - counts the copy confirmed (age_seconds 0, not stale) only on a head
//     page that echoes its nonce, whose court_time is after the latest it
//     accepted and that arrived within max_age of the request;
//   - keeps the court's time of that page and the agent's clock reading
//     then (anchor): the skew of its clock (clock_skew_seconds) and the
//     court's "now" for the checks (courtNow: the court's time advanced by
//     the agent's elapsed time since, monotonic while the process runs), so
//     that a clock a day behind or a year ahead neither lets a ban that
//     started today through nor ends a ban early.

// anchor is the court's signed time of the last fresh page and the agent's
// clock reading when it arrived.
type anchor struct {
	court time.Time
	at    time.Time
}

// freshFile is freshness.json: when the court last confirmed the copy
// (null when the stored copy was damaged and not confirmed since), the
// latest court_time applied, the anchor, and the highest version applied.
type freshFile struct {
	Confirmed   *time.Time `json:"confirmed"`
	CourtTime   *time.Time `json:"court_time"`
	AnchorCourt *time.Time `json:"anchor_court_time,omitempty"`
	AnchorAgent *time.Time `json:"anchor_agent_time,omitempty"`
	Version     int64      `json:"version"`
}

// freshness is a court's record of time and versions (Court.fresh).
type freshness struct {
	lastCT time.Time // the latest court_time applied (zero: none)
	high   int64     // the highest version applied
	anchor atomic.Pointer[anchor]
	// rollbacks counts the snapshots refused as older than the copy
	// (Status.RollbackRefused), since the agent started.
	rollbacks atomic.Int64
	day       atomic.Pointer[dayCache] // the court's day of the last check
}

// newNonce is a fresh random nonce for a feed request: 32 hex digits.
func newNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// courtNow is the court's clock as the agent knows it at its own instant
// now: the court_time of the last fresh page advanced by the agent's time
// elapsed since it arrived; now itself while no fresh page was received.
func (c *Court) courtNow(now time.Time) time.Time {
	if a := c.fresh.anchor.Load(); a != nil {
		return a.court.Add(now.Sub(a.at))
	}
	return now
}

// skew is the court's time minus the agent's clock when the last fresh
// page arrived, in seconds (positive: the agent's clock is behind); false
// while no fresh page was received.
func (c *Court) skew() (float64, bool) {
	a := c.fresh.anchor.Load()
	if a == nil {
		return 0, false
	}
	return a.court.Sub(a.at).Seconds(), true
}

// applied records that a body of version with court time ct was applied
// and reports whether ct is after the latest court_time applied before.
func (c *Court) applied(version int64, ct time.Time) (newer bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	newer = ct.After(c.fresh.lastCT)
	if newer {
		c.fresh.lastCT = ct
	}
	c.fresh.high = max(c.fresh.high, version)
	return newer
}

// olderThanCopy refuses a verified snapshot st that is older than the copy
// held: a version below the highest applied (kept across restarts), or the
// copy's own version with a court_time not after the latest applied. A
// snapshot of a lower version is a rollback and is counted. The copy is
// kept either way.
func (c *Court) olderThanCopy(st *courtState) error {
	c.smu.RLock()
	held := int64(-1)
	if c.state != nil {
		held = c.state.version
	}
	c.smu.RUnlock()
	c.mu.Lock()
	high, last := max(c.fresh.high, held), c.fresh.lastCT
	c.mu.Unlock()
	switch {
	case st.version < high:
		c.fresh.rollbacks.Add(1)
		return refused("snapshot of version %d (court_time %s) is older than the copy held (version %d): refused as a rollback, the copy is kept",
			st.version, instant(st.courtTime), high)
	case st.version == held && !st.courtTime.After(last):
		return refused("snapshot of version %d (court_time %s) is not newer than the copy held (the same version, court_time %s): the copy is kept",
			st.version, instant(st.courtTime), instant(last))
	}
	return nil
}

// instant writes t for an error text ("none" for the zero time).
func instant(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// confirmFresh records a fresh page: the copy confirmed now and the anchor
// (the page's court time ct and the agent's clock at its arrival).
func (c *Court) confirmFresh(ct, arrived time.Time) {
	c.fresh.anchor.Store(&anchor{court: ct, at: arrived})
	c.confirmed.Store(arrived.UnixNano())
}

// saveFreshness writes freshness.json (synced, renamed): the confirmation
// when there is one, the latest court_time, the anchor and the highest
// version applied.
func (c *Court) saveFreshness() error {
	var f freshFile
	if t := c.confirmed.Load(); t != 0 {
		ct := time.Unix(0, t).UTC()
		f.Confirmed = &ct
	}
	c.mu.Lock()
	if !c.fresh.lastCT.IsZero() {
		ct := c.fresh.lastCT.UTC()
		f.CourtTime = &ct
	}
	f.Version = c.fresh.high
	c.mu.Unlock()
	if a := c.fresh.anchor.Load(); a != nil {
		ct, at := a.court.UTC(), a.at.Round(0).UTC()
		f.AnchorCourt, f.AnchorAgent = &ct, &at
	}
	b, _ := json.Marshal(f)
	return writeAtomic(filepath.Join(c.Dir, "freshness.json"), b)
}

// loadFreshness reads freshness.json (or, from an agent older than it, the
// file confirmed): the highest version and the latest court_time applied
// and the anchor always; the confirmation only when the store was whole
// (damaged: the copy held is not the one the court confirmed, and the file
// is written again without it). st is the copy rebuilt from the store, whose
// version and court time count too.
func (c *Court) loadFreshness(st *courtState, damaged bool) {
	var f freshFile
	path := filepath.Join(c.Dir, "freshness.json")
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &f)
	} else if b, err := os.ReadFile(filepath.Join(c.Dir, "confirmed")); err == nil {
		if t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b))); err == nil {
			f.Confirmed = &t
		}
	}
	c.mu.Lock()
	c.fresh.high = f.Version
	if f.CourtTime != nil {
		c.fresh.lastCT = *f.CourtTime
	}
	if st != nil {
		c.fresh.high = max(c.fresh.high, st.version)
		if st.courtTime.After(c.fresh.lastCT) {
			c.fresh.lastCT = st.courtTime
		}
	}
	c.mu.Unlock()
	if f.AnchorCourt != nil && f.AnchorAgent != nil {
		c.fresh.anchor.Store(&anchor{court: *f.AnchorCourt, at: *f.AnchorAgent})
	}
	if damaged {
		_ = os.Remove(filepath.Join(c.Dir, "confirmed"))
		_ = c.saveFreshness() // without the confirmation (confirmed is 0)
		return
	}
	if st != nil && f.Confirmed != nil {
		c.confirmed.Store(f.Confirmed.UnixNano())
	}
}
