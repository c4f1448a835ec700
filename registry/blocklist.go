package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"sort"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/db"
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
}

// Snapshot is a blocklist version: its number (assigned in commit order),
// when it was made, and its entries ordered by ban id.
type Snapshot struct {
	Version     int64     `json:"version"`
	GeneratedAt time.Time `json:"generated_at"`
	Items       []Entry   `json:"items"`
}

// today is the court's calendar date now.
func (l *Lists) today() civil.Date { return civil.Today(l.Clock.Now(), l.Loc) }

func (l *Lists) number(n string) string {
	if l.FormatNumber == nil {
		return n
	}
	return l.FormatNumber(n)
}

func (l *Lists) entries(ctx context.Context) ([]Entry, error) {
	bans, err := sanctions.InForceOn(ctx, db.Conn(ctx, l.DB), l.today(), func(q *gorm.DB) *gorm.DB {
		return q.Where("cpf IS NOT NULL")
	})
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(bans))
	for _, b := range bans {
		out = append(out, Entry{CPF: *b.CPF, Name: b.Name, BirthDate: b.BirthDate, FirstDay: b.FirstDay, LastDay: b.LastDay,
			BanID: b.ID, CaseNumber: l.number(b.CaseNumber), Court: b.CourtCode})
	}
	return out, nil
}

// blocklistLock serialises version assignment (pg_advisory_xact_lock key).
const blocklistLock = 0x6a75697a61646f01

// Refresh makes a new blocklist version when the entries in force now differ
// from the latest version's, inside the caller's transaction when there is
// one (a sentence), so that versions follow commit order. It is also how a
// ban that starts or ends at midnight makes a version with nobody acting.
func (l *Lists) Refresh(ctx context.Context) error {
	_, err := l.Current(ctx)
	return err
}

// Current returns the blocklist in force now with its version, making a new
// version first when the entries changed since the latest one.
func (l *Lists) Current(ctx context.Context) (*Snapshot, error) {
	var snap *Snapshot
	err := db.WithTx(ctx, l.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, l.DB)
		if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", int64(blocklistLock)).Error; err != nil {
			return err
		}
		items, err := l.entries(ctx)
		if err != nil {
			return err
		}
		digest, err := digestOf(items)
		if err != nil {
			return err
		}
		var last struct {
			Version     int64
			GeneratedAt time.Time
			Digest      []byte
		}
		if err := tx.Raw("SELECT version, generated_at, digest FROM blocklist_versions ORDER BY version DESC LIMIT 1").Scan(&last).Error; err != nil {
			return err
		}
		if last.Version == 0 || !bytes.Equal(last.Digest, digest) {
			now := l.Clock.Now()
			if err := tx.Raw("INSERT INTO blocklist_versions (generated_at, digest, entries) VALUES (?, ?, ?) RETURNING version, generated_at",
				now, digest, len(items)).Scan(&last).Error; err != nil {
				return err
			}
		}
		snap = &Snapshot{Version: last.Version, GeneratedAt: last.GeneratedAt.UTC(), Items: items}
		return nil
	})
	return snap, err
}

func digestOf(items []Entry) ([]byte, error) {
	b, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(b)
	return h[:], nil
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
}

// Check tells whether cpf is blocked now: blocked while any of its bans is in
// force (DOMAIN.md §6). The CPF must already be valid (ParseCPF).
func (l *Lists) Check(ctx context.Context, cpf CPF) (*CheckResult, error) {
	bans, err := sanctions.InForceOn(ctx, db.Conn(ctx, l.DB), l.today(), func(q *gorm.DB) *gorm.DB {
		return q.Where("cpf = ?", cpf.String())
	})
	if err != nil {
		return nil, err
	}
	res := &CheckResult{CPF: cpf.String(), Blocked: len(bans) > 0, Bans: []CheckBan{}}
	for _, b := range bans {
		res.Bans = append(res.Bans, CheckBan{BanID: b.ID, FirstDay: b.FirstDay, LastDay: b.LastDay, CaseNumber: l.number(b.CaseNumber), Court: b.CourtCode})
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
}

// Public returns the published bans in force today, ordered by name.
func (l *Lists) Public(ctx context.Context) ([]PublicEntry, error) {
	bans, err := sanctions.InForceOn(ctx, db.Conn(ctx, l.DB), l.today(), func(q *gorm.DB) *gorm.DB {
		return q.Where("publish")
	})
	if err != nil {
		return nil, err
	}
	out := make([]PublicEntry, 0, len(bans))
	for _, b := range bans {
		out = append(out, PublicEntry{Name: b.Name, FirstDay: b.FirstDay, LastDay: b.LastDay, CaseNumber: l.number(b.CaseNumber), Court: b.CourtCode})
	}
	sortByName(out)
	return out, nil
}

// sortByName orders names accent-insensitively, the way a reader expects
// (Á with A).
func sortByName(es []PublicEntry) {
	sort.SliceStable(es, func(i, j int) bool { return fold(es[i].Name) < fold(es[j].Name) })
}
