// Package audit reads and checks the audit trail (table audit_log, migration
// 00006): every write to the court's records, who, role, domain, instant,
// action, record, before and after, chained row to row by SHA-256, with
// signed checkpoints of the chain's head (Ed25519, key outside the database)
// so that rewriting the chain from a row onwards is caught too.
package audit

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// Entry is one row of the trail.
type Entry struct {
	ID        int64           `json:"id"`
	At        time.Time       `json:"at"`
	ActorID   *int64          `json:"actor_id"`
	ActorName string          `json:"actor_name"`
	Role      string          `json:"role"`
	Domain    string          `json:"domain"`
	Action    string          `json:"action"`
	Table     string          `json:"table" gorm:"column:table_name"`
	RecordID  string          `json:"record_id"`
	Before    json.RawMessage `json:"before"`
	After     json.RawMessage `json:"after"`
	RowHash   []byte          `json:"-"`
}

// TableName maps Entry to audit_log.
func (Entry) TableName() string { return "audit_log" }

// Broken says where the chain first fails.
type Broken struct {
	ID     int64  // first row that fails
	Reason string // what failed
}

// Error describes the break.
func (b *Broken) Error() string { return fmt.Sprintf("audit_log: row %d: %s", b.ID, b.Reason) }

// Verify recomputes every row's hash from its fields and the previous row's
// hash, in id order, and checks the signed checkpoints against the chain
// with the public keys given (key id → key). It returns nil when the trail
// is intact, a *Broken naming the first broken row otherwise.
func Verify(ctx context.Context, g *gorm.DB, keys map[string]ed25519.PublicKey) error {
	rows, err := db.Conn(ctx, g).Raw(`
		SELECT id,
		       row_hash = audit_row_hash(prev_hash, id, at, actor_id, actor_name, role, domain, action, table_name, record_id, before, after) AS hash_ok,
		       prev_hash = coalesce(lag(row_hash) OVER (ORDER BY id), '\x'::bytea) AS linked,
		       id - coalesce(lag(id) OVER (ORDER BY id), 0) AS gap
		FROM audit_log ORDER BY id`).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	var first *Broken
	for rows.Next() {
		var id, gap int64
		var hashOK, linked bool
		if err := rows.Scan(&id, &hashOK, &linked, &gap); err != nil {
			return err
		}
		switch {
		case !hashOK:
			first = &Broken{id, "o conteúdo da linha não confere com o seu hash (linha alterada)"}
		case !linked:
			first = &Broken{id, "a linha não está encadeada à anterior (linha removida ou inserida)"}
		}
		if first != nil {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if first != nil {
		return first
	}
	var cps []struct {
		ID        int64
		AuditID   int64
		HeadHash  []byte
		KeyID     string
		Signature []byte
	}
	if err := db.Conn(ctx, g).Raw("SELECT id, audit_id, head_hash, key_id, signature FROM audit_checkpoints ORDER BY id").Scan(&cps).Error; err != nil {
		return err
	}
	for _, cp := range cps {
		var h []byte
		if err := db.Conn(ctx, g).Raw("SELECT row_hash FROM audit_log WHERE id = ?", cp.AuditID).Row().Scan(&h); err != nil {
			return &Broken{cp.AuditID, fmt.Sprintf("a linha do ponto de controle %d não existe mais", cp.ID)}
		}
		if !bytes.Equal(h, cp.HeadHash) {
			return &Broken{cp.AuditID, fmt.Sprintf("o hash não confere com o ponto de controle assinado %d (cadeia reescrita)", cp.ID)}
		}
		pub, ok := keys[cp.KeyID]
		if !ok {
			return &Broken{cp.AuditID, fmt.Sprintf("ponto de controle %d assinado com chave desconhecida %s", cp.ID, cp.KeyID)}
		}
		if !ed25519.Verify(pub, checkpointMessage(cp.AuditID, cp.HeadHash), cp.Signature) {
			return &Broken{cp.AuditID, fmt.Sprintf("assinatura inválida no ponto de controle %d", cp.ID)}
		}
	}
	return nil
}

func checkpointMessage(auditID int64, head []byte) []byte {
	return []byte(fmt.Sprintf("juizado-audit-checkpoint:%d:%x", auditID, head))
}

// Signer signs checkpoints with a key kept outside the database: it returns
// the key id and the base64 of the Ed25519 signature (blocklist.KeyRing).
type Signer interface {
	Sign(msg []byte) (keyID, signature string, err error)
}

// ErrEmpty is returned by Checkpoint when the trail has no rows yet.
var ErrEmpty = errors.New("audit: the trail is empty")

// Checkpoint signs the current head of the chain and stores the signature;
// it returns the row id signed.
func Checkpoint(ctx context.Context, g *gorm.DB, s Signer) (int64, error) {
	var head struct {
		ID      int64
		RowHash []byte
	}
	if err := db.Conn(ctx, g).Raw("SELECT id, row_hash FROM audit_log ORDER BY id DESC LIMIT 1").Scan(&head).Error; err != nil {
		return 0, err
	}
	if head.ID == 0 {
		return 0, ErrEmpty
	}
	var last int64
	if err := db.Conn(ctx, g).Raw("SELECT coalesce(max(audit_id), 0) FROM audit_checkpoints").Scan(&last).Error; err != nil {
		return 0, err
	}
	if last == head.ID {
		return head.ID, nil // nothing new since the last checkpoint
	}
	keyID, sig64, err := s.Sign(checkpointMessage(head.ID, head.RowHash))
	if err != nil {
		return 0, err
	}
	sig, err := base64.StdEncoding.DecodeString(sig64)
	if err != nil {
		return 0, err
	}
	err = db.Conn(ctx, g).Exec("INSERT INTO audit_checkpoints (audit_id, head_hash, key_id, signature) VALUES (?, ?, ?, ?)",
		head.ID, head.RowHash, keyID, sig).Error
	return head.ID, err
}

// CheckpointRows and CheckpointEvery are how often the server signs a
// checkpoint: after this many rows, or this long after the last when any
// row was added (issue 16, item 4: the unsigned tail stays small).
const (
	CheckpointRows  = 1000
	CheckpointEvery = time.Minute
)

// TailInfo is the unprotected tail of the chain: the rows after the last
// signed checkpoint, which a superuser with the triggers off could delete
// without Verify noticing.
type TailInfo struct {
	Rows       int64     // rows after the last checkpoint
	LastSigned time.Time // when the last checkpoint was signed (zero: none)
	LastRow    int64     // the row it signed
}

// Tail returns the unprotected tail of the chain.
func Tail(ctx context.Context, g *gorm.DB) (TailInfo, error) {
	var t TailInfo
	var at struct{ At *time.Time }
	err := db.Conn(ctx, g).Raw("SELECT coalesce(max(audit_id), 0) FROM audit_checkpoints").Scan(&t.LastRow).Error
	if err == nil {
		err = db.Conn(ctx, g).Raw("SELECT max(at) AS at FROM audit_checkpoints").Scan(&at).Error
	}
	if err == nil {
		err = db.Conn(ctx, g).Raw("SELECT count(*) FROM audit_log WHERE id > ?", t.LastRow).Scan(&t.Rows).Error
	}
	if at.At != nil {
		t.LastSigned = *at.At
	}
	return t, err
}

// Outside is an audited row written outside the application: by a
// database role other than the application's (db.AppRole; psql, a script,
// a superuser), whatever settings its connection carried (migration 00095;
// before it, 00031 told them by a setting any client could set).
type Outside struct {
	ID        int64     `json:"id"`
	At        time.Time `json:"at"`
	Action    string    `json:"action"`
	Table     string    `json:"table" gorm:"column:table_name"`
	RecordID  string    `json:"record_id"`
	ActorName string    `json:"actor_name"` // the database role, client and claimed actor ("postgres (psql) claiming Ana, judge")
}

// WrittenOutside returns every audited row written outside the application
// (role "outside", migrations 00031 and 00095), in id order, at most limit
// (0: all).
func WrittenOutside(ctx context.Context, g *gorm.DB, limit int) ([]Outside, error) {
	var out []Outside
	q := db.Conn(ctx, g).Raw(`SELECT id, at, action, table_name, record_id, actor_name FROM audit_log
		WHERE role = 'outside' ORDER BY id`)
	if limit > 0 {
		q = db.Conn(ctx, g).Raw(`SELECT id, at, action, table_name, record_id, actor_name FROM audit_log
		WHERE role = 'outside' ORDER BY id LIMIT ?`, limit)
	}
	err := q.Scan(&out).Error
	return out, err
}

// Filter narrows List: the record (table and id), the actor, a period.
type Filter struct {
	Domain string // court code, "group:ID" or "club:NAME"; empty: every domain
	// CourtGroups, with Domain a court code, adds the rows of domain
	// "group:ID" of every fan group registered in that court (the member
	// registers the court's authorities read, LGE art. 178 § 4º).
	CourtGroups bool
	Table       string
	RecordID    string
	ActorID     int64
	From, To    time.Time // zero: open
	Limit       int       // default 100, at most 1000
	Offset      int       // rows skipped, newest first (paging)
}

// List returns the trail's rows that match, newest first.
func List(ctx context.Context, g *gorm.DB, f Filter) ([]Entry, error) {
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	var out []Entry
	err := f.where(db.Conn(ctx, g).Model(&Entry{})).Order("id DESC").Offset(max(f.Offset, 0)).Limit(f.Limit).Find(&out).Error
	return out, err
}

// Count returns how many rows match f (Limit and Offset ignored).
func Count(ctx context.Context, g *gorm.DB, f Filter) (int64, error) {
	var n int64
	err := f.where(db.Conn(ctx, g).Model(&Entry{})).Count(&n).Error
	return n, err
}

func (f Filter) where(q *gorm.DB) *gorm.DB {
	switch {
	case f.Domain != "" && f.CourtGroups:
		q = q.Where("(domain = ? OR domain IN (SELECT 'group:' || id FROM fan_groups WHERE court_code = ?))", f.Domain, f.Domain)
	case f.Domain != "":
		q = q.Where("domain = ?", f.Domain)
	}
	if f.Table != "" {
		q = q.Where("table_name = ?", f.Table)
	}
	if f.RecordID != "" {
		q = q.Where("record_id = ?", f.RecordID)
	}
	if f.ActorID != 0 {
		q = q.Where("actor_id = ?", f.ActorID)
	}
	if !f.From.IsZero() {
		q = q.Where("at >= ?", f.From)
	}
	if !f.To.IsZero() {
		q = q.Where("at < ?", f.To)
	}
	return q
}

// Read records a read of personal data (issue 7: every read of a member's
// personal data): a row with action "read", the table and record read and
// what was read (detail, kept as the row's after), by the actor that ctx
// carries (db.WithActor), else by fallback. It is inserted through SQL so
// that the chaining trigger (audit_chain) hashes it like any other row, in
// the transaction that ctx carries (db.WithTx) when there is one: a read
// whose logging fails is not served.
func Read(ctx context.Context, g *gorm.DB, fallback actor.Actor, table, recordID string, detail map[string]any) error {
	return ReadIn(ctx, g, fallback, "", table, recordID, detail)
}

// ReadIn is Read recorded in the trail of domain (a court's code, TR.OOOO)
// instead of the actor's own: the defence's reads of a client's case are
// the court's to see (issue 29: reads of personal data logged like other
// staff reads), as its domain is the lawyer's. domain "" is the actor's.
func ReadIn(ctx context.Context, g *gorm.DB, fallback actor.Actor, domain, table, recordID string, detail map[string]any) error {
	a, ok := db.ActorFrom(ctx)
	if !ok {
		a = fallback
	}
	if domain == "" {
		domain = a.Domain()
	}
	var actorID *int64
	if a.UserID != 0 {
		id := a.UserID
		actorID = &id
	}
	var after *string
	if detail != nil {
		b, err := json.Marshal(detail)
		if err != nil {
			return err
		}
		s := string(b)
		after = &s
	}
	return db.Conn(ctx, g).Exec(`INSERT INTO audit_log (id, actor_id, actor_name, role, domain, action, table_name, record_id, after, prev_hash, row_hash)
		VALUES (0, ?, ?, ?, ?, 'read', ?, ?, ?::jsonb, '\x', '\x')`, actorID, a.Name, a.Role, domain, table, recordID, after).Error
}

// Counts returns how many rows the audit trail has and how many signed
// checkpoints of its head.
func Counts(ctx context.Context, g *gorm.DB) (rows, checkpoints int64, err error) {
	c := db.Conn(ctx, g)
	if err = c.Raw("SELECT count(*) FROM audit_log").Scan(&rows).Error; err != nil {
		return 0, 0, err
	}
	err = c.Raw("SELECT count(*) FROM audit_checkpoints").Scan(&checkpoints).Error
	return rows, checkpoints, err
}
