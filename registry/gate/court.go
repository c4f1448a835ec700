package gate

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RotationPrefix starts the message an outgoing court key signs to endorse
// its successor: RotationPrefix + base64 of the new key's 32 bytes (the
// court's registry.RotationMessage).
const RotationPrefix = "juizado-blocklist-key-rotation-v1\n"

// ErrRefused wraps every reason a body from the court was not applied: bad
// or missing signature, unknown key, a page that does not continue the copy
// (version gap, other cursor). Nothing of a refused body is applied.
var ErrRefused = errors.New("gate: refused")

func refused(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, a...))
}

// KeyID is the court's key id: hex of the first 8 bytes of SHA-256 of the key.
func KeyID(pub ed25519.PublicKey) string {
	h := sha256.Sum256(pub)
	return hex.EncodeToString(h[:8])
}

// publishedKey is one key of GET /api/v1/blocklist/key.
type publishedKey struct {
	ID          string `json:"id"`
	PublicKey   string `json:"public_key"`
	EndorsedBy  string `json:"endorsed_by"`
	Endorsement string `json:"endorsement"`
}

// trustFrom returns the keys trusted: the pinned ones, then every published
// key endorsed (RotationPrefix) by a key already trusted, to a fixed point.
func trustFrom(pinned map[string]ed25519.PublicKey, published []publishedKey) map[string]ed25519.PublicKey {
	t := make(map[string]ed25519.PublicKey, len(pinned)+len(published))
	for id, k := range pinned {
		t[id] = k
	}
	for added := true; added; {
		added = false
		for _, p := range published {
			raw, err := base64.StdEncoding.DecodeString(p.PublicKey)
			if err != nil || len(raw) != ed25519.PublicKeySize {
				continue
			}
			pub := ed25519.PublicKey(raw)
			id := KeyID(pub)
			if _, ok := t[id]; ok || p.EndorsedBy == "" {
				continue
			}
			by, ok := t[p.EndorsedBy]
			sig, err := base64.StdEncoding.DecodeString(p.Endorsement)
			if !ok || err != nil || !ed25519.Verify(by, []byte(RotationPrefix+p.PublicKey), sig) {
				continue
			}
			t[id] = pub
			added = true
		}
	}
	return t
}

// signed is a body as received with its signature headers.
type signed struct {
	Body      []byte
	KeyID     string `json:"key_id"`
	Signature string `json:"signature"`
}

// verify checks s against the trusted keys: the key named must be trusted
// and the Ed25519 signature must be over the exact body bytes.
func verify(s signed, trusted map[string]ed25519.PublicKey) error {
	k, ok := trusted[s.KeyID]
	if !ok {
		return refused("signed by unknown key %q", s.KeyID)
	}
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s.Signature))
	if err != nil || len(sig) != ed25519.SignatureSize || !ed25519.Verify(k, s.Body, sig) {
		return refused("signature does not verify with key %s", s.KeyID)
	}
	return nil
}

// courtState is a court's list as the agent holds it (copy-on-write).
type courtState struct {
	court       string
	version     int64
	cursor      string // within version+1, when the last page had one
	generatedAt time.Time
	entries     map[int64]Entry // in force at version, by ban id
	upcoming    map[int64]Entry // first day within 7 days, by ban id
}

func (s *courtState) clone() *courtState {
	n := *s
	n.entries = make(map[int64]Entry, len(s.entries))
	for k, v := range s.entries {
		n.entries[k] = v
	}
	n.upcoming = make(map[int64]Entry, len(s.upcoming))
	for k, v := range s.upcoming {
		n.upcoming[k] = v
	}
	return &n
}

// apply checks that page continues s (same from and cursor, versions with no
// gap) and returns the state after it; s is left alone.
func (s *courtState) apply(p *FeedPage) (*courtState, error) {
	if p.From != s.version || p.FromCursor != s.cursor {
		return nil, refused("page from %d (cursor %q) does not continue version %d (cursor %q)", p.From, p.FromCursor, s.version, s.cursor)
	}
	if p.To < p.From {
		return nil, refused("page to %d below from %d", p.To, p.From)
	}
	if p.Cursor != "" && p.To != p.From {
		return nil, refused("page with a cursor must have to == from")
	}
	prev := p.From
	for _, c := range p.Changes {
		if c.Version != prev && c.Version != prev+1 || c.Version <= p.From {
			return nil, refused("version gap: change of version %d after %d", c.Version, prev)
		}
		if c.Op != "add" && c.Op != "remove" {
			return nil, refused("change op %q", c.Op)
		}
		prev = c.Version
	}
	if p.Cursor == "" && prev != p.To {
		return nil, refused("version gap: page to %d, changes up to %d", p.To, prev)
	}
	n := s.clone()
	for _, c := range p.Changes {
		if c.Op == "add" {
			n.entries[c.BanID] = c.Entry
			delete(n.upcoming, c.BanID)
		} else {
			delete(n.entries, c.BanID)
		}
	}
	n.version, n.cursor = p.To, p.Cursor
	if p.Upcoming != nil {
		n.upcoming = make(map[int64]Entry, len(*p.Upcoming))
		for _, e := range *p.Upcoming {
			n.upcoming[e.BanID] = e
		}
	}
	return n, nil
}

// cannotContinue reports whether a 422 problem body of the feed names the
// cursor or since (the position the copy continues from); any other 422 is
// reported as an error and the poll retried later.
func cannotContinue(body []byte) bool {
	var p struct {
		Errors []struct {
			Field string `json:"field"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &p) != nil {
		return false
	}
	for _, e := range p.Errors {
		if e.Field == "cursor" || e.Field == "since" {
			return true
		}
	}
	return false
}

// sameEntries reports whether list holds exactly the entries of held.
func sameEntries(held map[int64]Entry, list []Entry) bool {
	if len(held) != len(list) {
		return false
	}
	for _, e := range list {
		h, ok := held[e.BanID]
		if !ok || !reflect.DeepEqual(h, e) {
			return false
		}
	}
	return true
}

func stateOf(snap *Snapshot) *courtState {
	s := &courtState{court: snap.Court, version: snap.Version, generatedAt: snap.GeneratedAt,
		entries: make(map[int64]Entry, len(snap.Items)), upcoming: make(map[int64]Entry, len(snap.Upcoming))}
	for _, e := range snap.Items {
		s.entries[e.BanID] = e
	}
	for _, e := range snap.Upcoming {
		s.upcoming[e.BanID] = e
	}
	return s
}

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

	mu        sync.Mutex
	state     *courtState
	trusted   map[string]ed25519.PublicKey
	confirmed time.Time // last time the court confirmed the copy current
	lastErr   string
	pages     int // pages stored after the snapshot
	onChange  func()
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
		pinned[KeyID(raw)] = ed25519.PublicKey(raw)
	}
	if len(pinned) == 0 {
		return nil, fmt.Errorf("gate: court %s: no pinned key", url)
	}
	if now == nil {
		now = time.Now
	}
	return &Court{URL: strings.TrimRight(url, "/"), Token: token, Dir: dir, Pinned: pinned, Client: &http.Client{Timeout: 60 * time.Second},
		Now: now, Wait: 25 * time.Second, trusted: pinned}, nil
}

// Status is one court's line of GET /status.
type Status struct {
	Court      string  `json:"court"`
	URL        string  `json:"url"`
	Version    int64   `json:"version"`
	AgeSeconds float64 `json:"age_seconds"` // since the court last confirmed the copy current; -1 never
	LastError  string  `json:"last_error"`
	Entries    int     `json:"entries"`
	Upcoming   int     `json:"upcoming"`
}

// Status reports the court's copy.
func (c *Court) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := Status{URL: c.URL, LastError: c.lastErr, AgeSeconds: -1}
	if c.state != nil {
		st.Court, st.Version, st.Entries, st.Upcoming = c.name(), c.state.version, len(c.state.entries), len(c.state.upcoming)
	} else {
		st.Court = c.URL
	}
	if !c.confirmed.IsZero() {
		st.AgeSeconds = c.Now().Sub(c.confirmed).Seconds()
	}
	return st
}

// name is the court's code from its snapshot, else its URL. Caller holds mu.
func (c *Court) name() string {
	if c.state != nil && c.state.court != "" {
		return c.state.court
	}
	return c.URL
}

func (c *Court) fail(err error) error {
	c.mu.Lock()
	c.lastErr = err.Error()
	c.mu.Unlock()
	return err
}

func (c *Court) get(ctx context.Context, path string) (*http.Response, []byte, error) {
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
	body, err := io.ReadAll(io.LimitReader(resp.Body, 2<<30))
	return resp, body, err
}

// refreshKeys reads GET /api/v1/blocklist/key and trusts the keys endorsed
// by trusted ones; the answer is stored for the next start.
func (c *Court) refreshKeys(ctx context.Context) error {
	resp, body, err := c.get(ctx, "/api/v1/blocklist/key")
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("gate: GET /api/v1/blocklist/key: %s", resp.Status)
	}
	var ks struct {
		Keys []publishedKey `json:"keys"`
	}
	if err := json.Unmarshal(body, &ks); err != nil {
		return fmt.Errorf("gate: keys: %w", err)
	}
	c.mu.Lock()
	old := c.trusted
	c.mu.Unlock()
	t := trustFrom(old, ks.Keys)
	if len(t) > len(old) {
		if err := writeAtomic(filepath.Join(c.Dir, "keys.json"), body); err != nil {
			return err
		}
		c.mu.Lock()
		c.trusted = t
		c.mu.Unlock()
	}
	return nil
}

// verifyFetched verifies a body from the court; a key it does not know yet
// sends it to the key list once (a rotation announced under a trusted key).
func (c *Court) verifyFetched(ctx context.Context, s signed) error {
	c.mu.Lock()
	_, known := c.trusted[s.KeyID]
	c.mu.Unlock()
	if !known {
		if err := c.refreshKeys(ctx); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return verify(s, c.trusted)
}

func signedOf(resp *http.Response, body []byte) signed {
	return signed{Body: body, KeyID: resp.Header.Get("X-Juizado-Key-Id"), Signature: resp.Header.Get("X-Juizado-Signature")}
}

// Snapshot takes a new snapshot: verified, stored, then applied.
func (c *Court) Snapshot(ctx context.Context) error {
	resp, body, err := c.get(ctx, "/api/v1/blocklist?format=json")
	if err != nil {
		return c.fail(err)
	}
	if resp.StatusCode != http.StatusOK {
		return c.fail(fmt.Errorf("gate: GET /api/v1/blocklist: %s", resp.Status))
	}
	s := signedOf(resp, body)
	if err := c.verifyFetched(ctx, s); err != nil {
		return c.fail(err)
	}
	var snap Snapshot
	if err := json.Unmarshal(body, &snap); err != nil {
		return c.fail(refused("snapshot: %v", err))
	}
	if err := c.storeSnapshot(s, snap.Version); err != nil {
		return c.fail(err)
	}
	c.mu.Lock()
	c.state, c.pages, c.lastErr = stateOf(&snap), 0, ""
	c.confirmed = c.Now()
	c.mu.Unlock()
	c.changed()
	return nil
}

func (c *Court) changed() {
	if c.onChange != nil {
		c.onChange()
	}
}

// Poll asks the feed once (with wait, seconds, when > 0) and applies the
// page (its upcoming set, when it has one, replaces the one held). It
// returns whether the page had changes. 410 (since too old) and 422 (a
// cursor or version the court no longer accepts) take a new snapshot.
func (c *Court) Poll(ctx context.Context, wait time.Duration) (bool, error) {
	c.mu.Lock()
	st := c.state
	c.mu.Unlock()
	if st == nil {
		return true, c.Snapshot(ctx)
	}
	q := "/api/v1/blocklist/changes?since=" + strconv.FormatInt(st.version, 10)
	if st.cursor != "" {
		q += "&cursor=" + st.cursor
	}
	if wait > 0 {
		q += "&wait=" + strconv.Itoa(int(wait/time.Second))
	}
	resp, body, err := c.get(ctx, q)
	if err != nil {
		return false, c.fail(err)
	}
	if resp.StatusCode == http.StatusGone || (resp.StatusCode == http.StatusUnprocessableEntity && cannotContinue(body)) {
		// 410: since is older than what the feed keeps. 422 on cursor or
		// since: the court cannot continue from here (a cursor it no
		// longer accepts, a version above its own after a restore).
		// Either way the copy starts over from a new snapshot, verified
		// like any other.
		return true, c.Snapshot(ctx)
	}
	if resp.StatusCode != http.StatusOK {
		return false, c.fail(fmt.Errorf("gate: GET %s: %s", q, resp.Status))
	}
	s := signedOf(resp, body)
	if err := c.verifyFetched(ctx, s); err != nil {
		return false, c.fail(err)
	}
	var p FeedPage
	if err := json.Unmarshal(body, &p); err != nil {
		return false, c.fail(refused("feed page: %v", err))
	}
	n, err := st.apply(&p)
	if err != nil {
		return false, c.fail(err)
	}
	// A page is kept when it changes the copy: changes, a cursor, or an
	// upcoming set other than the one held (the head page repeats the set
	// at every poll; storing each repetition would grow the store by a
	// page per poll).
	keep := len(p.Changes) > 0 || p.Cursor != "" || (p.Upcoming != nil && !sameEntries(st.upcoming, *p.Upcoming))
	if keep {
		if err := c.storePage(s, st.version, c.pages+1); err != nil {
			return false, c.fail(err)
		}
	}
	c.mu.Lock()
	if c.state == st {
		c.state = n
		if keep {
			c.pages++
		}
	}
	c.lastErr = ""
	if p.Cursor == "" {
		c.confirmed = c.Now()
	}
	c.mu.Unlock()
	_ = writeAtomic(filepath.Join(c.Dir, "confirmed"), []byte(c.Now().UTC().Format(time.RFC3339Nano)))
	c.changed()
	return len(p.Changes) > 0 || p.Cursor != "", nil
}

// Sync brings the copy up to date: a snapshot when there is none, then the
// feed's pages until one has no change.
func (c *Court) Sync(ctx context.Context) error {
	for {
		more, err := c.Poll(ctx, 0)
		if err != nil || !more {
			return err
		}
	}
}

// Run follows the court until ctx ends: Sync, then long-polls (Wait); on an
// error it retries after a pause that grows to a minute.
func (c *Court) Run(ctx context.Context) {
	pause := time.Second
	for ctx.Err() == nil {
		start := time.Now()
		more, err := c.Poll(ctx, c.Wait)
		if err == nil {
			pause = time.Second
			if !more && time.Since(start) < time.Second {
				// The court answered at once (no long-poll there): poll.
				sleep(ctx, 5*time.Second)
			}
			continue
		}
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

// Store layout under Dir: keys.json (the court's key list, for the keys
// rotated in), snapshots/<version>.json + .sig (the body exactly as signed
// and its key id and signature), pages/<snapshot version>-<seq>.json
// + .sig, confirmed (when the court last confirmed the copy). Each file is
// written whole to a temporary name, synced and renamed, so a kill -9 leaves
// either the old or the new file; Load ignores what does not verify.

func (c *Court) storeSnapshot(s signed, version int64) error {
	if err := os.MkdirAll(filepath.Join(c.Dir, "pages"), 0o700); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(c.Dir, "snapshots"), 0o700); err != nil {
		return err
	}
	base := filepath.Join(c.Dir, "snapshots", fmt.Sprintf("%020d", version))
	sig, _ := json.Marshal(signed{KeyID: s.KeyID, Signature: s.Signature})
	if err := writeAtomic(base+".sig", sig); err != nil {
		return err
	}
	if err := writeAtomic(base+".json", s.Body); err != nil {
		return err
	}
	// Only now the older snapshots and their pages go.
	keep := filepath.Base(base)
	olds, _ := filepath.Glob(filepath.Join(c.Dir, "snapshots", "*"))
	for _, n := range olds {
		if !strings.HasPrefix(filepath.Base(n), keep+".") {
			_ = os.Remove(n)
		}
	}
	names, _ := filepath.Glob(filepath.Join(c.Dir, "pages", "*"))
	for _, n := range names {
		if !strings.HasPrefix(filepath.Base(n), keep+"-") {
			_ = os.Remove(n)
		}
	}
	return nil
}

func (c *Court) storePage(s signed, snapVersion int64, seq int) error {
	base := filepath.Join(c.Dir, "pages", fmt.Sprintf("%020d-%09d", snapVersion, seq))
	sig, _ := json.Marshal(signed{KeyID: s.KeyID, Signature: s.Signature})
	if err := writeAtomic(base+".sig", sig); err != nil {
		return err
	}
	return writeAtomic(base+".json", s.Body)
}

// Load rebuilds the copy from Dir, re-verifying every stored body with the
// pinned keys and those rotated in under them (keys.json); it stops at the
// first stored page that does not verify or continue. No network.
func (c *Court) Load() error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	if b, err := os.ReadFile(filepath.Join(c.Dir, "keys.json")); err == nil {
		var ks struct {
			Keys []publishedKey `json:"keys"`
		}
		if json.Unmarshal(b, &ks) == nil {
			c.trusted = trustFrom(c.Pinned, ks.Keys)
		}
	}
	// The newest stored snapshot whose body verifies (a kill -9 while one
	// was written leaves it incomplete: the previous one is used).
	snaps, _ := filepath.Glob(filepath.Join(c.Dir, "snapshots", "*.json"))
	sort.Sort(sort.Reverse(sort.StringSlice(snaps)))
	var snap Snapshot
	found := false
	var lastErr error
	for _, n := range snaps {
		s, err := readSig(strings.TrimSuffix(n, ".json") + ".sig")
		if err == nil {
			s.Body, err = os.ReadFile(n)
		}
		if err == nil {
			err = verify(s, c.trusted)
		}
		if err == nil {
			err = json.Unmarshal(s.Body, &snap)
		}
		if err == nil {
			found = true
			break
		}
		lastErr = err
	}
	if !found {
		if lastErr != nil {
			return c.fail(fmt.Errorf("gate: stored snapshot: %w", lastErr))
		}
		return nil
	}
	st := stateOf(&snap)
	names, _ := filepath.Glob(filepath.Join(c.Dir, "pages", fmt.Sprintf("%020d-*.json", snap.Version)))
	sort.Strings(names)
	pages := 0
	for _, n := range names {
		ps, err := readSig(strings.TrimSuffix(n, ".json") + ".sig")
		if err != nil {
			break
		}
		if ps.Body, err = os.ReadFile(n); err != nil || verify(ps, c.trusted) != nil {
			break
		}
		var p FeedPage
		if json.Unmarshal(ps.Body, &p) != nil {
			break
		}
		next, err := st.apply(&p)
		if err != nil {
			break
		}
		st = next
		pages++
	}
	for _, n := range names[pages:] { // what did not verify or continue
		_ = os.Remove(n)
		_ = os.Remove(strings.TrimSuffix(n, ".json") + ".sig")
	}
	c.mu.Lock()
	c.state, c.pages = st, pages
	if b, err := os.ReadFile(filepath.Join(c.Dir, "confirmed")); err == nil {
		if t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b))); err == nil {
			c.confirmed = t
		}
	}
	c.mu.Unlock()
	return nil
}

func readSig(path string) (signed, error) {
	var s signed
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(b, &s)
	return s, err
}

// writeAtomic writes b to path through a synced temporary file and a rename.
func writeAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
