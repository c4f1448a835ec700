package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

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
	courtTime   time.Time       // the latest court_time of the bodies applied (zero: none)
	entries     *entryIndex     // in force at version
	upcoming    map[int64]Entry // first day within 7 days, by ban id
	upIndex     *entryIndex     // upcoming by CPF
	// places are the court's venue table and clubs' home venues as the
	// last body that carried them signed them (nil: none yet, or a court
	// older than them); placesDigest their digest, sent back as places=;
	// idOf each folded venue name and alias (venueNames) to its id, so
	// that a scoped ban is matched by id too (setPlaces).
	places       *wire.Places
	placesDigest string
	idOf         map[string]int64
}

// setPlaces holds p (nil: none) as the court's places and indexes them:
// each name and alias, folded as the agent folds a venue (venueNames), to
// its id when one venue alone answers to it.
func (s *courtState) setPlaces(p *wire.Places) {
	s.places, s.placesDigest, s.idOf = p, p.Digest(), nil
	if p == nil {
		return
	}
	ids := map[string]int64{}
	for _, v := range p.Venues {
		for _, n := range append([]string{v.Name}, v.Aliases...) {
			for _, k := range venueNames(n) {
				if old, ok := ids[k]; ok && old != v.ID {
					ids[k] = 0 // two venues: neither
					continue
				}
				ids[k] = v.ID
			}
		}
	}
	for k, id := range ids {
		if id == 0 {
			delete(ids, k)
		}
	}
	s.idOf = ids
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
	if p.CourtTime.After(s.courtTime) {
		s.courtTime = p.CourtTime
	}
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
	if p.Places != nil {
		s.setPlaces(p.Places)
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
	q := banQuery{k: k, day: day, dayN: dayN, venues: venues, clubs: clubs, name: name, idOf: s.idOf}
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
		case "court_time":
			err = dec.Decode(&s.courtTime)
		case "court":
			err = dec.Decode(&s.court)
		case "upcoming":
			err = dec.Decode(&upcoming)
		case "places":
			var p *wire.Places
			if err = dec.Decode(&p); err == nil {
				s.setPlaces(p)
			}
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
