package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/juizado/juizado/internal/textcheck"
)

// Places is what a check needs to answer for a venue with no database:
// the court's venue table (Venues: ids, names and the other names the
// court matches them by, as GET /api/v1/venues lists them and
// cases.FindVenue matches them) and the clubs' home venues in the
// imported schedules (Homes: what blocklist.Lists.ClubVenues reads from
// the matches). It travels, signed, with each blocklist version: in the
// snapshot's places and in the feed page that reaches the latest version
// (unless the agent says it holds the same, places= its Digest), so that
// checks with a venue, scoped bans and match-counted bans are answered
// from memory at the court and at the gate agent while the database is
// down (issue 32, item 2; CPP art. 319, II: the places the judge names).
// An optional field: a court older than it sends none.
type Places struct {
	Venues []Venue `json:"venues"`
	Homes  []Home  `json:"homes"`
}

// Venue is one venue of the court's table: its id (the ids of
// Scope.VenueIDs and ClubVenue.VenueID), its name and its aliases (the
// popular name in parentheses at the end of the name, as
// cases.ListVenueAliases gives it; empty when none).
type Venue struct {
	ID      int64    `json:"id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

// Home is a club (as the schedules spell its home matches, the first
// spelling in order) with the ids of the venues where it plays at home in
// any court's imported schedule, ascending.
type Home struct {
	Club     string  `json:"club"`
	VenueIDs []int64 `json:"venue_ids"`
}

// Digest is a short hex digest of the places' JSON (16 hex digits): the
// feed's places= parameter and the page's places_digest compare it. ""
// for nil places.
func (p *Places) Digest() string {
	if p == nil {
		return ""
	}
	b, _ := json.Marshal(p)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// VenueNamed returns the venue name names, as cases.FindVenue matches it with
// the database (PlaceIndex.Find); nil when none. Nil places find nothing.
func (p *Places) VenueNamed(name string) *Venue { return p.Index().VenueNamed(name) }

// HomeVenues returns the ids of the venues where club plays at home in
// any court's imported schedule (PlaceIndex.HomeVenues); nil when none.
func (p *Places) HomeVenues(club string) []int64 { return p.Index().HomeVenues(club) }

// PlaceIndex is Places indexed for lookups by name: each folded name and
// alias (case and accents ignored) to the venues it names, those whose
// whole name it is first, and each folded club to its home venues.
type PlaceIndex struct {
	venues map[string][]*Venue
	homes  map[string][]int64
	// asked caches Find's answer by the name as asked (a gate sends the
	// same few names thousands of times a second; folding costs a
	// microsecond): at most maxAsked names, found ones only.
	asked  sync.Map // string → *Venue
	nAsked atomic.Int64
}

// maxAsked bounds PlaceIndex.asked.
const maxAsked = 4096

// placeKey folds a name as f_unaccent compares it (surrounding spaces
// trimmed as cases.FindVenue trims its argument).
func placeKey(s string) string { return textcheck.FoldAccents(strings.TrimSpace(s)) }

// Index builds the lookup index of p (empty for nil places); the places
// must not change after.
func (p *Places) Index() *PlaceIndex {
	x := &PlaceIndex{venues: map[string][]*Venue{}, homes: map[string][]int64{}}
	if p == nil {
		return x
	}
	for i := range p.Venues {
		v := &p.Venues[i]
		k := placeKey(v.Name)
		x.venues[k] = append(x.venues[k], v)
	}
	for i := range p.Venues {
		v := &p.Venues[i]
		for _, a := range v.Aliases {
			if k := placeKey(a); !slices.Contains(x.venues[k], v) {
				x.venues[k] = append(x.venues[k], v)
			}
		}
	}
	for _, h := range p.Homes {
		k := placeKey(h.Club)
		if _, ok := x.homes[k]; !ok {
			x.homes[k] = h.VenueIDs
		}
	}
	return x
}

// VenueNamed returns the venue name names, as cases.FindVenue matches it with
// the database: its whole name or one of its aliases (the popular name in
// parentheses), case and accents ignored and surrounding spaces trimmed, a
// match of the whole name first; nil when none does, or when several do
// and name is not the first one's name (case ignored). A nil index finds
// nothing.
func (x *PlaceIndex) VenueNamed(name string) *Venue {
	if x == nil {
		return nil
	}
	if v, ok := x.asked.Load(name); ok {
		return v.(*Venue)
	}
	v := x.find(name)
	if v != nil && x.nAsked.Add(1) <= maxAsked {
		x.asked.Store(name, v)
	}
	return v
}

// Known reports whether name was found before (Find answers it from its
// cache): a name the court already accepted, not to be checked again.
func (x *PlaceIndex) Known(name string) bool {
	if x == nil {
		return false
	}
	_, ok := x.asked.Load(name)
	return ok
}

func (x *PlaceIndex) find(name string) *Venue {
	found := x.venues[placeKey(name)]
	switch {
	case len(found) == 0:
		return nil
	case len(found) > 1 && !strings.EqualFold(strings.TrimSpace(name), found[0].Name):
		return nil
	}
	return found[0]
}

// HomeVenues returns the ids of the venues where club plays at home in
// any court's imported schedule (case and accents ignored), as
// blocklist.Lists.ClubVenues reads them from the database; nil when none.
func (x *PlaceIndex) HomeVenues(club string) []int64 {
	if x == nil {
		return nil
	}
	return x.homes[placeKey(club)]
}
