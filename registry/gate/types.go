// Package gate is the stadium side of the court's signed blocklist: it
// follows one or more courts (snapshot, then the change feed in pages with
// cursors, a new snapshot on 410), applies only what verifies with a pinned
// Ed25519 key or a key rotated in under a trusted one, keeps what it
// received exactly as signed under a data directory, and answers CPF checks
// from that copy with the network down. No database. ../shared/API.md
// "Public list and blocklist" and "Gate agent"; DOMAIN.md §6.
package gate

import (
	"slices"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/textcheck"
)

// Scope is where a ban applies, as the court publishes it: null (nil) is
// anywhere; else the venues (names and the court's venue ids) and the clubs
// whose home matches it covers.
type Scope struct {
	Venues   []string `json:"venues"`
	VenueIDs []int64  `json:"venue_ids"`
	Clubs    []string `json:"clubs"`
	// ClubVenues are the named clubs' home venues as the court's schedule
	// has them, each with its open days (ClubVenue); the court writes them
	// on every entry whose scope names clubs.
	ClubVenues []ClubVenue `json:"club_venues,omitempty"`
}

// ClubVenue is a venue where a club of the scope plays at home in the
// court's schedule: the ban blocks there on every day but OpenDays
// (YYYY-MM-DD: days whose matches there are all other clubs' home
// matches, a shared stadium).
type ClubVenue struct {
	Venue    string   `json:"venue"`
	VenueID  int64    `json:"venue_id"`
	OpenDays []string `json:"open_days"`
}

// Entry is one blocklist item as the court signs it (GET /api/v1/blocklist
// items, upcoming, and the feed's changes). Dates are YYYY-MM-DD in the
// court's zone (America/Sao_Paulo); LastDay nil is a precautionary ban.
type Entry struct {
	CPF        string   `json:"cpf"`
	Name       string   `json:"name"`
	BirthDate  *string  `json:"birth_date"`
	FirstDay   string   `json:"first_day"`
	LastDay    *string  `json:"last_day"`
	BanID      int64    `json:"ban_id"`
	GroupBanID *int64   `json:"group_ban_id"`
	CaseNumber string   `json:"case_number"`
	Court      string   `json:"court"`
	Scope      *Scope   `json:"scope"`
	MatchDays  []string `json:"match_days,omitempty"`
}

// Snapshot is the body of GET /api/v1/blocklist: the entries in force at
// Version and (Upcoming) those whose first day is after AsOf (the court's
// date when it answered) and no later than AsOf + 7 days.
type Snapshot struct {
	Version     int64     `json:"version"`
	GeneratedAt time.Time `json:"generated_at"`
	Court       string    `json:"court"`
	Items       []Entry   `json:"items"`
	Upcoming    []Entry   `json:"upcoming"`
	AsOf        string    `json:"as_of"`
}

// Change is one feed change: an entry added or removed at Version.
type Change struct {
	Version int64  `json:"version"`
	Op      string `json:"op"` // add | remove
	Reason  string `json:"reason"`
	Entry
}

// FeedPage is the body of GET /api/v1/blocklist/changes. Upcoming, which
// the court sends on the page that reaches its latest version, is the
// whole list of entries starting after AsOf and within 7 days, as of To.
type FeedPage struct {
	From       int64    `json:"from"`
	FromCursor string   `json:"from_cursor,omitempty"`
	To         int64    `json:"to"`
	Changes    []Change `json:"changes"`
	Cursor     string   `json:"cursor,omitempty"`
	Upcoming   *[]Entry `json:"upcoming,omitempty"`
	AsOf       string   `json:"as_of,omitempty"`
}

// CheckBan is one ban behind a blocked CPF in the agent's answer: the
// court's check fields plus Court, the code of the court whose list has it.
type CheckBan struct {
	BanID      int64    `json:"ban_id"`
	FirstDay   string   `json:"first_day"`
	LastDay    *string  `json:"last_day"`
	CaseNumber string   `json:"case_number"`
	Court      string   `json:"court"`
	Scope      *Scope   `json:"scope,omitempty"`
	MatchDays  []string `json:"match_days,omitempty"`
}

// CheckResult is the agent's answer to GET /check/{cpf}: the court's check
// answer, Stale when any court's copy is older than max_age, and the version
// of every court's list that was consulted (Versions, by court code: one map
// shared by every result that read the same versions, so read only).
type CheckResult struct {
	CPF       string           `json:"cpf"`
	Blocked   bool             `json:"blocked"`
	Bans      []CheckBan       `json:"bans"`
	Stale     bool             `json:"stale"`
	Versions  map[string]int64 `json:"versions"`
	CheckedAt time.Time        `json:"checked_at"`

	versionsJSON []byte // Versions as JSON, when Check made the result
}

// fold is the court's folding of names (textcheck.Fold): venue and club
// names are compared folded, as the court compares them.
func fold(s string) string { return textcheck.Fold(s) }

// venueNames are the folded forms a venue name answers to: the whole name,
// the name without a parenthesised part, and the popular name in
// parentheses ("Estádio José Pinheiro Borda (Beira-Rio)").
func venueNames(s string) []string {
	f := fold(s)
	out := []string{f}
	if i := strings.Index(f, "("); i >= 0 {
		if j := strings.Index(f[i:], ")"); j > 0 {
			out = append(out, strings.TrimSpace(f[:i]), strings.TrimSpace(f[i+1:i+j]))
		}
	}
	return out
}

// applies tells whether entry e blocks on day (YYYY-MM-DD) at a gate that
// guards venues and (optionally) the home matches of clubs, both folded.
// Dates: first_day ≤ day ≤ last_day (null: no end); a match-counted ban only
// on its match days. Scope: null blocks anywhere; a gate that guards no
// named venue is blocked by every ban (it cannot say where it stands, as
// the court's own check); else one of its venues must be in the scope's
// venues, or be one of the scope's club venues on a day that is not one of
// its open days (the court's check at that venue: blocklist.Lists.Applicable),
// or one of the gate's clubs (configuration) in the scope's clubs.
func applies(e *Entry, day string, venues, clubs map[string]bool) bool {
	if e.FirstDay > day || (e.LastDay != nil && *e.LastDay < day) {
		return false
	}
	if len(e.MatchDays) > 0 {
		on := false
		for _, d := range e.MatchDays {
			if d == day {
				on = true
				break
			}
		}
		if !on {
			return false
		}
	}
	if e.Scope == nil || len(venues) == 0 {
		return true
	}
	for _, v := range e.Scope.Venues {
		for _, n := range venueNames(v) {
			if venues[n] {
				return true
			}
		}
	}
	for i := range e.Scope.ClubVenues {
		cv := &e.Scope.ClubVenues[i]
		if slices.Contains(cv.OpenDays, day) {
			continue
		}
		for _, n := range venueNames(cv.Venue) {
			if venues[n] {
				return true
			}
		}
	}
	for _, c := range e.Scope.Clubs {
		if clubs[fold(c)] {
			return true
		}
	}
	return false
}
