package gate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// Court follows one court's signed list and keeps it under Dir.
type Court struct {
	URL    string
	Token  string
	Dir    string // data_dir/courts/<hash of URL>
	Pinned map[string]ed25519.PublicKey
	Client *http.Client
	Now    func() time.Time
	// Wait is the long-poll asked of the feed (?wait=, seconds); 0 polls.
	Wait time.Duration
	// MaxAge is the agent's max_age: a page that arrives later than that
	// after its request does not confirm the copy (DefaultMaxAge when 0).
	MaxAge time.Duration
	// Logger receives the court's errors when they change, its recovery
	// and damage found in the store (nil: slog.Default()).
	Logger *slog.Logger

	mu       sync.Mutex
	trusted  map[string]ed25519.PublicKey
	retired  map[string]time.Time // key id → not_after as the court published it (retired.json)
	lastErr  string
	storeErr string // what Load could not use of the store (kept until the agent restarts)
	// uploadErr is the last failure to send check records (cleared when a
	// batch is taken); setAsides counts the batches the court refused for
	// good, by kind ("conflict", "refused"), and lastAside says the last.
	uploadErr string
	setAsides map[string]int
	lastAside string
	pages     int // pages stored after the snapshot
	// venues is the court's last venue list (GET /api/v1/venues; nil: none
	// held), asked again at venuesNext (venuesAsked: when last asked);
	// venuesErr is the last failure to read it; onVenues, set by the
	// agent, is called when the list held changes (venues.go).
	venues                  []CourtVenue
	venuesAsked, venuesNext time.Time
	venuesErr               string
	onVenues                func()

	// smu guards state and what it holds: checks read it (RLock), a page
	// is applied in place and a snapshot swapped in under Lock.
	smu   sync.RWMutex
	state *courtState
	// confirmed is when the court last confirmed the copy current (Unix
	// nanoseconds, 0 never): read by every check without a lock.
	confirmed atomic.Int64
	// fresh is what the agent knows of the court's time and of the
	// versions it applied (freshness.go); its lastCT and high under mu.
	fresh freshness
}

// NewCourt makes the follower of the court at url (no trailing slash
// needed) with the pinned keys (base64 of 32 bytes each).
func NewCourt(url, token, dir string, keys []string, now func() time.Time) (*Court, error) {
	pinned := map[string]ed25519.PublicKey{}
	for i, k := range keys {
		raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(k))
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("gate: court %s: keys[%d] is not the base64 of a 32-byte Ed25519 key", url, i)
		}
		pinned[wire.KeyID(raw)] = ed25519.PublicKey(raw)
	}
	if len(pinned) == 0 {
		return nil, fmt.Errorf("gate: court %s: no pinned key", url)
	}
	if now == nil {
		now = time.Now
	}
	// No overall client timeout: a snapshot of 1,000,000 entries is 213 MB
	// (minutes on a stadium's link) and the court may take over a minute to
	// prepare it (measured: BenchmarkGate on a loaded machine); requests
	// have their own deadlines (get, Snapshot).
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = 5 * time.Minute
	return &Court{URL: strings.TrimRight(url, "/"), Token: token, Dir: dir, Pinned: pinned, Client: &http.Client{Transport: tr},
		Now: now, Wait: 25 * time.Second, trusted: pinned}, nil
}

// Status is one court's line of GET /status. Court is the court's code
// from its signed list, "" while the agent holds no list of it (URL says
// which court it is); Entries are the entries in force held, Upcoming
// those announced ahead (first day within 7 days), counted apart.
type Status struct {
	Court      string  `json:"court"`
	URL        string  `json:"url"`
	Version    int64   `json:"version"`
	AgeSeconds float64 `json:"age_seconds"` // since the court last confirmed the copy current; -1 never
	LastError  string  `json:"last_error"`
	// StoreError, when not empty, says what of the stored copy could not
	// be used at start (a body that no longer verifies, a page that does
	// not continue): those files are set aside as *.refused and the copy
	// is stale until the court confirms it again. Network errors do not
	// replace it (LastError has them); it stays until the agent restarts.
	StoreError string `json:"store_error,omitempty"`
	Entries    int    `json:"entries"`
	Upcoming   int    `json:"upcoming"`
	// UploadError, when not empty, is the last failure to send the check
	// records to this court that is being retried (the court down, a token
	// refused); cleared when a batch is taken.
	UploadError string `json:"upload_error,omitempty"`
	// SetAside counts the batches this court refused for good since the
	// agent started, by kind: "conflict" (409) and "refused" (400, 413,
	// 415, 422); each is kept in outbox/ as *.conflict or *.refused with
	// the court's answer in *.answer. LastSetAside says which and why (it
	// stays until the agent restarts).
	SetAside     map[string]int `json:"set_aside,omitempty"`
	LastSetAside string         `json:"last_set_aside,omitempty"`
	// Venues is the number of venues in the court's venue list the agent
	// holds (GET /api/v1/venues, read when the court answers the feed and
	// hourly; kept on disk), which the configured venues are compared with
	// (StatusReport.UnknownVenues); absent while none is held. VenuesError
	// is the last failure to read it (a 404: a court older than the list),
	// cleared by a list read.
	Venues      *int   `json:"venues,omitempty"`
	VenuesError string `json:"venues_error,omitempty"`
	// ClockSkewSeconds is the court's signed time minus the agent's clock
	// when the last fresh page arrived (positive: the agent's clock is
	// behind), null while none arrived; the agent judges the court's
	// entries by the court's time, not by its own clock (freshness.go).
	ClockSkewSeconds *float64 `json:"clock_skew_seconds"`
	// RollbackRefused counts the snapshots refused since the agent started
	// because they were older than the copy held (a version below the
	// highest applied): the copy was kept.
	RollbackRefused int64 `json:"rollback_refused"`
}

// Status reports the court's copy.
func (c *Court) Status() Status {
	c.mu.Lock()
	st := Status{URL: c.URL, LastError: c.lastErr, StoreError: c.storeErr, UploadError: c.uploadErr, LastSetAside: c.lastAside, AgeSeconds: -1,
		VenuesError: c.venuesErr}
	if c.venues != nil {
		n := len(c.venues)
		st.Venues = &n
	}
	if len(c.setAsides) > 0 {
		st.SetAside = maps.Clone(c.setAsides)
	}
	c.mu.Unlock()
	c.smu.RLock()
	if c.state != nil {
		st.Court = c.state.court
	}
	if c.state != nil {
		st.Version, st.Entries, st.Upcoming = c.state.version, c.state.entries.n, len(c.state.upcoming)
	}
	c.smu.RUnlock()
	if t := c.confirmed.Load(); t != 0 {
		st.AgeSeconds = c.Now().Sub(time.Unix(0, t)).Seconds()
	}
	if sk, ok := c.skew(); ok {
		st.ClockSkewSeconds = &sk
	}
	st.RollbackRefused = c.fresh.rollbacks.Load()
	return st
}

// name is the court's code from its snapshot, else its URL. Caller holds smu.
func (c *Court) name() string {
	if c.state != nil && c.state.court != "" {
		return c.state.court
	}
	return c.URL
}

func (c *Court) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}

// uploadFailed records err as the court's upload error (kept, retried);
// a change of error is logged.
func (c *Court) uploadFailed(err error) {
	if !errors.Is(err, context.Canceled) { // else the agent stopping
		c.note(&c.uploadErr, err.Error(), "gate check upload error; the records are kept and sent again")
	}
}

// uploaded clears the upload error: the court took a batch.
func (c *Court) uploaded() { c.note(&c.uploadErr, "", "gate check upload recovered") }

// note sets *slot (c.lastErr or c.uploadErr) to msg under c.mu and logs
// what (a warning with the error when msg is a new error, information
// with the previous error when msg clears one); the same error again is
// not logged.
func (c *Court) note(slot *string, msg, what string, attrs ...any) {
	c.mu.Lock()
	was := *slot
	*slot = msg
	c.mu.Unlock()
	switch {
	case msg != "" && failureKey(msg) != failureKey(was):
		c.logger().Warn(what, append([]any{"url", c.URL, "court", c.code()}, append(attrs, "error", msg)...)...)
	case msg == "" && was != "":
		c.logger().Info(what, "url", c.URL, "court", c.code(), "previous_error", was)
	}
}

// quotedURL is the request URL net/http's *url.Error quotes in its text
// (Op "URL": Err).
var quotedURL = regexp.MustCompile(`"https?://[^"]*"`)

// failureKey is an error text without the URLs quoted in it: the same
// failure of two requests (the feed's long-poll and the snapshot, another
// since=V) is one failure, logged once; the text kept for /status is the
// last one, URL included.
func failureKey(msg string) string { return quotedURL.ReplaceAllString(msg, `"URL"`) }

// setAside records a batch the court refused for good (kept at path),
// logged with the court's reason, counted in Status.SetAside and said in
// Status.LastSetAside.
func (c *Court) setAside(r *batchRefusal, batchID string, records int, path string) {
	c.mu.Lock()
	if c.setAsides == nil {
		c.setAsides = map[string]int{}
	}
	c.setAsides[r.kind]++
	c.lastAside = fmt.Sprintf("batch %s of %d records set aside as %s: %s", batchID, records, path, r.Error())
	c.mu.Unlock()
	c.logger().Warn("gate check batch refused by the court for good; kept aside, not sent again",
		"url", c.URL, "court", c.code(), "batch_id", batchID, "records", records, "kind", r.kind, "status", r.status, "detail", r.detail(), "kept", path)
}

// fail records err as the court's last error; a change of error is logged
// (a retry failing the same way is not). An error of the agent stopping
// (context canceled) is neither recorded nor logged.
func (c *Court) fail(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	c.note(&c.lastErr, err.Error(), "gate court error", "refused", errors.Is(err, ErrRefused))
	return err
}

// succeeded clears the last error; the recovery is logged.
func (c *Court) succeeded() { c.note(&c.lastErr, "", "gate court recovered") }

// code is the court's code from its list, "" when none is held.
func (c *Court) code() string {
	c.smu.RLock()
	defer c.smu.RUnlock()
	if c.state != nil {
		return c.state.court
	}
	return ""
}

func (c *Court) get(ctx context.Context, path string) (*http.Response, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a feed page, long-poll included, or the key list
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+path, nil)
	if err != nil {
		return nil, nil, err
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 && n < 2<<30 {
		buf.Grow(int(n) + bytes.MinRead) // read once into its size, not doubling up to twice the body
	}
	_, err = buf.ReadFrom(io.LimitReader(resp.Body, 2<<30))
	return resp, buf.Bytes(), err
}

// Snapshot takes a new snapshot: the body is written to a temporary file
// as it arrives while its signature is checked (verifyStream: the body is
// never all in memory), then decoded from that file into a new state, and
// only then, when it is not older than the copy held (olderThanCopy: a
// lower version is refused as a rollback and counted), stored under its
// name and applied. Until then the copy held stays.
func (c *Court) Snapshot(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+"/api/v1/blocklist?format=json", nil)
	if err != nil {
		return c.fail(err)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return c.fail(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return c.fail(fmt.Errorf("gate: GET /api/v1/blocklist: %s", resp.Status))
	}
	s := signedOf(resp, nil)
	trusted, err := c.keysFor(ctx, s)
	if err != nil {
		return c.fail(err)
	}
	dir := filepath.Join(c.Dir, "snapshots")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return c.fail(err)
	}
	tmp := filepath.Join(dir, "download.tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return c.fail(err)
	}
	defer os.Remove(tmp) // gone once renamed; else what was refused
	defer f.Close()
	h := sha256.New()
	if err := verifySigned(s, trusted, io.TeeReader(io.LimitReader(resp.Body, 2<<30), io.MultiWriter(f, h))); err != nil {
		return c.fail(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return c.fail(err)
	}
	st, err := stateOf(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return c.fail(refused("%v", err))
	}
	if err := c.olderThanCopy(st); err != nil {
		return c.fail(err)
	}
	if err := f.Sync(); err != nil {
		return c.fail(err)
	}
	if err := c.storeSnapshot(s, st.version, tmp, h.Sum(nil)); err != nil {
		return c.fail(err)
	}
	c.smu.Lock()
	c.state = st
	c.smu.Unlock()
	c.mu.Lock()
	c.pages = 0
	c.mu.Unlock()
	c.applied(st.version, st.courtTime)
	_ = c.saveFreshness()
	// Not a confirmation: the court prepares a snapshot's body once per
	// version and day, so it may be hours old; the feed page asked next
	// (with its nonce) confirms the copy.
	c.succeeded()
	// The garbage of the decoding goes back to the system rather than stay
	// resident.
	debug.FreeOSMemory()
	return nil
}

// Poll asks the feed once (with wait, seconds, when > 0, and a fresh
// nonce) and applies the page (its upcoming set, when it has one, replaces
// the one held) when it verifies, echoes the nonce and continues the copy;
// a head page whose court time is newer than the latest applied confirms
// the copy (freshness.go). It returns whether the page had changes, or a
// snapshot was applied. 410 (since too old) and 422 (a cursor or version
// the court no longer accepts) take a new snapshot, applied only when
// newer than the copy.
func (c *Court) Poll(ctx context.Context, wait time.Duration) (bool, error) {
	c.smu.RLock()
	st := c.state
	var from int64
	var cursor string
	if st != nil {
		from, cursor = st.version, st.cursor
	}
	c.smu.RUnlock()
	if st == nil {
		return true, c.Snapshot(ctx)
	}
	q := "/api/v1/blocklist/changes?since=" + strconv.FormatInt(from, 10)
	if cursor != "" {
		q += "&cursor=" + cursor
	}
	if wait > 0 {
		q += "&wait=" + strconv.Itoa(int(wait/time.Second))
	}
	if st.placesDigest != "" { // the places held: the court leaves them out when unchanged
		q += "&places=" + st.placesDigest
	}
	nonce := newNonce()
	q += "&nonce=" + nonce
	sent := c.Now()
	resp, body, err := c.get(ctx, q)
	if err != nil {
		return false, c.fail(err)
	}
	if resp.StatusCode == http.StatusGone || (resp.StatusCode == http.StatusUnprocessableEntity && cannotContinue(body)) {
		// 410: since is older than what the feed keeps. 422 on cursor or
		// since: the court cannot continue from here (a cursor it no
		// longer accepts, a version above its own after a restore).
		// Either way the copy starts over from a new snapshot, verified
		// like any other; the status is only a hint (it is not signed):
		// the copy held stays until a newer snapshot verifies
		// (olderThanCopy).
		if err := c.Snapshot(ctx); err != nil {
			return false, err
		}
		return true, nil
	}
	if resp.StatusCode != http.StatusOK {
		// Named without the nonce: the same failure of two polls is one
		// error (logged once, failureKey).
		return false, c.fail(fmt.Errorf("gate: GET %s: %s", strings.TrimSuffix(q, "&nonce="+nonce), resp.Status))
	}
	s := signedOf(resp, body)
	if err := c.verifyFetched(ctx, s); err != nil {
		return false, c.fail(err)
	}
	var p FeedPage
	if err := json.Unmarshal(body, &p); err != nil {
		return false, c.fail(refused("feed page: %v", err))
	}
	if p.Nonce != nonce {
		return false, c.fail(refused("feed page with nonce %q, not the one this request sent (%q): a page recorded earlier and replayed, or not made for this request; not applied", p.Nonce, nonce))
	}
	head := courtState{version: from, cursor: cursor}
	if err := head.continues(&p); err != nil {
		return false, c.fail(err)
	}
	// A page is kept when it changes the copy: changes, a cursor, or an
	// upcoming set other than the one held (the head page repeats the set
	// at every poll; storing each repetition would grow the store by a
	// page per poll). Such a repetition is not applied either (the
	// upcoming index is not rebuilt for nothing).
	keep := len(p.Changes) > 0 || p.Cursor != ""
	if p.Upcoming != nil && !keep {
		c.smu.RLock()
		same := sameEntries(st.upcoming, *p.Upcoming)
		c.smu.RUnlock()
		if same {
			p.Upcoming = nil
		}
		keep = !same
	}
	if p.Places != nil && p.Places.Digest() == st.placesDigest {
		p.Places = nil // the places held, sent again (a court that ignored places=)
	}
	keep = keep || p.Places != nil
	c.mu.Lock()
	seq := c.pages + 1
	c.mu.Unlock()
	if keep {
		// Under the snapshot's version (st.snap), not the copy's: Load
		// reads the pages of the snapshot it starts from.
		if err := c.storePage(s, st.snap, seq); err != nil {
			return false, c.fail(err)
		}
	}
	c.smu.Lock()
	applied := c.state == st && st.version == from && st.cursor == cursor
	if applied {
		st.apply(&p)
	}
	c.smu.Unlock()
	c.mu.Lock()
	if applied && keep {
		c.pages++
	}
	c.mu.Unlock()
	arrived := c.Now()
	newer := c.applied(p.To, p.CourtTime)
	c.succeeded()
	// Fresh: the page echoes this request's nonce (checked above), its
	// court time is after the latest applied, and it came within max_age
	// of the request.
	if p.Cursor == "" && newer && arrived.Sub(sent) <= c.maxAge() {
		c.confirmFresh(p.CourtTime, arrived)
	}
	if err := c.saveFreshness(); err != nil {
		return false, c.fail(err)
	}
	return len(p.Changes) > 0 || p.Cursor != "", nil
}

// maxAge is MaxAge, DefaultMaxAge when unset.
func (c *Court) maxAge() time.Duration {
	if c.MaxAge > 0 {
		return c.MaxAge
	}
	return DefaultMaxAge
}

// Sync brings the copy up to date: a snapshot when there is none, then the
// feed's pages until one has no change; then, when due, the court's venue
// list (syncVenues: never an error of the sync).
func (c *Court) Sync(ctx context.Context) error {
	for {
		more, err := c.Poll(ctx, 0)
		if err != nil {
			return err
		}
		if !more {
			c.syncVenues(ctx)
			return nil
		}
	}
}

// Run follows the court until ctx ends: the first contact (and the first
// after an error) is an immediate poll (wait 0), so that the copy is
// confirmed at once, not at the end of a long-poll; then long-polls
// (Wait). On an error it retries after a pause that grows to a minute.
// After an answer, the court's venue list when due (syncVenues).
func (c *Court) Run(ctx context.Context) {
	pause := time.Second
	wait := time.Duration(0)
	for ctx.Err() == nil {
		start := time.Now()
		more, err := c.Poll(ctx, wait)
		if err == nil {
			pause = time.Second
			quick := !more && wait > 0 && time.Since(start) < time.Second
			c.syncVenues(ctx) // when due: hourly, or a minute after a failure
			if quick {
				// The court answered at once (no long-poll there): poll.
				sleep(ctx, 5*time.Second)
			}
			wait = c.Wait
			if more {
				// More to read, or a snapshot just taken: the page that
				// follows (and confirms the copy) is asked at once.
				wait = 0
			}
			continue
		}
		wait = 0
		sleep(ctx, pause)
		pause = min(2*pause, time.Minute)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Store layout under Dir: keylists/<hash>.json + .sig (the court's signed
// key lists that trusted a rotated-in key or retired one: verified again at
// each start, the only source of not_after), keys.json (an unsigned list
// earlier agents kept: its endorsements only), snapshots/<version>-<hash>.json
// + .sig (the body exactly as signed and its key id and signature; hash: hex
// of the first 8 bytes of the body's SHA-256), pages/<snapshot
// version>-<seq>.json + .sig, freshness.json (when the court last confirmed
// the copy, the latest court_time and the highest version applied, the
// court's time of the last fresh page and the agent's clock then:
// freshness.go; confirmed, from earlier agents, read when it is absent). Each file is
// written whole to a temporary name, synced, renamed and its directory
// synced, so a kill -9 leaves either the old or the new file; Load removes
// the temporary files left and sets aside (*.refused) what does not verify
// or continue.
