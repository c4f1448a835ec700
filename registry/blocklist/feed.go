package blocklist

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry/blocklist/wire"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
)

// entryRow is an entry as stored (case number in 20 digits).
type entryRow struct {
	BanID      int64
	CPF        string `gorm:"column:cpf"`
	Name       string
	BirthDate  *civil.Date
	FirstDay   civil.Date
	LastDay    *civil.Date
	GroupBanID *int64
	CaseNumber string
	Court      string
	Scope      *sanctions.Scope
	MatchDays  sanctions.DayList `gorm:"type:jsonb"`
}

func (l *Lists) entry(r entryRow) Entry {
	return Entry{CPF: r.CPF, Name: r.Name, BirthDate: r.BirthDate, FirstDay: r.FirstDay, LastDay: r.LastDay,
		BanID: r.BanID, GroupBanID: r.GroupBanID, CaseNumber: l.number(strings.TrimSpace(r.CaseNumber)), Court: r.Court,
		Scope: r.Scope, MatchDays: r.MatchDays}
}

type changeRow struct {
	ID      int64 `gorm:"primaryKey"`
	Version int64
	Op      string
	Reason  string
	E       entryRow `gorm:"embedded"`
}

func (changeRow) TableName() string { return "blocklist_changes" }

// Version is a blocklist version: its number and when it was made.
type Version struct {
	Version     int64
	GeneratedAt time.Time
}

// diffRow is one difference between the bans in force and the stored entries.
type diffRow struct {
	Kind       string // add | remove | change
	BanID      int64
	New        entryRow `gorm:"embedded;embeddedPrefix:n_"`
	Old        entryRow `gorm:"embedded;embeddedPrefix:o_"`
	BanExists  bool
	BanStatus  *string
	BanLastDay *civil.Date
}

// entriesSQL selects the blocklist entries of the bans that meet cond (an
// SQL condition on bans b): those whose person has a CPF. A ban of a
// person without a CPF stays out (AwaitingIdentification). A member's ban
// carries its group ban (group_ban_id).
func entriesSQL(cond string) string {
	return `
	SELECT b.id AS ban_id, b.cpf, b.name, b.birth_date, b.first_day, b.last_day, b.group_ban_id,
	       b.case_number, b.court_code AS court, ` + entryScopeSQL + ` AS scope, b.match_days
	FROM bans b
	WHERE ` + cond + ` AND b.cpf IS NOT NULL`
}

// entryScopeSQL is the scope of ban b as its blocklist entry carries it:
// the ban's own scope and, when it names clubs, club_venues
// (sanctions.ClubVenue): the venues of the ban's court's schedule where a
// named club plays at home, each with the days its matches there are all
// other clubs' home matches. It is Lists.Applicable's rule for the clubs
// of a scope written out, so that a gate agent, which has no schedule,
// answers as the court's check does. A schedule imported later changes
// the entry, and the next refresh publishes it (the diff compares scopes).
const entryScopeSQL = `CASE WHEN jsonb_typeof(b.scope->'clubs') = 'array' AND jsonb_array_length(b.scope->'clubs') > 0
	THEN b.scope || jsonb_build_object('club_venues', COALESCE((
		SELECT jsonb_agg(jsonb_build_object('venue', v.name, 'venue_id', v.id, 'open_days', COALESCE((
			SELECT jsonb_agg(to_char(o.match_date, 'YYYY-MM-DD') ORDER BY o.match_date)
			FROM (SELECT m.match_date FROM matches m
			      WHERE m.court_code = b.court_code AND m.venue_id = v.id AND NOT m.cancelled
			      GROUP BY m.match_date
			      HAVING bool_and(f_unaccent(m.home) NOT IN (SELECT f_unaccent(x) FROM jsonb_array_elements_text(b.scope->'clubs') x))) o
		), '[]'::jsonb)) ORDER BY v.id)
		FROM venues v
		WHERE EXISTS (SELECT 1 FROM matches m WHERE m.court_code = b.court_code AND m.venue_id = v.id
		              AND f_unaccent(m.home) IN (SELECT f_unaccent(x) FROM jsonb_array_elements_text(b.scope->'clubs') x))
	), '[]'::jsonb))
	ELSE b.scope END`

// inForceSQL selects the blocklist entries in force on a day
// (sanctions.InForceCond); its arguments are inForceArgs(day).
var inForceSQL = entriesSQL(sanctions.InForceCond("b", civil.Date{}).SQL)

func inForceArgs(day civil.Date) []any { return sanctions.InForceCond("b", day).Args }

// upcomingSQL selects the upcoming entries on a day (sanctions.UpcomingCond),
// ordered by ban id; its arguments are those of UpcomingCond("b", day).
var upcomingSQL = entriesSQL(sanctions.UpcomingCond("b", civil.Date{}).SQL) + " ORDER BY b.id"

// Upcoming returns the blocklist entries of the bans that will be in force
// from a first day after today (the court's date) and no later than today
// + sanctions.UpcomingDays, ordered by ban id (Snapshot.Upcoming). They are
// not in the version's items, and the court's check does not block on them.
func (l *Lists) Upcoming(ctx context.Context, today civil.Date) ([]Entry, error) {
	return l.upcoming(db.Conn(ctx, l.DB), today)
}

func (l *Lists) upcoming(tx *gorm.DB, today civil.Date) ([]Entry, error) {
	var rows []entryRow
	if err := tx.Raw(upcomingSQL, sanctions.UpcomingCond("b", today).Args...).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = l.entry(r)
	}
	return out, nil
}

// blocklistLock serialises version assignment (pg_advisory_xact_lock key);
// the trigger of migration 00032 takes it too and numbers each version the
// last one plus one, so the versions have no gap, even after a failover.
const blocklistLock = 0x6a75697a61646f01

// diffSQL compares the entries in force (cur) with the stored set; the
// %s slots narrow both sides to some bans (diffSome) or not at all. Its
// arguments: inForceArgs(day) first, then those of the slots.
var diffSQLTemplate = `
	WITH cur AS (` + inForceSQL + ` %s)
	SELECT CASE WHEN e.ban_id IS NULL THEN 'add' WHEN c.ban_id IS NULL THEN 'remove' ELSE 'change' END AS kind,
	       COALESCE(c.ban_id, e.ban_id) AS ban_id,
	       c.ban_id AS n_ban_id, c.cpf AS n_cpf, c.name AS n_name, c.birth_date AS n_birth_date, c.first_day AS n_first_day,
	       c.last_day AS n_last_day, c.group_ban_id AS n_group_ban_id, c.case_number AS n_case_number, c.court AS n_court,
	       c.scope AS n_scope, c.match_days AS n_match_days,
	       e.ban_id AS o_ban_id, e.cpf AS o_cpf, e.name AS o_name, e.birth_date AS o_birth_date, e.first_day AS o_first_day,
	       e.last_day AS o_last_day, e.group_ban_id AS o_group_ban_id, e.case_number AS o_case_number, e.court AS o_court,
	       e.scope AS o_scope, e.match_days AS o_match_days,
	       b.id IS NOT NULL AS ban_exists, b.status AS ban_status, b.last_day AS ban_last_day
	FROM cur c
	FULL JOIN (SELECT * FROM blocklist_entries %s) e ON e.ban_id = c.ban_id
	LEFT JOIN bans b ON b.id = COALESCE(c.ban_id, e.ban_id)
	WHERE c.ban_id IS NULL OR e.ban_id IS NULL
	   OR (c.cpf, c.name, c.birth_date, c.first_day, c.last_day, c.group_ban_id, c.case_number, c.court, c.scope, c.match_days)
	      IS DISTINCT FROM (e.cpf, e.name, e.birth_date, e.first_day, e.last_day, e.group_ban_id, e.case_number, e.court, e.scope, e.match_days)
	ORDER BY 2`

var (
	diffSQL  = fmt.Sprintf(diffSQLTemplate, "", "")
	diffSome = fmt.Sprintf(diffSQLTemplate, "AND b.id = ANY(?)", "WHERE ban_id = ANY(?)")
)

// Refresh makes a new blocklist version when the entries in force now differ
// from the latest version's, with one change per addition and removal,
// inside the caller's transaction when there is one (a sentence), so that
// versions follow commit order (pg_advisory_xact_lock). It is also how a ban
// that starts or ends at midnight makes a version with nobody acting (the
// server calls it every minute).
func (l *Lists) Refresh(ctx context.Context) error {
	return db.WithTx(ctx, l.DB, func(ctx context.Context) error {
		_, err := l.refresh(ctx, nil)
		return err
	})
}

// RefreshBans is Refresh for a write that changed only the bans banIDs (a
// sentence and its member bans, a lifting, an extension): while the court's
// date is the one of the latest version, only those bans can have changed
// their entries, so only they are compared — the cost no longer grows with
// the blocklist. On a new day it falls back to the full comparison, which
// also picks up bans starting or ending at midnight. With no ids it is
// Refresh.
func (l *Lists) RefreshBans(ctx context.Context, banIDs ...int64) error {
	return db.WithTx(ctx, l.DB, func(ctx context.Context) error {
		_, err := l.refresh(ctx, banIDs)
		return err
	})
}

// refresh runs in a transaction: it takes the blocklist lock, writes a
// version when needed, and returns the latest version.
func (l *Lists) refresh(ctx context.Context, only []int64) (Version, error) {
	tx := db.Conn(ctx, l.DB)
	if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", int64(blocklistLock)).Error; err != nil {
		return Version{}, err
	}
	var feed struct {
		Floor       int64
		Initialised bool
	}
	if err := tx.Raw("SELECT floor, initialised FROM blocklist_feed").Scan(&feed).Error; err != nil {
		return Version{}, err
	}
	var last struct {
		Version     int64
		GeneratedAt time.Time
		Digest      []byte
		Entries     int
		MaxBanID    int64
	}
	if err := tx.Raw("SELECT version, generated_at, digest, entries, max_ban_id FROM blocklist_versions ORDER BY version DESC LIMIT 1").Scan(&last).Error; err != nil {
		return Version{}, err
	}
	today := l.today()
	var diff []diffRow
	sameDay := last.Version != 0 && feed.Initialised && civil.Today(last.GeneratedAt, l.Loc) == today
	if len(only) > 0 && sameDay {
		ids := pgIDs(only)
		if err := tx.Raw(diffSome, append(inForceArgs(today), ids, ids)...).Scan(&diff).Error; err != nil {
			return Version{}, err
		}
	} else if err := tx.Raw(diffSQL, inForceArgs(today)...).Scan(&diff).Error; err != nil {
		return Version{}, err
	}
	if last.Version != 0 && feed.Initialised && len(diff) == 0 {
		return Version{last.Version, last.GeneratedAt.UTC()}, nil
	}
	prevDay := civil.Today(last.GeneratedAt, l.Loc)
	var removes, adds []changeRow
	for _, d := range diff {
		switch d.Kind {
		case "add":
			reason := wire.ReasonNewBan
			switch {
			case d.New.GroupBanID != nil:
				reason = wire.ReasonMember
			case last.Version != 0 && d.BanID <= last.MaxBanID: // the ban existed at the last version
				reason = wire.ReasonCorrection
				if !d.New.FirstDay.Before(prevDay) {
					reason = wire.ReasonStart
				}
			}
			adds = append(adds, changeRow{Op: "add", Reason: reason, E: d.New})
		case "remove":
			reason := wire.ReasonCorrection
			switch {
			case !d.BanExists:
			case d.BanStatus != nil && *d.BanStatus == "contested":
				reason = wire.ReasonContested
			case d.BanStatus != nil && *d.BanStatus != "active":
				reason = wire.ReasonLifted
			case d.BanLastDay != nil && d.BanLastDay.Before(today):
				reason = wire.ReasonExpiry
			}
			removes = append(removes, changeRow{Op: "remove", Reason: reason, E: d.Old})
		default:
			removes = append(removes, changeRow{Op: "remove", Reason: wire.ReasonCorrection, E: d.Old})
			adds = append(adds, changeRow{Op: "add", Reason: wire.ReasonCorrection, E: d.New})
		}
	}
	all := append(removes, adds...)
	// The digest chains the versions: SHA-256(previous digest, changes).
	h := sha256.New()
	h.Write(last.Digest)
	body, _ := json.Marshal(all)
	h.Write(body)
	now := l.Clock.Now()
	var v Version
	if err := tx.Raw(`INSERT INTO blocklist_versions (generated_at, digest, entries, max_ban_id)
		VALUES (?, ?, ?, (SELECT COALESCE(max(id), 0) FROM bans)) RETURNING version, generated_at`,
		now, h.Sum(nil), last.Entries+len(adds)-len(removes)).Scan(&v).Error; err != nil {
		return Version{}, err
	}
	v.GeneratedAt = v.GeneratedAt.UTC()
	if len(all) > 0 {
		for i := range all {
			all[i].Version = v.Version
		}
		if err := tx.CreateInBatches(all, 500).Error; err != nil {
			return Version{}, err
		}
		if len(removes) > 0 {
			if err := tx.Exec(`DELETE FROM blocklist_entries e USING blocklist_changes c
				WHERE c.version = ? AND c.op = 'remove' AND e.ban_id = c.ban_id`, v.Version).Error; err != nil {
				return Version{}, err
			}
		}
		if len(adds) > 0 {
			if err := tx.Exec(`INSERT INTO blocklist_entries (ban_id, cpf, name, birth_date, first_day, last_day, group_ban_id, case_number, court, scope, match_days)
				SELECT ban_id, cpf, name, birth_date, first_day, last_day, group_ban_id, case_number, court, scope, match_days
				FROM blocklist_changes WHERE version = ? AND op = 'add' ORDER BY id`, v.Version).Error; err != nil {
				return Version{}, err
			}
		}
	}
	if !feed.Initialised {
		// A database that had versions before the feed: the feed starts here.
		if err := tx.Exec("UPDATE blocklist_feed SET floor = ?, initialised = true", v.Version).Error; err != nil {
			return Version{}, err
		}
	}
	if l.OnVersion != nil {
		l.OnVersion(v.Version)
	}
	return v, nil
}

// pgIDs writes ids as a PostgreSQL bigint[] literal.
func pgIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Current returns the blocklist in force now with its version, making a new
// version first when the entries changed since the latest one.
func (l *Lists) Current(ctx context.Context) (*Snapshot, error) {
	var snap *Snapshot
	err := db.WithTx(ctx, l.DB, func(ctx context.Context) error {
		v, err := l.refresh(ctx, nil)
		if err != nil {
			return err
		}
		items, err := l.storedEntries(ctx)
		if err != nil {
			return err
		}
		today := l.today()
		up, err := l.upcoming(db.Conn(ctx, l.DB), today)
		if err != nil {
			return err
		}
		snap = &Snapshot{Version: v.Version, GeneratedAt: v.GeneratedAt, Items: items, Upcoming: up, AsOf: today}
		return nil
	})
	return snap, err
}

func (l *Lists) storedEntries(ctx context.Context) ([]Entry, error) {
	var rows []entryRow
	if err := db.Conn(ctx, l.DB).Raw("SELECT * FROM blocklist_entries ORDER BY ban_id").Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = l.entry(r)
	}
	return out, nil
}

// readOnly runs fn in its own REPEATABLE READ read-only transaction: one
// consistent view of versions, entries and changes.
func (l *Lists) readOnly(ctx context.Context, fn func(ctx context.Context, tx *gorm.DB) error) error {
	return l.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return fn(ctx, tx)
	}, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
}

// Latest returns the latest blocklist version (zero when none was made yet),
// without making one.
func (l *Lists) Latest(ctx context.Context) (Version, error) {
	var v Version
	err := db.Conn(ctx, l.DB).Raw("SELECT version, generated_at FROM blocklist_versions ORDER BY version DESC LIMIT 1").Scan(&v).Error
	v.GeneratedAt = v.GeneratedAt.UTC()
	return v, err
}

// Read returns the latest stored version with its entries and the upcoming
// entries of the court's date, in one consistent read, without making a
// new version (Refresh does that).
func (l *Lists) Read(ctx context.Context) (*Snapshot, error) {
	var snap *Snapshot
	err := l.readOnly(ctx, func(ctx context.Context, tx *gorm.DB) error {
		var v Version
		if err := tx.Raw("SELECT version, generated_at FROM blocklist_versions ORDER BY version DESC LIMIT 1").Scan(&v).Error; err != nil {
			return err
		}
		var rows []entryRow
		if err := tx.Raw("SELECT * FROM blocklist_entries ORDER BY ban_id").Scan(&rows).Error; err != nil {
			return err
		}
		items := make([]Entry, len(rows))
		for i, r := range rows {
			items[i] = l.entry(r)
		}
		today := l.today()
		up, err := l.upcoming(tx, today)
		if err != nil {
			return err
		}
		snap = &Snapshot{Version: v.Version, GeneratedAt: v.GeneratedAt.UTC(), Items: items, Upcoming: up, AsOf: today}
		return nil
	})
	return snap, err
}

// MaxFeedPage is the largest page of the change feed.
const MaxFeedPage = 1000

// ErrFeedGone is returned by Changes when since is older than the oldest
// version the feed keeps (HTTP 410): take a new snapshot.
var ErrFeedGone = errs.New(errs.Gone, "A versão pedida é anterior ao que o feed de alterações guarda: baixe a lista completa (GET /api/v1/blocklist) e continue a partir da versão dela.")

// Changes returns the changes after version since, in version order, at
// most limit (1..MaxFeedPage) of them, never splitting a version across
// pages unless the version alone holds more than limit changes (then cursor
// pages within it).
//
// A cursor is bound to the since it was issued for and authenticated with
// the server's cursor key (HMAC-SHA256, CursorKey): a cursor of another
// since, altered or made up would skip changes the gate never received
// while the page claimed to start at since.
//
// Errors: ErrFeedGone; an errs.Invalid on "since" when it is negative or
// above the latest version; on "cursor" when it is malformed, not issued by
// this server (or altered), issued for another since, or points outside
// (since, current version].
func (l *Lists) Changes(ctx context.Context, since int64, limit int, cursor string) (*FeedPage, error) {
	if limit <= 0 || limit > MaxFeedPage {
		limit = MaxFeedPage
	}
	if since < 0 {
		return nil, errs.InvalidField("since", "min", "since deve ser uma versão (inteiro não negativo).")
	}
	startVersion, startID := since, int64(-1)
	if cursor != "" {
		key, err := l.cursorKey()
		if err != nil {
			return nil, err
		}
		cv, cid, err := openCursor(key, cursor, since)
		if err != nil {
			return nil, err
		}
		startVersion, startID = cv, cid
	}
	var page *FeedPage
	err := l.readOnly(ctx, func(ctx context.Context, tx *gorm.DB) error {
		var cur int64
		if err := tx.Raw("SELECT COALESCE(max(version), 0) FROM blocklist_versions").Scan(&cur).Error; err != nil {
			return err
		}
		if since > cur {
			return errs.InvalidField("since", "max", fmt.Sprintf("since (%d) é maior que a versão atual (%d).", since, cur))
		}
		if startVersion > cur { // an authentic cursor never does this; a database restored to an earlier state might
			return errs.InvalidField("cursor", "cursor_range", fmt.Sprintf(
				"cursor aponta para a versão %d, fora do intervalo de since (%d, exclusive) à versão atual (%d): repita a chamada com since=%d, sem cursor.", startVersion, since, cur, since))
		}
		var floor int64
		if err := tx.Raw("SELECT floor FROM blocklist_feed").Scan(&floor).Error; err != nil {
			return err
		}
		if since < floor {
			return ErrFeedGone
		}
		// Both reads walk the index (version, id).
		var rows []changeRow
		if startID >= 0 { // the rest of the cursor's version
			if err := tx.Raw(`SELECT * FROM blocklist_changes WHERE version = ? AND id > ? ORDER BY version, id LIMIT ?`,
				startVersion, startID, limit+1).Scan(&rows).Error; err != nil {
				return err
			}
		}
		if len(rows) <= limit {
			var more []changeRow
			if err := tx.Raw(`SELECT * FROM blocklist_changes WHERE version > ? AND version <= ? ORDER BY version, id LIMIT ?`,
				startVersion, cur, limit+1-len(rows)).Scan(&more).Error; err != nil {
				return err
			}
			rows = append(rows, more...)
		}
		page = &FeedPage{From: since, FromCursor: cursor, To: cur}
		if len(rows) > limit {
			next := rows[limit].Version
			n := 0
			for n < limit && rows[n].Version < next {
				n++
			}
			if n > 0 {
				rows = rows[:n]
				page.To = rows[n-1].Version
			} else {
				rows = rows[:limit]
				page.To = since
				key, err := l.cursorKey()
				if err != nil {
					return err
				}
				page.Cursor = sealCursor(key, since, rows[limit-1].Version, rows[limit-1].ID)
			}
		}
		page.Changes = make([]Change, len(rows))
		for i, r := range rows {
			page.Changes[i] = Change{Version: r.Version, Op: r.Op, Reason: r.Reason, Entry: l.entry(r.E)}
		}
		if page.To == cur && page.Cursor == "" {
			today := l.today()
			up, err := l.upcoming(tx, today)
			if err != nil {
				return err
			}
			page.Upcoming, page.AsOf = &up, &today
		}
		return nil
	})
	return page, err
}

// cursorKey returns the key that authenticates cursors: CursorKey, or a key
// of this process when none is set (then only this process accepts the
// cursors it issued).
func (l *Lists) cursorKey() ([]byte, error) {
	if l.CursorKey != nil {
		return l.CursorKey()
	}
	l.localKeyOnce.Do(func() {
		l.localKey = make([]byte, 32)
		_, _ = rand.Read(l.localKey)
	})
	return l.localKey, nil
}

// A cursor is the base64url (no padding) of 41 bytes: a format byte (1),
// then big-endian since, version and change id (8 bytes each), then the
// first 16 bytes of HMAC-SHA256 over the first 25 bytes, keyed with the
// cursor key and prefixed with cursorMACContext.
const (
	cursorFormat     = 1
	cursorPayload    = 1 + 3*8
	cursorMACLen     = 16
	cursorMACContext = "juizado blocklist feed cursor v1\x00"
)

func cursorMAC(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(cursorMACContext))
	m.Write(payload)
	return m.Sum(nil)[:cursorMACLen]
}

// sealCursor makes the cursor that continues the pages of since after
// change id of version.
func sealCursor(key []byte, since, version, id int64) string {
	b := make([]byte, cursorPayload, cursorPayload+cursorMACLen)
	b[0] = cursorFormat
	binary.BigEndian.PutUint64(b[1:9], uint64(since))
	binary.BigEndian.PutUint64(b[9:17], uint64(version))
	binary.BigEndian.PutUint64(b[17:25], uint64(id))
	return base64.RawURLEncoding.EncodeToString(append(b, cursorMAC(key, b)...))
}

// openCursor checks a cursor sent with since and returns the position it
// continues from: an errs.Invalid on "cursor" when it is malformed, its MAC
// does not verify, it was issued for another since, or its version is not
// after since.
func openCursor(key []byte, s string, since int64) (version, id int64, err error) {
	b, decErr := base64.RawURLEncoding.DecodeString(s)
	if decErr != nil || len(b) != cursorPayload+cursorMACLen || b[0] != cursorFormat {
		return 0, 0, errs.InvalidField("cursor", "cursor", "cursor inválido: use o valor devolvido pela página anterior, com o mesmo since.")
	}
	if !hmac.Equal(cursorMAC(key, b[:cursorPayload]), b[cursorPayload:]) {
		return 0, 0, errs.InvalidField("cursor", "cursor_signature", fmt.Sprintf(
			"cursor não foi emitido por este servidor ou foi alterado: use o valor devolvido pela página anterior, com o mesmo since, ou repita a chamada com since=%d sem cursor.", since))
	}
	cs := int64(binary.BigEndian.Uint64(b[1:9]))
	version = int64(binary.BigEndian.Uint64(b[9:17]))
	id = int64(binary.BigEndian.Uint64(b[17:25]))
	if cs != since {
		return 0, 0, errs.InvalidField("cursor", "cursor_since", fmt.Sprintf(
			"cursor foi emitido para since=%d, não para since=%d: um cursor só vale com o mesmo since da página que o devolveu (repita com since=%d, ou chame since=%d sem cursor).", cs, since, cs, since))
	}
	if version <= since || id < 0 {
		return 0, 0, errs.InvalidField("cursor", "cursor_range", fmt.Sprintf(
			"cursor aponta para a versão %d, fora do intervalo de since (%d, exclusive) à versão atual: repita a chamada com since=%d, sem cursor.", version, since, since))
	}
	return version, id, nil
}

// FeedRetention is how long the change feed keeps a version's changes: a
// gate offline for longer takes a new snapshot (410 on the feed).
const FeedRetention = 90 * 24 * time.Hour

// PruneFeedOlderThan forgets the changes of the versions made before cutoff
// (all but the latest version, which a snapshot always reflects).
func (l *Lists) PruneFeedOlderThan(ctx context.Context, cutoff time.Time) error {
	var before int64
	err := db.Conn(ctx, l.DB).Raw(`SELECT coalesce(max(version), 0) FROM blocklist_versions
		WHERE generated_at < ? AND version < (SELECT max(version) FROM blocklist_versions)`, cutoff).Scan(&before).Error
	if err != nil || before == 0 {
		return err
	}
	return l.PruneFeed(ctx, before)
}

// PruneFeed forgets the changes of versions up to and including before: a
// gate whose version is older must take a new snapshot (410 on the feed).
func (l *Lists) PruneFeed(ctx context.Context, before int64) error {
	return db.WithTx(ctx, l.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, l.DB)
		if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", int64(blocklistLock)).Error; err != nil {
			return err
		}
		if err := tx.Exec("DELETE FROM blocklist_changes WHERE version <= ?", before).Error; err != nil {
			return err
		}
		return tx.Exec("UPDATE blocklist_feed SET floor = GREATEST(floor, ?)", before).Error
	})
}

// Discrepancy is a difference between the blocklist's stored entries and
// the bans in force: a ban in force with no entry (add), an entry with no
// ban in force (remove), or an entry whose days or person differ (change).
type Discrepancy struct {
	Kind  string `json:"kind"` // add | remove | change
	BanID int64  `json:"ban_id"`
}

// Reconcile checks that the blocklist's entries are exactly the bans in
// force today (issue 16, item 4: a ban edited in SQL left the blocklist
// behind, with no version). It returns the differences; with fix, it then
// makes a version for them (their changes carry the reason "correction"),
// and returns that version (zero without fix or differences).
func (l *Lists) Reconcile(ctx context.Context, fix bool) ([]Discrepancy, Version, error) {
	var out []Discrepancy
	var v Version
	err := db.WithTx(ctx, l.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, l.DB)
		today := l.today()
		var diff []diffRow
		if err := tx.Raw(diffSQL, inForceArgs(today)...).Scan(&diff).Error; err != nil {
			return err
		}
		for _, d := range diff {
			id := d.BanID
			if id == 0 {
				id = d.New.BanID
			}
			if id == 0 {
				id = d.Old.BanID
			}
			out = append(out, Discrepancy{Kind: d.Kind, BanID: id})
		}
		if !fix || len(diff) == 0 {
			return nil
		}
		var err error
		v, err = l.refresh(ctx, nil)
		return err
	})
	return out, v, err
}
