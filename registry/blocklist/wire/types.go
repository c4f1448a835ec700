package wire

import (
	"encoding/json"
	"time"
)

// Entry is one blocklist item: one ban in force for a CPF (a person with
// two bans has two entries), as the court signs it in a snapshot's items
// and upcoming entries and in the feed's changes. Dates are YYYY-MM-DD in
// the court's zone (America/Sao_Paulo). DOMAIN.md §6; ../shared/API.md
// "Public list and blocklist".
type Entry[D any] struct {
	CPF        string `json:"cpf"` // 11 digits
	Name       string `json:"name"`
	BirthDate  *D     `json:"birth_date"`
	FirstDay   D      `json:"first_day"`
	LastDay    *D     `json:"last_day"` // null: precautionary, until lifted
	BanID      int64  `json:"ban_id"`
	GroupBanID *int64 `json:"group_ban_id"`
	CaseNumber string `json:"case_number"` // the CNJ number, formatted
	Court      string `json:"court"`       // court code TR.OOOO
	// Scope is where the ban applies: null is anywhere (every statutory
	// ban); else the venues and the clubs whose home matches it covers.
	Scope *Scope `json:"scope"`
	// MatchDays, for a term counted in matches: the days of those matches
	// (the ban blocks on them only; the last is LastDay). Absent otherwise.
	MatchDays []D `json:"match_days,omitempty"`
}

// Snapshot is a blocklist version, the body of GET /api/v1/blocklist: its
// number (assigned in commit order), when it was made, and its entries
// ordered by ban id; with, as of the court's date AsOf, the entries about
// to start (Upcoming: first day after AsOf and no later than AsOf + 7
// days; never in Items, never blocking at the court's own check).
type Snapshot[D any] struct {
	Version     int64     `json:"version"`
	GeneratedAt time.Time `json:"generated_at"`
	// Court is the code (TR.OOOO) of the court the serving deployment
	// belongs to (JUIZADO_COURT): how a gate agent that follows several
	// courts names this one. Empty when the server was given none.
	Court    string     `json:"court,omitempty"`
	Items    []Entry[D] `json:"items"`
	Upcoming []Entry[D] `json:"upcoming"`
	AsOf     D          `json:"as_of"` // the court's date Upcoming counts from
	// CourtTime is the court's clock when this body was made (RFC 3339,
	// UTC; strictly increasing among the bodies one court process signs),
	// inside the signed bytes: a gate agent never takes a body older than
	// the one it holds for a fresh one, and measures its own clock's skew
	// with it. Zero (0001-01-01) from a court older than the field.
	// ../shared/API.md "Gate agent", "Freshness and anti-rollback".
	CourtTime time.Time `json:"court_time"`
	// Places is the venue table and the clubs' home venues of this
	// version (issue 32, item 2), after court_time in the signed body;
	// absent from a court older than the field.
	Places *Places `json:"places,omitempty"`
}

// Change reasons (why an entry entered or left the blocklist).
const (
	ReasonNewBan     = "new_ban"    // a sentence or order in force at once
	ReasonLifted     = "lifted"     // the ban ended by a decision: lifted, replaced by the final ban, converted, undone, reformed, annulled
	ReasonExpiry     = "expiry"     // the ban's last day passed
	ReasonStart      = "start"      // a ban decided earlier reached its first day (at midnight, or the final judgment)
	ReasonCorrection = "correction" // an entry's data changed, or a ban came to or left the list otherwise
	ReasonMember     = "member"     // a member named in a group ban
	ReasonContested  = "contested"  // a member's inclusion in a group ban contested and granted (issue 29): his ban ended at once
)

// Change is one addition or removal in the blocklist feed: the entry as
// added, or as it was when removed, at Version.
type Change[D any] struct {
	Version int64  `json:"version"`
	Op      string `json:"op"` // add | remove
	Reason  string `json:"reason"`
	Entry[D]
}

// MarshalJSON keeps the change flat, the ban id first: {version, op,
// reason, ban_id, cpf, ...}.
func (c Change[D]) MarshalJSON() ([]byte, error) {
	e := c.Entry
	return json.Marshal(flatChange[D]{c.Version, c.Op, c.Reason, e.BanID, e.CPF, e.Name, e.BirthDate, e.FirstDay, e.LastDay, e.GroupBanID, e.CaseNumber, e.Court, e.Scope, e.MatchDays})
}

// flatChange is a Change as the court writes it.
type flatChange[D any] struct {
	Version    int64  `json:"version"`
	Op         string `json:"op"`
	Reason     string `json:"reason"`
	BanID      int64  `json:"ban_id"`
	CPF        string `json:"cpf"`
	Name       string `json:"name"`
	BirthDate  *D     `json:"birth_date"`
	FirstDay   D      `json:"first_day"`
	LastDay    *D     `json:"last_day"`
	GroupBanID *int64 `json:"group_ban_id"`
	CaseNumber string `json:"case_number"`
	Court      string `json:"court"`
	Scope      *Scope `json:"scope"`
	MatchDays  []D    `json:"match_days,omitempty"`
}

// FeedPage is one page of the change feed, the body of GET
// /api/v1/blocklist/changes (its court time and the agent's nonce signed
// with it): applying Changes to the snapshot of version
// From gives the snapshot of version To. When a single version holds more
// changes than a page, the page has a Cursor and To == From: call again
// with the same since and that cursor. FromCursor repeats the cursor the
// page was asked with, so that the signature over the page also binds it
// to the position it continues from. The page that reaches the latest
// version (To is the current version, no Cursor) also carries Upcoming,
// the whole set of upcoming entries as of the court's date AsOf
// (Snapshot.Upcoming): a gate replaces its own set with it.
type FeedPage[D any] struct {
	From       int64       `json:"from"`
	FromCursor string      `json:"from_cursor,omitempty"`
	To         int64       `json:"to"`
	Changes    []Change[D] `json:"changes"`
	Cursor     string      `json:"cursor,omitempty"`
	Upcoming   *[]Entry[D] `json:"upcoming,omitempty"`
	AsOf       *D          `json:"as_of,omitempty"`
	// CourtTime is the court's clock when the page was made (Snapshot.CourtTime).
	CourtTime time.Time `json:"court_time"`
	// Nonce echoes the nonce= query parameter the page was asked with (at
	// most MaxNonce characters; absent when none was sent): signed with the
	// page, it proves to the agent that sent a fresh one that the page was
	// made for its request, not recorded and replayed.
	Nonce string `json:"nonce,omitempty"`
	// PlacesDigest is the Digest of the court's places when the page was
	// made, on the page that reaches the latest version; Places is given
	// with it unless the request's places= named the same digest (the
	// agent holds them). Both absent from a court older than the fields.
	PlacesDigest string  `json:"places_digest,omitempty"`
	Places       *Places `json:"places,omitempty"`
}

// MaxNonce is the most characters of a feed request's nonce= (a longer
// one is 422 on nonce). ../shared/API.md "Gate agent".
const MaxNonce = 64

// CheckBan is one ban in force behind a blocked CPF in a check's answer
// (GET /api/v1/blocklist/check/{cpf}, and the gate agent's /check).
type CheckBan[D any] struct {
	BanID      int64  `json:"ban_id"`
	FirstDay   D      `json:"first_day"`
	LastDay    *D     `json:"last_day"`
	CaseNumber string `json:"case_number"`
	Court      string `json:"court"`
	// Scope and MatchDays as on the blocklist entry; absent for a ban that
	// applies anywhere (the answer of an unscoped ban is unchanged).
	Scope     *Scope `json:"scope,omitempty"`
	MatchDays []D    `json:"match_days,omitempty"`
}
