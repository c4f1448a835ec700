package blocklist

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
)

// Lists builds the public list of banned fans and the gate blocklist from
// the bans in force at the clock's instant, in the court's zone.
type Lists struct {
	DB    *gorm.DB
	Clock clock.Clock
	Loc   *time.Location // America/Sao_Paulo
	// FormatNumber formats a 20-digit CNJ number for people and gates.
	FormatNumber func(string) string
	// OnVersion, when set, is told each new version number as Refresh makes
	// it (inside its transaction, before the commit): caches use it to look
	// for the new version on their next read.
	OnVersion func(version int64)
	// CursorKey, when set, returns the secret that authenticates the change
	// feed's cursors (KeyRing.CursorKey: shared by the servers of one key
	// directory); unset, each Lists makes a key of its own.
	CursorKey func() ([]byte, error)

	localKeyOnce sync.Once
	localKey     []byte
}

// Entry is one blocklist item: one ban in force for a CPF (a person with two
// bans has two entries). DOMAIN.md §6; ../shared/API.md "Public list and
// blocklist".
type Entry struct {
	CPF        string      `json:"cpf"`
	Name       string      `json:"name"`
	BirthDate  *civil.Date `json:"birth_date"`
	FirstDay   civil.Date  `json:"first_day"`
	LastDay    *civil.Date `json:"last_day"` // null: precautionary, until lifted
	BanID      int64       `json:"ban_id"`
	GroupBanID *int64      `json:"group_ban_id"`
	CaseNumber string      `json:"case_number"`
	Court      string      `json:"court"`
	// Scope is where the ban applies: null is anywhere (every statutory
	// ban); else the venues (names and ids of the venue table) and the
	// clubs whose home matches it covers (sanctions.Scope).
	Scope *sanctions.Scope `json:"scope"`
	// MatchDays, for a term counted in matches: the days of those matches
	// (the ban blocks on them only; the last is LastDay). Absent otherwise.
	MatchDays sanctions.DayList `json:"match_days,omitempty" gorm:"type:jsonb"`
}

// Snapshot is a blocklist version: its number (assigned in commit order),
// when it was made, and its entries ordered by ban id; with, as of the
// court's date AsOf, the entries about to start (Upcoming).
type Snapshot struct {
	Version     int64     `json:"version"`
	GeneratedAt time.Time `json:"generated_at"`
	// Court is the code (TR.OOOO) of the court the serving deployment
	// belongs to (JUIZADO_COURT): how a gate agent that follows several
	// courts names this one. Empty when the server was given none.
	Court string `json:"court,omitempty"`
	// Items are the entries of the version: the bans in force.
	Items []Entry `json:"items"`
	// Upcoming are the entries of the bans that will be in force from a
	// first day after AsOf and no later than AsOf + 7 days
	// (sanctions.Ban.Upcoming), ordered by ban id: never in Items, never
	// blocking at the court's own check; a gate agent offline when one
	// starts blocks it from its first day. They move with the date and
	// with the sentences of bans that start later, with no new version.
	Upcoming []Entry `json:"upcoming"`
	// AsOf is the court's date (America/Sao_Paulo) the snapshot was read
	// on: the day Upcoming counts from.
	AsOf civil.Date `json:"as_of"`
}

// today is the court's calendar date now.
func (l *Lists) today() civil.Date { return civil.Today(l.Clock.Now(), l.Loc) }

func (l *Lists) number(n string) string {
	if l.FormatNumber == nil {
		return n
	}
	return l.FormatNumber(n)
}

// CheckResult answers a gate's CPF check.
type CheckResult struct {
	CPF     string     `json:"cpf"`
	Blocked bool       `json:"blocked"`
	Bans    []CheckBan `json:"bans"`
}

// CheckBan is one ban in force behind a blocked CPF.
type CheckBan struct {
	BanID      int64       `json:"ban_id"`
	FirstDay   civil.Date  `json:"first_day"`
	LastDay    *civil.Date `json:"last_day"`
	CaseNumber string      `json:"case_number"`
	Court      string      `json:"court"`
	// Scope and MatchDays as on the blocklist entry; absent for a ban that
	// applies anywhere (the answer of an unscoped ban is unchanged).
	Scope     *sanctions.Scope  `json:"scope,omitempty"`
	MatchDays sanctions.DayList `json:"match_days,omitempty" gorm:"type:jsonb"`
}

// Check tells whether cpf is blocked now: blocked while any of its bans is in
// force (DOMAIN.md §6). The CPF must already be valid (ParseCPF).
func (l *Lists) Check(ctx context.Context, cpf registry.CPF) (*CheckResult, error) {
	bans, err := sanctions.InForceOn(ctx, db.Conn(ctx, l.DB), l.today(), func(q *gorm.DB) *gorm.DB {
		return q.Where("cpf = ?", cpf.String())
	})
	if err != nil {
		return nil, err
	}
	res := &CheckResult{CPF: cpf.String(), Blocked: len(bans) > 0, Bans: []CheckBan{}}
	for _, b := range bans {
		res.Bans = append(res.Bans, CheckBan{BanID: b.ID, FirstDay: *b.FirstDay, LastDay: b.LastDay, CaseNumber: l.number(b.CaseNumber), Court: b.CourtCode,
			Scope: b.Scope, MatchDays: b.MatchDays})
	}
	return res, nil
}

// PublicEntry is a name on the public list of banned fans: no CPF, birth
// date, photo or address (Lei 10.671/2003, art. 5º, par. único, VI;
// DOMAIN.md §6).
type PublicEntry struct {
	Name       string      `json:"name"`
	FirstDay   civil.Date  `json:"first_day"`
	LastDay    *civil.Date `json:"last_day"`
	CaseNumber string      `json:"case_number"`
	Court      string      `json:"court"`
	// Scope is where the ban applies (null: anywhere) and ScopePT the
	// same in words, as the list shows it ("qualquer local em que se
	// realize evento esportivo", or the venues and clubs the judge named,
	// and the matches of a term counted in matches).
	Scope     *sanctions.Scope  `json:"scope"`
	MatchDays sanctions.DayList `json:"match_days,omitempty" gorm:"type:jsonb"`
	ScopePT   string            `json:"scope_pt"`
}

// PublicFilter narrows the public list: Court is a court code TR.OOOO, Club
// the home club of the case's event (case and accents ignored); empty
// fields do not filter.
type PublicFilter struct {
	Court string
	Club  string
}

// ValidCourt reports whether s is a court code TR.OOOO (e.g. 26.0100).
func ValidCourt(s string) bool {
	if len(s) != 7 || s[2] != '.' {
		return false
	}
	for i, r := range s {
		if i != 2 && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// Public returns the published bans in force today, ordered by name,
// narrowed by f.
func (l *Lists) Public(ctx context.Context, f PublicFilter) ([]PublicEntry, error) {
	// Only the published columns, sorted by PostgreSQL with the Portuguese
	// collation (Á with A, case ignored at the first level): at 480,000
	// bans in force the list is read and sorted in about a second, where
	// loading whole bans and folding names in Go took minutes.
	inForce := sanctions.InForceCond("", l.today())
	q := db.Conn(ctx, l.DB).Table("bans").
		Select("name, first_day, last_day, case_number, court_code AS court, scope, match_days, match_term").
		Where(inForce.SQL, inForce.Args...).Where("publish")
	if f.Court != "" {
		q = q.Where("court_code = ?", f.Court)
	}
	if club := strings.TrimSpace(f.Club); club != "" {
		q = q.Where("case_id IN (SELECT id FROM cases WHERE lower(f_unaccent(home_team)) = lower(f_unaccent(?)))", club)
	}
	var rows []struct {
		PublicEntry
		MatchTerm *sanctions.MatchTerm
	}
	if err := q.Order("name COLLATE juizado_pt, id").Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]PublicEntry, len(rows))
	for i, r := range rows {
		out[i] = r.PublicEntry
		out[i].CaseNumber = l.number(out[i].CaseNumber)
		out[i].ScopePT = sanctions.ScopePT(r.Scope)
		if r.MatchTerm != nil {
			out[i].ScopePT += "; " + sanctions.MatchTermPT(r.MatchTerm, r.MatchDays)
		}
	}
	return out, nil
}

// Awaiting is a ban in force whose person has no CPF: it stays out of the
// blocklist (never a name-only entry) until the court identifies the person.
type Awaiting struct {
	BanID       int64       `json:"ban_id"`
	CaseID      int64       `json:"case_id"`
	DefendantID int64       `json:"defendant_id"`
	Name        string      `json:"name"`
	BirthDate   *civil.Date `json:"birth_date"`
	FirstDay    civil.Date  `json:"first_day"`
	LastDay     *civil.Date `json:"last_day"`
	CaseNumber  string      `json:"case_number"`
	Court       string      `json:"court"`
}

// AwaitingIdentification returns the person bans in force today without a
// CPF, of court (all courts when empty), ordered by ban id.
func (l *Lists) AwaitingIdentification(ctx context.Context, court string) ([]Awaiting, error) {
	bans, err := sanctions.InForceOn(ctx, db.Conn(ctx, l.DB), l.today(), func(q *gorm.DB) *gorm.DB {
		q = q.Where("cpf IS NULL AND subject = 'person'")
		if court != "" {
			q = q.Where("court_code = ?", court)
		}
		return q
	})
	if err != nil {
		return nil, err
	}
	out := make([]Awaiting, 0, len(bans))
	for _, b := range bans {
		out = append(out, Awaiting{BanID: b.ID, CaseID: b.CaseID, DefendantID: b.DefendantID, Name: b.Name, BirthDate: b.BirthDate,
			FirstDay: *b.FirstDay, LastDay: b.LastDay, CaseNumber: l.number(b.CaseNumber), Court: b.CourtCode})
	}
	return out, nil
}
