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
	"github.com/juizado/juizado/registry/blocklist/wire"
)

// The court's signed shapes (registry/blocklist/wire), with their dates
// kept as the YYYY-MM-DD strings received: the index slices them without
// parsing.
type (
	// Scope is where a ban applies: nil is anywhere (wire.Scope).
	Scope = wire.Scope
	// ClubVenue is a scope's club venue with its open days (wire.ClubVenue).
	ClubVenue = wire.ClubVenue
	// Entry is one blocklist item as the court signs it (wire.Entry).
	Entry = wire.Entry[string]
	// Snapshot is the body of GET /api/v1/blocklist (wire.Snapshot).
	Snapshot = wire.Snapshot[string]
	// Change is one feed change (wire.Change).
	Change = wire.Change[string]
	// FeedPage is the body of GET /api/v1/blocklist/changes (wire.FeedPage).
	FeedPage = wire.FeedPage[string]
	// CheckBan is one ban behind a blocked CPF in the agent's answer
	// (wire.CheckBan), Court naming the court whose list has it.
	CheckBan = wire.CheckBan[string]
)

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

// appliesByID is applies's scope rule by venue id, for the court whose
// places give idOf (courtState.idOf): entry e, in force on day (applies
// judged its dates and found no venue by name), blocks when one of the
// gate's venues, resolved to an id in the court's signed venue table, is
// one of the scope's venue ids, or one of its club venues on a day that is
// not one of its open days. A venue renamed in the table after the ban
// still blocks where the court's check would (it compares ids too).
func appliesByID(e *Entry, day string, venues map[string]bool, idOf map[string]int64) bool {
	if e.Scope == nil || len(venues) == 0 || len(idOf) == 0 || e.FirstDay > day || (e.LastDay != nil && *e.LastDay < day) {
		return false
	}
	if len(e.MatchDays) > 0 && !slices.Contains(e.MatchDays, day) {
		return false
	}
	for n := range venues {
		id, ok := idOf[n]
		if !ok {
			continue
		}
		if slices.Contains(e.Scope.VenueIDs, id) {
			return true
		}
		for i := range e.Scope.ClubVenues {
			if cv := &e.Scope.ClubVenues[i]; cv.VenueID == id && !slices.Contains(cv.OpenDays, day) {
				return true
			}
		}
	}
	return false
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
