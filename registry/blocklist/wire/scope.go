package wire

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// Scope is where a ban applies when the judge names the places (CPP art.
// 319, II: "proibição de acesso ou frequência a determinados lugares"; Lei
// 9.099/1995, art. 89, § 1º, II; a TAC): the venues named (as the venue
// table spells them, with their ids) and the home matches of the clubs
// named (as the court's imported schedule spells them). A nil *Scope is
// "anywhere": every place where a sporting event is held, the only scope
// of the bans the statutes fix (Lei 14.597/2023, art. 201, § 2º; Lei
// 10.671/2003, arts. 39 and 41-B; Lei 7.716/1989, art. 20, § 2º-A).
//
// Stored as jsonb (bans.scope, blocklist_entries.scope); NULL is anywhere.
type Scope struct {
	Venues   []string `json:"venues"`
	VenueIDs []int64  `json:"venue_ids"`
	Clubs    []string `json:"clubs"`
	// ClubVenues is set on blocklist entries only (never on a ban): the
	// named clubs' home matches resolved against the court's imported
	// schedule, so that a gate with no database blocks where the court's
	// own check would (registry/blocklist, entriesSQL; ClubVenue).
	ClubVenues []ClubVenue `json:"club_venues,omitempty"`
}

// ClubVenue is a venue where one of a scope's clubs plays at home in the
// court's imported schedule (any match, cancelled or not, as the court's
// check reads it), with OpenDays: the days (YYYY-MM-DD) on which the
// schedule has matches there, none of them a home match of a named club (a
// shared stadium on another club's day: the ban does not block there that
// day). On any other day the ban blocks at the venue. CPP art. 319, II
// (the places the judge names); ../shared/API.md "Scope and match terms".
type ClubVenue struct {
	Venue    string   `json:"venue"`
	VenueID  int64    `json:"venue_id"`
	OpenDays []string `json:"open_days"`
}

// Value stores the scope as jsonb.
func (s Scope) Value() (driver.Value, error) {
	if s.Venues == nil {
		s.Venues = []string{}
	}
	if s.VenueIDs == nil {
		s.VenueIDs = []int64{}
	}
	if s.Clubs == nil {
		s.Clubs = []string{}
	}
	b, err := json.Marshal(s)
	return string(b), err
}

// Scan reads a jsonb scope.
func (s *Scope) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s = Scope{}
		return nil
	case []byte:
		return json.Unmarshal(v, s)
	case string:
		return json.Unmarshal([]byte(v), s)
	}
	return fmt.Errorf("wire: cannot scan %T into a Scope", src)
}

// Equal reports whether two scopes (nil: anywhere) are the same.
func (s *Scope) Equal(o *Scope) bool {
	if s == nil || o == nil {
		return s == nil && o == nil
	}
	a, _ := s.Value()
	b, _ := o.Value()
	return a == b
}
