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
	"reflect"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// ErrRefused wraps every reason a body from the court was not applied: bad
// or missing signature, unknown key, a page that does not continue the copy
// (version gap, other cursor). Nothing of a refused body is applied.
var ErrRefused = errors.New("gate: refused")

func refused(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, a...))
}

// publishedKey is one key of GET /api/v1/blocklist/key. NotAfter is null
// for the court's current key; a key the court rotated out is listed with
// the instant after which it no longer signs (blocklist.KeyRing.Rotate: the
// rotation plus blocklist.KeyRetention), until that instant.
type publishedKey struct {
	ID          string     `json:"id"`
	PublicKey   string     `json:"public_key"`
	NotAfter    *time.Time `json:"not_after"`
	EndorsedBy  string     `json:"endorsed_by"`
	Endorsement string     `json:"endorsement"`
}

// retiredFrom adds to known (key id → not_after, the earliest one seen) the
// not_after of every published key that has one; it reports whether known
// changed. A key once listed as retired stays retired: a later list that
// shows it current (a server not restarted since the rotation) or no
// longer lists it does not make it sign again.
func retiredFrom(known map[string]time.Time, published []publishedKey) bool {
	changed := false
	for _, p := range published {
		if p.NotAfter == nil || p.ID == "" {
			continue
		}
		id := p.ID
		if raw, err := base64.StdEncoding.DecodeString(p.PublicKey); err == nil && len(raw) == ed25519.PublicKeySize {
			id = wire.KeyID(raw)
		}
		if retire(known, id, *p.NotAfter) {
			changed = true
		}
	}
	return changed
}

// retire records not_after t of key id in known when it is the earliest
// seen for that key; it reports whether known changed.
func retire(known map[string]time.Time, id string, t time.Time) bool {
	if old, ok := known[id]; ok && !t.Before(old) {
		return false
	}
	known[id] = t.UTC()
	return true
}

// trustFrom returns the keys trusted: the pinned ones, then every published
// key endorsed (wire.RotationPrefix) by a key already trusted, to a fixed point.
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
			id := wire.KeyID(pub)
			if _, ok := t[id]; ok || p.EndorsedBy == "" {
				continue
			}
			by, ok := t[p.EndorsedBy]
			sig, err := base64.StdEncoding.DecodeString(p.Endorsement)
			if !ok || err != nil || !ed25519.Verify(by, []byte(wire.RotationPrefix+p.PublicKey), sig) {
				continue
			}
			t[id] = pub
			added = true
		}
	}
	return t
}

// signed is a body as received with its signature headers; a .sig file
// is its KeyID and Signature (Body is the .json file beside it; .sig files
// written with "Body":null still read).
type signed struct {
	Body      []byte `json:"-"`
	KeyID     string `json:"key_id"`
	Signature string `json:"signature"`
}

// verify checks s against the trusted keys: the key named must be trusted
// and the Ed25519 signature must be over the exact body bytes.
func verify(s signed, trusted map[string]ed25519.PublicKey) error {
	if err := unsigned(s); err != nil {
		return err
	}
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

// errUnsigned is a body with neither signature header.
const errUnsigned = "the response has no signature (X-Juizado-Key-Id/X-Juizado-Signature missing)"

// unsigned refuses s when it has no key id or no signature.
func unsigned(s signed) error {
	if strings.TrimSpace(s.KeyID) == "" || strings.TrimSpace(s.Signature) == "" {
		if s.KeyID == "" && s.Signature == "" {
			return refused("%s", errUnsigned)
		}
		return refused("the response has an incomplete signature (X-Juizado-Key-Id %q, X-Juizado-Signature %q)", s.KeyID, s.Signature)
	}
	return nil
}

// courtState is a court's list as the agent holds it: the entries in force
// at version in a compact index by CPF, and the upcoming ones. A page is
// checked (continues) before anything of it is applied, then applied in
// place under Court.smu; a snapshot makes a new state.
type courtState struct {
	court       string
	snap        int64 // the version of the snapshot read: its pages are stored under it
	version     int64
	cursor      string // within version+1, when the last page had one
	generatedAt time.Time
	entries     *entryIndex     // in force at version
	upcoming    map[int64]Entry // first day within 7 days, by ban id
	upIndex     *entryIndex     // upcoming by CPF
}

// continues checks that page p continues s (same from and cursor, versions
// with no gap); nothing is changed.
func (s *courtState) continues(p *FeedPage) error {
	if p.From != s.version || p.FromCursor != s.cursor {
		return refused("page from %d (cursor %q) does not continue version %d (cursor %q)", p.From, p.FromCursor, s.version, s.cursor)
	}
	if p.To < p.From {
		return refused("page to %d below from %d", p.To, p.From)
	}
	if p.Cursor != "" && p.To != p.From {
		return refused("page with a cursor must have to == from")
	}
	prev := p.From
	for _, c := range p.Changes {
		if c.Version != prev && c.Version != prev+1 || c.Version <= p.From {
			return refused("version gap: change of version %d after %d", c.Version, prev)
		}
		if c.Op != "add" && c.Op != "remove" {
			return refused("change op %q", c.Op)
		}
		prev = c.Version
	}
	if p.Cursor == "" && prev != p.To {
		return refused("version gap: page to %d, changes up to %d", p.To, prev)
	}
	return nil
}

// apply applies page p, which continues s (continues returned nil), in
// place: an entry added replaces one of the same ban id (a correction comes
// as its removal and its addition) and leaves the upcoming ones.
func (s *courtState) apply(p *FeedPage) {
	up := false
	for i := range p.Changes {
		c := &p.Changes[i]
		if c.Op == "add" {
			if old, ok := s.upcoming[c.BanID]; ok {
				delete(s.upcoming, c.BanID)
				s.upIndex.del(old.CPF, c.BanID)
				up = true
			}
			s.entries.del(c.CPF, c.BanID)
			s.entries.put(&c.Entry)
		} else if !s.entries.del(c.CPF, c.BanID) {
			s.entries.delBan(c.BanID) // a removal naming another CPF than the one held
		}
	}
	s.version, s.cursor = p.To, p.Cursor
	if p.Upcoming != nil {
		s.upcoming = make(map[int64]Entry, len(*p.Upcoming))
		for _, e := range *p.Upcoming {
			s.upcoming[e.BanID] = e
		}
		up = true
	}
	if up {
		s.indexUpcoming()
	}
}

func (s *courtState) indexUpcoming() {
	s.upIndex = newEntryIndex(s.court, len(s.upcoming))
	for _, e := range s.upcoming {
		s.upIndex.put(&e)
	}
}

// collect appends to out the bans of CPF k (11 digits as an integer) that
// block on day (YYYY-MM-DD; dayN its day count, checkDay) at a gate guarding
// venues and clubs: entries in force, then upcoming ones (dates are judged
// here, so an upcoming entry blocks from its first day with no contact).
// name answers for an entry that names no court. No closure and no copy
// of a slot escapes: a check allocates only the lines it answers.
func (s *courtState) collect(k uint64, day string, dayN int32, venues, clubs map[string]bool, name string, out []CheckBan) []CheckBan {
	q := banQuery{k: k, day: day, dayN: dayN, venues: venues, clubs: clubs, name: name}
	out = s.entries.collect(&q, out)
	if s.upIndex != nil && s.upIndex.n > 0 {
		q.skip = s.entries // an upcoming entry already in force answers once
		out = s.upIndex.collect(&q, out)
	}
	return out
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

// stateOf reads a snapshot body (already verified) into a new state,
// decoding the items one at a time into the index: neither the body nor
// the entries as Entry values are ever all in memory (at 1,000,000
// entries: 213 MB and about 300 MB).
func stateOf(body io.Reader) (*courtState, error) {
	defer lowGC()()
	dec := json.NewDecoder(body)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("snapshot: not a JSON object")
	}
	s := &courtState{entries: newEntryIndex("", 0), upcoming: map[int64]Entry{}}
	var upcoming []Entry
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t {
		case "version":
			err = dec.Decode(&s.version)
		case "generated_at":
			err = dec.Decode(&s.generatedAt)
		case "court":
			err = dec.Decode(&s.court)
		case "upcoming":
			err = dec.Decode(&upcoming)
		case "items":
			if t, err = dec.Token(); err != nil || t == nil {
				break
			}
			if t != json.Delim('[') {
				return nil, fmt.Errorf("snapshot: items is not an array")
			}
			for err == nil && dec.More() {
				var e Entry
				if err = dec.Decode(&e); err == nil {
					if s.entries.n == 0 {
						s.entries.court = e.Court
					}
					s.entries.del(e.CPF, e.BanID) // a ban id twice: the later one
					s.entries.put(&e)
				}
			}
			if err == nil {
				_, err = dec.Token() // ]
			}
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	for _, e := range upcoming {
		s.upcoming[e.BanID] = e
	}
	s.indexUpcoming()
	s.snap = s.version
	return s, nil
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
	return st
}

// name is the court's code from its snapshot, else its URL. Caller holds smu.
func (c *Court) name() string {
	if c.state != nil && c.state.court != "" {
		return c.state.court
	}
	return c.URL
}

// confirm records that the court confirmed the copy current now, in
// memory and in the file confirmed (restored by Load when the store is
// whole).
func (c *Court) confirm() {
	now := c.Now()
	c.confirmed.Store(now.UnixNano())
	_ = writeAtomic(filepath.Join(c.Dir, "confirmed"), []byte(now.UTC().Format(time.RFC3339Nano)))
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
	retired := make(map[string]time.Time, len(c.retired)+len(ks.Keys))
	for id, t := range c.retired {
		retired[id] = t
	}
	c.mu.Unlock()
	if retiredFrom(retired, ks.Keys) {
		b, _ := json.Marshal(retired)
		if err := writeAtomic(filepath.Join(c.Dir, "retired.json"), b); err != nil {
			return err
		}
		c.mu.Lock()
		c.retired = retired
		c.mu.Unlock()
	}
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
	trusted, err := c.keysFor(ctx, s)
	if err != nil {
		return err
	}
	return verify(s, trusted)
}

// keysFor is what a body fetched from the court (a feed page, a snapshot)
// must pass before its signature is checked, and the keys to check it
// with: it must be signed (unsigned), by a key whose not_after has not
// passed (notRetired); a key the agent does not know yet sends it to the
// key list once (a rotation announced under a trusted key).
func (c *Court) keysFor(ctx context.Context, s signed) (map[string]ed25519.PublicKey, error) {
	if err := unsigned(s); err != nil {
		return nil, err
	}
	c.mu.Lock()
	_, known := c.trusted[s.KeyID]
	c.mu.Unlock()
	if !known {
		if err := c.refreshKeys(ctx); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.notRetired(s.KeyID); err != nil {
		return nil, err
	}
	return c.trusted, nil
}

// notRetired refuses a new body signed by a key whose not_after (as the
// court published it) has passed on the agent's clock: the court no longer
// signs with it, so a body it signs now is not the court's. Bodies stored
// when they were fetched are not judged again (Load). Caller holds mu.
func (c *Court) notRetired(id string) error {
	if t, ok := c.retired[id]; ok && !c.Now().Before(t) {
		return refused("signed by key %s, which the court retired at %s (not_after): not trusted for a new body", id, t.Format(time.RFC3339))
	}
	return nil
}

func signedOf(resp *http.Response, body []byte) signed {
	return signed{Body: body, KeyID: resp.Header.Get(wire.HeaderKeyID), Signature: resp.Header.Get(wire.HeaderSignature)}
}

// Snapshot takes a new snapshot: the body is written to a temporary file
// as it arrives while its signature is checked (verifyStream: the body is
// never all in memory), then decoded from that file into a new state, and
// only then stored under its name and applied.
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
	c.succeeded()
	c.confirm()
	// The garbage of the decoding goes back to the system rather than stay
	// resident.
	debug.FreeOSMemory()
	return nil
}

// Poll asks the feed once (with wait, seconds, when > 0) and applies the
// page (its upcoming set, when it has one, replaces the one held). It
// returns whether the page had changes. 410 (since too old) and 422 (a
// cursor or version the court no longer accepts) take a new snapshot.
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
	c.succeeded()
	if p.Cursor == "" {
		c.confirm()
	}
	return len(p.Changes) > 0 || p.Cursor != "", nil
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

// Store layout under Dir: keys.json (the court's key list, for the keys
// rotated in), retired.json (key id → not_after of the keys the court
// rotated out), snapshots/<version>-<hash>.json + .sig (the body exactly as
// signed and its key id and signature; hash: hex of the first 8 bytes of the
// body's SHA-256), pages/<snapshot version>-<seq>.json
// + .sig, confirmed (when the court last confirmed the copy). Each file is
// written whole to a temporary name, synced, renamed and its directory
// synced, so a kill -9 leaves either the old or the new file; Load removes
// the temporary files left and sets aside (*.refused) what does not verify
// or continue.

// storeSnapshot stores the verified body of version (the synced file tmp,
// SHA-256 sum) with its signature s: the signature file, then the body
// renamed into place, the directory synced; the older snapshots and their
// pages go after.
func (c *Court) storeSnapshot(s signed, version int64, tmp string, sum []byte) error {
	if err := os.MkdirAll(filepath.Join(c.Dir, "pages"), 0o700); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(c.Dir, "snapshots"), 0o700); err != nil {
		return err
	}
	// Named by version and a hash of the body, so that a new snapshot of a
	// version already stored never pairs with the other one's signature
	// when a kill -9 falls between its two files.
	name := fmt.Sprintf("%020d-%x", version, sum[:8])
	base := filepath.Join(c.Dir, "snapshots", name)
	sig, _ := json.Marshal(signed{KeyID: s.KeyID, Signature: s.Signature})
	if err := writeAtomic(base+".sig", sig); err != nil {
		return err
	}
	if err := os.Rename(tmp, base+".json"); err != nil {
		return err
	}
	syncDir(filepath.Dir(base))
	// Only now the older snapshots and their pages go (every stored page:
	// the new snapshot's pages start again at 1, even when it has the
	// version of the one before). What Load set aside (*.refused) stays.
	olds, _ := filepath.Glob(filepath.Join(c.Dir, "snapshots", "*"))
	for _, n := range olds {
		if !strings.HasPrefix(filepath.Base(n), name+".") && !strings.HasSuffix(n, refusedSuffix) {
			_ = os.Remove(n)
		}
	}
	names, _ := filepath.Glob(filepath.Join(c.Dir, "pages", "*"))
	for _, n := range names {
		if !strings.HasSuffix(n, refusedSuffix) {
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

// refusedSuffix ends the name of a stored file Load could not use, set
// aside (never deleted: it is the evidence of what went wrong).
const refusedSuffix = ".refused"

// setAside renames path to path.refused (path.1.refused, ... when taken).
func setAside(path string) {
	if _, err := os.Stat(path); err != nil {
		return
	}
	to := path + refusedSuffix
	for i := 1; ; i++ {
		if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
			break
		}
		to = fmt.Sprintf("%s.%d%s", path, i, refusedSuffix)
	}
	_ = os.Rename(path, to)
}

// Load rebuilds the copy from Dir, re-verifying every stored body with the
// pinned keys and those rotated in under them (keys.json). No network. It
// uses the newest stored snapshot that verifies and its pages up to the
// first one that does not verify or continue. When it cannot use every
// stored file (a snapshot or page that no longer verifies or continues,
// so a copy older than the one the court last confirmed, or none), the
// files not used are set aside as *.refused, the damage is logged and
// reported as StoreError, and the time of the court's last confirmation
// is not restored (nor kept on disk): the copy is stale until the court
// confirms it again.
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
			c.mu.Lock()
			if c.retired == nil {
				c.retired = map[string]time.Time{}
			}
			retiredFrom(c.retired, ks.Keys)
			c.mu.Unlock()
		}
	}
	if b, err := os.ReadFile(filepath.Join(c.Dir, "retired.json")); err == nil {
		var r map[string]time.Time
		if json.Unmarshal(b, &r) == nil {
			c.mu.Lock()
			if c.retired == nil {
				c.retired = map[string]time.Time{}
			}
			for id, t := range r {
				retire(c.retired, id, t)
			}
			c.mu.Unlock()
		}
	}
	c.loadVenues()
	// Temporary files are writes a kill -9 interrupted: never renamed, so
	// never part of the store.
	for _, d := range []string{c.Dir, filepath.Join(c.Dir, "snapshots"), filepath.Join(c.Dir, "pages")} {
		tmps, _ := filepath.Glob(filepath.Join(d, "*.tmp"))
		for _, n := range tmps {
			_ = os.Remove(n)
		}
	}
	// The newest stored snapshot whose body verifies. A snapshot is stored
	// as its .sig, then its body renamed into place, then the older ones
	// removed: a stored body that does not verify is damage, not a write
	// a kill -9 interrupted.
	snaps, _ := filepath.Glob(filepath.Join(c.Dir, "snapshots", "*.json"))
	sort.Sort(sort.Reverse(sort.StringSlice(snaps)))
	var st *courtState
	var damage []string
	for _, n := range snaps {
		sigPath := strings.TrimSuffix(n, ".json") + ".sig"
		s, err := readSig(sigPath)
		if err == nil {
			st, err = loadSnapshot(n, s, c.trusted)
		}
		if err == nil {
			break
		}
		st = nil
		damage = append(damage, fmt.Sprintf("snapshot %s: %v", filepath.Base(n), err))
		setAside(n)
		setAside(sigPath)
	}
	pages := 0
	if st != nil {
		names, _ := filepath.Glob(filepath.Join(c.Dir, "pages", fmt.Sprintf("%020d-*.json", st.snap)))
		sort.Strings(names)
		var why error
		for _, n := range names {
			ps, err := readSig(strings.TrimSuffix(n, ".json") + ".sig")
			if err == nil {
				ps.Body, err = os.ReadFile(n)
			}
			if err == nil {
				err = verify(ps, c.trusted)
			}
			var p FeedPage
			if err == nil {
				if err = json.Unmarshal(ps.Body, &p); err != nil {
					err = refused("feed page: %v", err)
				}
			}
			if err == nil {
				err = st.continues(&p)
			}
			if err != nil {
				why = err
				break
			}
			st.apply(&p)
			pages++
		}
		if pages < len(names) {
			damage = append(damage, fmt.Sprintf("page %s: %v (it and the %d after it not used)", filepath.Base(names[pages]), why, len(names)-pages-1))
		}
		for _, n := range names[pages:] { // what did not verify or continue, and what follows it
			setAside(n)
			setAside(strings.TrimSuffix(n, ".json") + ".sig")
		}
		c.smu.Lock()
		c.state = st
		c.smu.Unlock()
		c.mu.Lock()
		c.pages = pages
		c.mu.Unlock()
	}
	confirmedPath := filepath.Join(c.Dir, "confirmed")
	if len(damage) > 0 {
		// The copy held now is not the one the court confirmed.
		_ = os.Remove(confirmedPath)
		var version int64
		if st != nil {
			version = st.version
		}
		msg := fmt.Sprintf("stored copy damaged: %s; set aside as *%s, copy at version %d not confirmed until the court answers",
			strings.Join(damage, "; "), refusedSuffix, version)
		c.mu.Lock()
		c.storeErr = msg
		c.mu.Unlock()
		c.logger().Error("gate store damaged", "url", c.URL, "court", c.code(), "dir", c.Dir, "version", version, "error", msg)
		debug.FreeOSMemory()
		return nil
	}
	if st == nil {
		return nil
	}
	if b, err := os.ReadFile(confirmedPath); err == nil {
		if t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b))); err == nil {
			c.confirmed.Store(t.UnixNano())
		}
	}
	debug.FreeOSMemory() // the garbage of the decoding
	return nil
}

// loadSnapshot verifies the stored snapshot file n against s (read once,
// streaming) and decodes it (read again, streaming).
func loadSnapshot(n string, s signed, trusted map[string]ed25519.PublicKey) (*courtState, error) {
	f, err := os.Open(n)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := verifySigned(s, trusted, bufio.NewReaderSize(f, 1<<20)); err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return stateOf(bufio.NewReaderSize(f, 1<<20))
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

var (
	gcMu    sync.Mutex
	gcLow   int // decodings under way
	gcSaved int // the GC percent before the first of them
)

// lowGC has the garbage collector run when the heap has grown by a tenth
// (instead of GOGC's doubling) until the returned function is called: while
// a snapshot is decoded the index grows to its full size and each entry
// decoded leaves its garbage, so at the default the heap would reach twice
// the index before a collection (the peak resident memory of a sync at
// 1,000,000 entries). The index holds no pointers, so a collection costs
// little. Nested and concurrent calls share one setting.
func lowGC() (restore func()) {
	gcMu.Lock()
	if gcLow == 0 {
		gcSaved = debug.SetGCPercent(10)
	}
	gcLow++
	gcMu.Unlock()
	return func() {
		gcMu.Lock()
		gcLow--
		if gcLow == 0 {
			debug.SetGCPercent(gcSaved)
		}
		gcMu.Unlock()
	}
}
