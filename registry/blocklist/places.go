package blocklist

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/registry/blocklist/wire"
	"github.com/juizado/juizado/sanctions"
)

// Places is what a check needs to answer for a venue with no database
// (wire.Places): the venue table and the clubs' home venues.
type Places = wire.Places

// Places reads the court's venue table (cases.ListVenueAliases: each
// venue with its popular name as alias) and the clubs' home venues in
// every court's imported schedule (ClubVenues for every club, grouped
// by the club's name with case and accents ignored), for the version
// served (Prepared.Places). Issue 32, item 2.
func (l *Lists) Places(ctx context.Context) (*Places, error) {
	g := db.Conn(ctx, l.DB)
	vs, err := cases.ListVenueAliases(ctx, g)
	if err != nil {
		return nil, err
	}
	p := &Places{Venues: make([]wire.Venue, 0, len(vs)), Homes: []wire.Home{}}
	for _, v := range vs {
		al := []string{}
		if v.Alias != "" {
			al = append(al, v.Alias)
		}
		p.Venues = append(p.Venues, wire.Venue{ID: v.ID, Name: v.Name, Aliases: al})
	}
	var rows []struct {
		Club string
		IDs  string
	}
	if err := g.Raw(`SELECT min(home) AS club, jsonb_agg(DISTINCT venue_id ORDER BY venue_id)::text AS ids
		FROM matches WHERE venue_id IS NOT NULL GROUP BY f_unaccent(home) ORDER BY f_unaccent(home)`).Scan(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		h := wire.Home{Club: r.Club}
		if err := json.Unmarshal([]byte(r.IDs), &h.VenueIDs); err != nil {
			return nil, err
		}
		p.Homes = append(p.Homes, h)
	}
	return p, nil
}

// ApplicableOn is Applicable answered from memory: bans narrowed to
// those that apply on day at a gate guarding venueIDs, the club rule read
// from each entry's club_venues (wire.ClubVenue: the venues of the ban's
// court's schedule where a named club plays at home, blocking there on
// every day but its open days), which entryScopeSQL writes from the same
// schedule Applicable reads. No venueIDs: every ban in force blocks. CPP
// art. 319, II; ../shared/API.md "Scope and match terms".
func ApplicableOn(bans []CheckBan, venueIDs []int64, day civil.Date) []CheckBan {
	out := []CheckBan{}
	ds := day.String()
	for _, b := range bans {
		if b.MatchDays != nil && !sanctions.DayList(b.MatchDays).Has(day) {
			continue
		}
		if appliesAtOn(b.Scope, venueIDs, ds) {
			out = append(out, b)
		}
	}
	return out
}

func appliesAtOn(sc *sanctions.Scope, venueIDs []int64, day string) bool {
	if sc == nil || len(venueIDs) == 0 {
		return true
	}
	for _, v := range venueIDs {
		if slices.Contains(sc.VenueIDs, v) {
			return true
		}
		for _, cv := range sc.ClubVenues {
			if cv.VenueID == v && !slices.Contains(cv.OpenDays, day) {
				return true
			}
		}
	}
	return false
}

// ScopedBans narrows raw, a CPF's bans in the check index of p (a JSON
// array of CheckBan), to those that apply today (the court's date) at a
// gate guarding venueIDs (ApplicableOn), from memory: nil when none
// applies, else the JSON array of those that do.
func (s *Publisher) ScopedBans(raw []byte, venueIDs []int64) ([]byte, error) {
	var all []CheckBan
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, err
	}
	bans := ApplicableOn(all, venueIDs, civil.Today(s.now(), s.Lists.Loc))
	if len(bans) == 0 {
		return nil, nil
	}
	return json.Marshal(bans)
}

// placesRead is one read of Lists.Places: the places, their digest
// (wire.Places.Digest) and when (real time) they were read.
type placesRead struct {
	places *Places
	digest string
	at     time.Time
}

// currentPlaces returns the court's places (Lists.Places) read at most
// blocklistFresh ago, so that a thousand long-polls answered at one
// version read them once; while another request reads them, the last
// read answers. Shared by the snapshot (Prepared.Places) and the head
// pages of the feed.
func (s *Publisher) currentPlaces(ctx context.Context) (*placesRead, error) {
	last := s.places.Load()
	if last != nil && time.Since(last.at) < blocklistFresh {
		return last, nil
	}
	if last != nil && !s.placesMu.TryLock() {
		return last, nil
	} else if last == nil {
		s.placesMu.Lock()
	}
	defer s.placesMu.Unlock()
	if cur := s.places.Load(); cur != nil && time.Since(cur.at) < blocklistFresh {
		return cur, nil
	}
	p, err := s.Lists.Places(ctx)
	if err != nil {
		return nil, err
	}
	r := &placesRead{places: p, digest: p.Digest(), at: time.Now()}
	s.places.Store(r)
	return r, nil
}
