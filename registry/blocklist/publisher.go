package blocklist

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/registry/blocklist/wire"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"
)

// Publisher serves the court's blocklist to the gates: the snapshot
// prepared and signed once per version (Prepared), the signed pages of the
// change feed and their long-poll (SignedChanges, AwaitVersion), the
// refresh ticker (Run), the log of the gates' CPF checks (LogCheck) and
// the metrics of what this process serves (Metrics). ../shared/API.md
// "Public list and blocklist"; DOMAIN.md §6.
//
// Make it with NewPublisher; it is safe for concurrent use.
type Publisher struct {
	// Lists reads the bans in force and makes the versions.
	Lists *Lists
	// Keys signs the bodies (JUIZADO_KEY_DIR, or EphemeralKeyRing).
	Keys *KeyRing
	// Court is the code (TR.OOOO) of the court this deployment serves
	// (JUIZADO_COURT), written in the snapshot; "" for none.
	Court string
	// Logger receives the ticker's errors.
	Logger *slog.Logger

	bl       blocklistCache
	checkLog *CheckLog
	stop     stopSignal
	// stamp is the last court time signed (Unix nanoseconds): CourtTime.
	stamp atomic.Int64
	// places is the last read of Lists.Places (currentPlaces), placesMu
	// serialises the reads.
	places   atomic.Pointer[placesRead]
	placesMu sync.Mutex
	// pages coalesces the feed reads of the same page (SignedChanges).
	pages singleflight.Group
}

// CourtTime is the court time to sign into a new body (wire.Snapshot and
// wire.FeedPage court_time): the court's clock (Lists.Clock) in UTC, or a
// nanosecond after the last one this publisher signed when the clock has
// not moved past it and is less than StampSlack behind it (two bodies in
// the same clock tick, or a clock that stands still in tests), so that a
// gate agent does not take a new body for a replayed one (it counts a
// body fresh only when its court_time is after the last it accepted;
// ../shared/API.md "Gate agent", freshness and anti-rollback). A clock set
// back further is signed as it reads: the court's time is never invented.
func (s *Publisher) CourtTime() time.Time {
	now := s.now().UTC()
	for {
		last := s.stamp.Load()
		t := now
		if n := t.UnixNano(); n <= last && last-n < int64(StampSlack) {
			t = time.Unix(0, last+1).UTC()
		}
		if s.stamp.CompareAndSwap(last, t.UnixNano()) {
			return t
		}
	}
}

// stopSignal is closed by StopWaiting: the long-polls waiting in
// AwaitVersion return at once (issue 32, item 3).
type stopSignal struct {
	init, close sync.Once
	ch          chan struct{}
}

func (s *stopSignal) c() chan struct{} {
	s.init.Do(func() { s.ch = make(chan struct{}) })
	return s.ch
}

// StopWaiting makes every long-poll waiting in AwaitVersion, and every one
// that starts after, return at once: the server is shutting down, and the
// gates are answered with the page they asked for (empty when nothing was
// committed: "ask again") rather than held until the shutdown's deadline
// (issue 32, item 3; ../shared/API.md "Gate agent": a court stopped with
// SIGTERM answers its long-polls at once). Calling it again does nothing.
func (s *Publisher) StopWaiting() {
	ch := s.stop.c()
	s.stop.close.Do(func() { close(ch) })
}

// NewPublisher makes the publisher of l's blocklist signed with keys and
// tells l to report the versions it makes (Lists.OnVersion), so that the
// next read after a sentence serves the new version at once.
func NewPublisher(l *Lists, keys *KeyRing, court string, logger *slog.Logger) *Publisher {
	if logger == nil {
		logger = slog.Default()
	}
	p := &Publisher{Lists: l, Keys: keys, Court: court, Logger: logger}
	l.OnVersion = p.NoteVersion
	return p
}

// now is the court's clock (Lists.Clock).
func (s *Publisher) now() time.Time { return s.Lists.Clock.Now() }

// SignedChanges returns the page of the change feed after version since
// (Lists.Changes: at most limit changes, continuing from cursor) as JSON
// with its court time (CourtTime) and nonce (the agent's nonce= echoed;
// "" for none; the caller checks it: at most wire.MaxNonce characters),
// signed with the current key. The page that reaches the latest version
// (the one with the upcoming set) carries the places' digest and, unless
// it is heldPlaces (the agent's places=), the places (currentPlaces).
// Errors are Lists.Changes's and Lists.Places's.
//
// Requests for the same page at once (a thousand gates' long-polls woken by
// one commit) share one read of the feed (singleflight): each gets its own
// copy, with its own court time and nonce, signed for it.
func (s *Publisher) SignedChanges(ctx context.Context, since int64, limit int, cursor, nonce, heldPlaces string) (*Body, error) {
	shared, err, _ := s.pages.Do(fmt.Sprintf("%d/%d/%s", since, limit, cursor), func() (any, error) {
		return s.Lists.Changes(ctx, since, limit, cursor)
	})
	if err != nil && ctx.Err() == nil && errors.Is(err, context.Canceled) {
		// The request whose read this one shared went away: read it alone.
		shared, err = s.Lists.Changes(ctx, since, limit, cursor)
	}
	if err != nil {
		return nil, err
	}
	page := new(FeedPage)
	*page = *shared.(*FeedPage) // the shared page is read only
	if page.Upcoming != nil {
		pl, err := s.currentPlaces(ctx)
		if err != nil {
			return nil, err
		}
		if page.PlacesDigest = pl.digest; pl.digest != heldPlaces {
			page.Places = pl.places
		}
	}
	page.CourtTime, page.Nonce = s.CourtTime(), nonce
	body, err := json.Marshal(page)
	if err != nil {
		return nil, err
	}
	return s.sign(body, "application/json")
}

// StampSlack is how far behind the last court time signed the clock may
// read and still be moved a nanosecond past it (CourtTime).
const StampSlack = time.Second

// sign signs body with the current key.
func (s *Publisher) sign(body []byte, contentType string) (*Body, error) {
	kid, sig, err := s.Keys.Sign(body)
	if err != nil {
		return nil, err
	}
	return &Body{Body: body, ContentType: contentType, KeyID: kid, Sig: sig}, nil
}

// SignedKeys returns the key list of GET /api/v1/blocklist/key,
// {"keys": [...]} (KeyRing.Keys at the court's clock: the current key and
// the rotated-out ones until their not_after, with their endorsements),
// signed with the current key like the snapshot, so that a gate agent
// takes a not_after (a retirement) only from the court: it verifies the
// list with a key it trusts, or one the list's endorsements chain to a
// key it trusts (../shared/API.md "Gate agent").
func (s *Publisher) SignedKeys() (*Body, error) {
	keys, err := s.Keys.Keys(s.now())
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(map[string]any{"keys": keys})
	if err != nil {
		return nil, err
	}
	return s.sign(body, "application/json")
}

// AwaitVersion returns as soon as a version after since is committed (read
// every 100 ms from the database, so a commit by another server sharing it
// is seen too), when wait ends, when the server stops (StopWaiting), or
// when ctx ends (the caller then sees ctx.Err()). A since above the current
// version returns at once (Changes refuses it).
func (s *Publisher) AwaitVersion(ctx context.Context, since int64, wait time.Duration) error {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	stopping := s.stop.c()
	for {
		select {
		case <-stopping:
			return nil
		default:
		}
		v, err := s.Lists.Latest(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if v.Version != since {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-deadline.C:
			return nil
		case <-stopping:
			return nil
		case <-tick.C:
			// A new day: the midnight version is made before the page.
			if err := s.FeedDay(ctx); err != nil {
				return err
			}
		}
	}
}

// StartCheckLog makes l the gates' check log, kept on disk under spoolDir
// while the database is unreachable ("" for memory only).
func (s *Publisher) StartCheckLog(l *CheckLog, spoolDir string) {
	s.checkLog = l
	if spoolDir != "" {
		l.SpoolTo(filepath.Join(spoolDir, "blocklist-checks.jsonl"))
	}
}

// LogCheck queues a CPF check for the check log (DOMAIN.md §6: each read
// is logged); without a check log it does nothing.
func (s *Publisher) LogCheck(r CheckRecord) {
	if s.checkLog != nil {
		s.checkLog.Log(r)
	}
}

// Close writes the CPF checks still queued.
func (s *Publisher) Close() {
	if s.checkLog != nil {
		s.checkLog.Close()
	}
}

// Run refreshes the blocklist every interval until ctx ends,
// so that a ban starting or ending at midnight (America/Sao_Paulo) makes a
// new version within a minute with nobody acting, and prepares its bodies.
func (s *Publisher) Run(ctx context.Context, interval time.Duration) {
	var lastPrune time.Time
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Lists.Refresh(ctx); err != nil {
				if ctx.Err() == nil {
					s.Logger.Error("blocklist refresh", "err", err.Error())
				}
				continue
			}
			if _, err := s.Prepared(ctx); err != nil && ctx.Err() == nil {
				s.Logger.Error("blocklist prepare", "err", err.Error())
			}
			if now := s.now(); now.Sub(lastPrune) > time.Hour {
				lastPrune = now
				if err := s.Lists.PruneFeedOlderThan(ctx, now.Add(-FeedRetention)); err != nil && ctx.Err() == nil {
					s.Logger.Error("blocklist feed prune", "err", err.Error())
				}
			}
		}
	}
}

// Metrics registers the gauges of the blocklist this instance
// serves (issue 10): its version, entries and when it was made, how many
// versions committed in the database it has not served yet (the feed's lag
// at this instance: 0 when up to date), and the CPF checks waiting to be
// written to the check log. Read at scrape time; before the first
// blocklist request of the process the served version is 0.
func (s *Publisher) Metrics(reg prometheus.Registerer) {
	served := func() *Prepared {
		if st := s.bl.state.Load(); st != nil {
			return st.p
		}
		return nil
	}
	gauge := func(name, help string, f func() float64) prometheus.GaugeFunc {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "juizado", Subsystem: "blocklist", Name: name, Help: help}, f)
	}
	reg.MustRegister(
		gauge("version", "Blocklist version served by this instance.", func() float64 {
			if p := served(); p != nil {
				return float64(p.Version)
			}
			return 0
		}),
		gauge("entries", "Entries (bans in force with a CPF) of the version served.", func() float64 {
			if p := served(); p != nil {
				return float64(p.entries)
			}
			return 0
		}),
		gauge("generated_timestamp_seconds", "When the version served was made (Unix time).", func() float64 {
			if p := served(); p != nil {
				return float64(p.GeneratedAt.Unix())
			}
			return 0
		}),
		gauge("feed_lag_versions", "Versions committed in the database that this instance does not serve yet (-1: the database cannot be read).", func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			v, err := s.Lists.Latest(ctx)
			if err != nil {
				return -1
			}
			var have int64
			if p := served(); p != nil {
				have = p.Version
			}
			return float64(max(v.Version-have, 0))
		}),
		gauge("check_log_pending", "CPF checks waiting to be written to the check log.", func() float64 {
			if s.checkLog == nil {
				return 0
			}
			return float64(s.checkLog.Pending())
		}),
	)
}

// Blocklist bodies are prepared once per version: the JSON and CSV bytes,
// their signatures and (on first demand) their gzip forms. A read serves the
// prepared bytes; the version is looked up in the database at most every
// blocklistFresh, at once after this process made a new version
// (Lists.OnVersion), and the blocklist is refreshed first when the court's
// date changed since the last look. The JSON body also carries the
// upcoming entries as of the court's date (Snapshot.Upcoming),
// which move with the date and with sentences of bans that start later,
// with no new version: they are read again at each look, and when they or
// the date changed the JSON body is rebuilt (the items' bytes reused, the
// whole signed again) under a new ETag; the CSV (items only) and the
// check index stay those of the version.
const blocklistFresh = time.Second

// blocklistCache holds the prepared version this process serves.
type blocklistCache struct {
	mu        sync.Mutex // serialises lookups and rebuilds
	state     atomic.Pointer[blocklistState]
	pending   atomic.Int64 // the highest version Refresh made in this process
	pendingAt atomic.Int64 // when (unix ns)
	// downAt is when (unix ns) the database last failed to confirm the
	// version (degraded mode): for a second after, the version in memory
	// answers without trying again.
	downAt atomic.Int64
	// dayMu serialises FeedDay's refreshes; refreshed is the court's date
	// FeedDay last refreshed the blocklist for.
	dayMu     sync.Mutex
	refreshed atomic.Pointer[civil.Date]
}

type blocklistState struct {
	p       *Prepared
	day     civil.Date // the court's date when the version was looked up
	checked time.Time  // when (real time)
}

// Prepared is a blocklist version ready to serve: its number, when it was
// made, its entries' count, the JSON and CSV bodies signed once (JSON: with
// the upcoming entries as of the court's date), and the CPF index the
// checks are answered from.
type Prepared struct {
	Version     int64
	GeneratedAt time.Time
	entries     int
	JSON, CSV   *Body
	Checks      checkIndex
	// day is the court's date the JSON body's upcoming entries count from
	// (its as_of), upJSON those entries as JSON.
	day    civil.Date
	upJSON []byte
	// courtTime is the JSON body's court_time (CourtTime when it was made).
	courtTime time.Time
	// Places is the venue table and the clubs' home venues read with the
	// version (Lists.Places), in the JSON body after court_time; Venues
	// indexes them: the checks with a venue and the scoped and
	// match-counted bans are answered from them, with no database (issue
	// 32, item 2). placesJSON is Places as JSON.
	Places     *Places
	Venues     *wire.PlaceIndex
	placesJSON []byte
}

// Body is a signed body: the bytes, their content type, a strong ETag, the
// key id and the base64 Ed25519 signature (the X-Juizado-Key-Id and
// X-Juizado-Signature headers), and its gzip form made on first demand.
type Body struct {
	Body        []byte
	ContentType string
	ETag        string // strong, per version and representation (JSON: and day and upcoming set)
	KeyID, Sig  string
	gzOnce      sync.Once
	gz          []byte
	// itemsEnd, in the JSON body, is where the tail after the items
	// begins (`,"upcoming":[...],"as_of":"...","court_time":"..."}`,
	// snapshotTail).
	itemsEnd int
}

// Gzipped returns the body gzip-compressed (made once).
func (b *Body) Gzipped() []byte {
	b.gzOnce.Do(func() { b.gz = gzipBytes(b.Body) })
	return b.gz
}

func gzipBytes(body []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	_, _ = zw.Write(body)
	_ = zw.Close()
	return buf.Bytes()
}

// NoteVersion is Lists.OnVersion: the next read looks the version up.
func (s *Publisher) NoteVersion(v int64) {
	for {
		cur := s.bl.pending.Load()
		if v <= cur || s.bl.pending.CompareAndSwap(cur, v) {
			break
		}
	}
	s.bl.pendingAt.Store(time.Now().UnixNano())
}

// Prepared returns the prepared bodies of the latest version. With the
// database unreachable (degraded mode, issue 16 item 3) it returns the
// version in memory, if there is one (PreparedAge says so, VerifiedAt how
// old it is).
func (s *Publisher) Prepared(ctx context.Context) (*Prepared, error) {
	p, _, err := s.PreparedAge(ctx)
	return p, err
}

// PreparedAge is Prepared that also says whether the
// version comes from memory because the database cannot confirm it.
func (s *Publisher) PreparedAge(ctx context.Context) (*Prepared, bool, error) {
	st := s.bl.state.Load()
	if st != nil && time.Since(time.Unix(0, s.bl.downAt.Load())) < time.Second {
		return st.p, true, nil
	}
	p, err := s.preparedDB(ctx)
	if err != nil && st != nil && db.IsUnavailable(err) {
		s.bl.downAt.Store(time.Now().UnixNano())
		return st.p, true, nil
	}
	return p, false, err
}

// VerifiedAt is when this process last saw the version in memory current
// (real time); false before any version was prepared. With the database
// unreachable (PreparedAge's stale) it says how old the answer is.
func (s *Publisher) VerifiedAt() (time.Time, bool) {
	st := s.bl.state.Load()
	if st == nil {
		return time.Time{}, false
	}
	return st.checked, true
}

// preparedDB looks the latest version up in the database.
func (s *Publisher) preparedDB(ctx context.Context) (*Prepared, error) {
	today := civil.Today(s.now(), s.Lists.Loc)
	if st := s.bl.state.Load(); st != nil && s.fresh(st, today) {
		return st.p, nil
	} else if st != nil && st.day == today {
		// Another request is reading or preparing a version (seconds at
		// hundreds of thousands of entries): the gates are answered from
		// the version in hand meanwhile rather than held. The request that
		// prepares sees the new version; on a new day everyone waits, so a
		// ban that starts or ends at midnight is never missed.
		if !s.bl.mu.TryLock() {
			return st.p, nil
		}
	} else {
		s.bl.mu.Lock()
	}
	defer s.bl.mu.Unlock()
	st := s.bl.state.Load()
	if st != nil && s.fresh(st, today) {
		return st.p, nil
	}
	if st == nil || st.day != today {
		// Bans that start or end at midnight: a new version with nobody acting.
		if err := s.Lists.Refresh(ctx); err != nil {
			return nil, err
		}
	}
	v, err := s.Lists.Latest(ctx)
	if err != nil {
		return nil, err
	}
	var p *Prepared
	if st != nil && st.p.Version == v.Version && v.Version != 0 {
		p = st.p
		up, err := s.Lists.Upcoming(ctx, today)
		if err != nil {
			return nil, err
		}
		pl, err := s.currentPlaces(ctx)
		if err != nil {
			return nil, err
		}
		if p, err = s.withUpcoming(p, up, today, pl.places); err != nil {
			return nil, err
		}
	} else {
		if v.Version == 0 {
			if err := s.Lists.Refresh(ctx); err != nil {
				return nil, err
			}
		}
		snap, err := s.Lists.Read(ctx)
		if err != nil {
			return nil, err
		}
		pl, err := s.currentPlaces(ctx)
		if err != nil {
			return nil, err
		}
		snap.Places = pl.places
		if p, err = s.prepare(snap); err != nil {
			return nil, err
		}
	}
	s.bl.state.Store(&blocklistState{p: p, day: today, checked: time.Now()})
	return p, nil
}

// FeedDay makes sure the blocklist was refreshed (Lists.Refresh) on the
// court's date today before a feed page is read, so that the bans that
// start or end at midnight (America/Sao_Paulo) are in a version with
// nobody acting (API.md "Public list and blocklist"), without preparing
// the snapshot's bodies: a feed page is read from the feed table
// (Lists.Changes), and preparing every entry (seconds at 100,000 entries)
// in the feed's request held the gates' long-polls behind it, so a version
// committed meanwhile reached them seconds late (bench/README.md, gate
// agent). The prepared version of today, when there is one, was made
// after that day's refresh; otherwise FeedDay refreshes once a day.
func (s *Publisher) FeedDay(ctx context.Context) error {
	today := civil.Today(s.now(), s.Lists.Loc)
	done := func() bool {
		if st := s.bl.state.Load(); st != nil && st.day == today {
			return true
		}
		d := s.bl.refreshed.Load()
		return d != nil && *d == today
	}
	if done() {
		return nil
	}
	s.bl.dayMu.Lock()
	defer s.bl.dayMu.Unlock()
	if done() {
		return nil
	}
	if err := s.Lists.Refresh(ctx); err != nil {
		return err
	}
	s.bl.refreshed.Store(&today)
	return nil
}

func (s *Publisher) fresh(st *blocklistState, today civil.Date) bool {
	if st.day != today || time.Since(st.checked) >= blocklistFresh {
		return false
	}
	if pv := s.bl.pending.Load(); pv > st.p.Version && time.Since(time.Unix(0, s.bl.pendingAt.Load())) < 30*time.Second {
		return false
	}
	return true
}

func (s *Publisher) prepare(snap *Snapshot) (*Prepared, error) {
	p := &Prepared{Version: snap.Version, GeneratedAt: snap.GeneratedAt, entries: len(snap.Items), day: snap.AsOf}
	var err error
	if p.Places, p.placesJSON, err = placesJSON(snap.Places); err != nil {
		return nil, err
	}
	p.Venues = p.Places.Index()
	snap.Places = nil // written by snapshotTail
	if p.Checks, err = newCheckIndex(snap.Items); err != nil {
		return nil, err
	}
	snap.Court = s.Court
	if snap.Upcoming == nil {
		snap.Upcoming = []Entry{}
	}
	jb, err := json.Marshal(snap)
	if err != nil {
		return nil, err
	}
	itemsEnd := bytes.LastIndex(jb, []byte(`,"upcoming":`))
	if p.upJSON, err = json.Marshal(snap.Upcoming); err != nil {
		return nil, err
	}
	if itemsEnd < 0 {
		return nil, fmt.Errorf("api: blocklist body without upcoming")
	}
	p.courtTime = s.CourtTime()
	jb = append(jb[:itemsEnd], snapshotTail(p.upJSON, p.day, p.courtTime, p.placesJSON)...)
	cb, err := blocklistCSV(snap)
	if err != nil {
		return nil, err
	}
	for _, r := range []struct {
		into        **Body
		body        []byte
		format, ctp string
	}{{&p.JSON, jb, "json", "application/json"}, {&p.CSV, cb, "csv", "text/csv; charset=utf-8"}} {
		kid, sig, err := s.Keys.Sign(r.body)
		if err != nil {
			return nil, err
		}
		etag := fmt.Sprintf(`"blocklist-v%d-%s"`, snap.Version, r.format)
		if r.format == "json" {
			etag = jsonETag(snap.Version, p.day, p.upJSON, p.placesJSON, p.courtTime)
		}
		*r.into = &Body{Body: r.body, ContentType: r.ctp, ETag: etag, KeyID: kid, Sig: sig, itemsEnd: itemsEnd}
	}
	return p, nil
}

// snapshotTail is the end of the JSON snapshot after its items: the
// upcoming entries (up, a JSON array), the date they count from, the
// court time of the body and the places (a JSON object; none when
// empty), as json.Marshal writes Snapshot's last four fields.
func snapshotTail(up []byte, day civil.Date, courtTime time.Time, places []byte) []byte {
	b := make([]byte, 0, len(up)+len(places)+100)
	b = append(b, `,"upcoming":`...)
	b = append(b, up...)
	b = append(b, `,"as_of":"`...)
	b = append(b, day.String()...)
	b = append(b, `","court_time":"`...)
	b = courtTime.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	if len(places) > 0 {
		b = append(append(b, `,"places":`...), places...)
	}
	return append(b, '}')
}

// placesJSON returns places (an empty table when nil) with their JSON.
func placesJSON(places *Places) (*Places, []byte, error) {
	if places == nil {
		places = &Places{Venues: []wire.Venue{}, Homes: []wire.Home{}}
	}
	b, err := json.Marshal(places)
	return places, b, err
}

// jsonETag is the strong ETag of the JSON snapshot: its version, the
// court's date, a digest of the upcoming set and the places and the
// body's court time, which change the body with no new version
// ("blocklist-v12-20261201-1a2b3c4d-1767200000123456789-json"); the court
// time differs between the servers of one court, whose bodies differ.
func jsonETag(version int64, day civil.Date, up, places []byte, courtTime time.Time) string {
	h := sha256.Sum256(append(append([]byte{}, up...), places...))
	return fmt.Sprintf(`"blocklist-v%d-%04d%02d%02d-%x-%d-json"`, version, day.Year, int(day.Month), day.Day, h[:4], courtTime.UnixNano())
}

// withUpcoming returns p with its JSON body rebuilt for the upcoming
// entries up as of day and the places read now (the items' bytes kept,
// the body signed again), or p itself when none of them changed: a venue
// added or a schedule imported reaches the checks with no new version.
func (s *Publisher) withUpcoming(p *Prepared, up []Entry, day civil.Date, places *Places) (*Prepared, error) {
	if up == nil {
		up = []Entry{}
	}
	upJSON, err := json.Marshal(up)
	if err != nil {
		return nil, err
	}
	places, pj, err := placesJSON(places)
	if err != nil {
		return nil, err
	}
	if p.day == day && bytes.Equal(upJSON, p.upJSON) && bytes.Equal(pj, p.placesJSON) {
		return p, nil
	}
	old := p.JSON
	courtTime := s.CourtTime()
	tail := snapshotTail(upJSON, day, courtTime, pj)
	body := make([]byte, 0, old.itemsEnd+len(tail))
	body = append(append(body, old.Body[:old.itemsEnd]...), tail...)
	kid, sig, err := s.Keys.Sign(body)
	if err != nil {
		return nil, err
	}
	n := *p
	n.day, n.upJSON, n.courtTime = day, upJSON, courtTime
	if !bytes.Equal(pj, p.placesJSON) {
		n.Places, n.placesJSON, n.Venues = places, pj, places.Index()
	}
	n.JSON = &Body{Body: body, ContentType: old.ContentType, ETag: jsonETag(p.Version, day, upJSON, pj, courtTime), KeyID: kid, Sig: sig, itemsEnd: old.itemsEnd}
	return &n, nil
}
