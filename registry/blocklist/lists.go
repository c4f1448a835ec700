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
	"github.com/juizado/juizado/registry/blocklist/wire"
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

// The blocklist as the court signs it (registry/blocklist/wire, the one
// definition the gate agent reads too), with its dates as civil.Date in
// the court's zone. DOMAIN.md §6; ../shared/API.md "Public list and
// blocklist".
type (
	// Entry is one blocklist item: one ban in force for a CPF (a person
	// with two bans has two entries).
	Entry = wire.Entry[civil.Date]
	// Snapshot is a blocklist version with its entries and, as of the
	// court's date AsOf, the entries about to start (Upcoming).
	Snapshot = wire.Snapshot[civil.Date]
	// Change is one addition or removal in the change feed.
	Change = wire.Change[civil.Date]
	// FeedPage is one page of the change feed (Lists.Changes).
	FeedPage = wire.FeedPage[civil.Date]
	// CheckBan is one ban in force behind a blocked CPF.
	CheckBan = wire.CheckBan[civil.Date]
)

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

// Check tells whether cpf is blocked now: blocked while any of its bans is in
// force (DOMAIN.md §6). The CPF must already be valid (ParseCPF).
func (l *Lists) Check(ctx context.Context, cpf registry.CPF) (*CheckResult, error) {
	bans, err := l.inForceOn(ctx, func(q *gorm.DB) *gorm.DB {
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
	bans, err := l.inForceOn(ctx, func(q *gorm.DB) *gorm.DB {
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

// inForceOn returns the bans in force on the court's today (sanctions.Ban.InForce,
// with the SQL of sanctions.InForceCond: DOMAIN.md §3; Súmula 643 STJ),
// ordered by id, on the connection or transaction of ctx; where narrows
// the query (nil for all). The blocklist reads table bans here, as
// migrations/owners_test.go declares (the owner of bans is cases/decisions).
func (l *Lists) inForceOn(ctx context.Context, where func(*gorm.DB) *gorm.DB) ([]sanctions.Ban, error) {
	c := sanctions.InForceCond("", l.today())
	q := db.Conn(ctx, l.DB).WithContext(ctx).Model(&sanctions.Ban{}).Where(c.SQL, c.Args...)
	if where != nil {
		q = where(q)
	}
	var out []sanctions.Ban
	err := q.Order("id").Find(&out).Error
	return out, err
}
