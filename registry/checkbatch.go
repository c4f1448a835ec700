package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm/clause"
)

// MaxCheckBatch is the most records a gate agent sends in one batch.
const MaxCheckBatch = 10000

// UploadedCheck is one check a gate agent made offline or online: the CPF
// (any spelling), the instant, the version of this court's list the agent
// answered from, and whether it blocked.
type UploadedCheck struct {
	CPF       string    `json:"cpf"`
	CheckedAt time.Time `json:"checked_at"`
	Version   int64     `json:"version"`
	Blocked   bool      `json:"blocked"`
}

// CheckBatch is the body of POST /api/v1/blocklist/checks: the agent's
// batch id (idempotency key), its device name and the records.
type CheckBatch struct {
	BatchID string          `json:"batch_id"`
	Device  string          `json:"device"`
	Records []UploadedCheck `json:"records"`
}

// batchRow is a stored batch (table blocklist_check_batches), keyed by the
// club account that sent it and its batch id; Digest is batchDigest of its
// content (NULL for a batch stored before migration 00051).
type batchRow struct {
	UserID     int64  `gorm:"primaryKey"`
	BatchID    string `gorm:"primaryKey"`
	Club       string
	Device     string
	Records    int
	Digest     []byte
	ReceivedAt time.Time
}

func (batchRow) TableName() string { return "blocklist_check_batches" }

// StoreCheckBatch stores a gate agent's batch of check records for the club
// user userID (DOMAIN.md §6: each read is logged; breach evidence), once per
// (userID, batch_id): a batch id is the sending account's own, so another
// club's batch of the same id is stored too. The same account resending a
// batch id with the same records (batchDigest; the device is not compared)
// answers
// duplicate true and stores nothing (the agent retries after a lost
// answer); with other content it is errs.Conflict naming batch_id and
// nothing is stored. The whole batch is stored or nothing: errs.Invalid
// names the field of every bad record (records[i].cpf,
// records[i].checked_at: not more than 5 minutes in the future) and
// batch_id (required, at most 100 characters) or records (at most
// MaxCheckBatch).
func (l *Lists) StoreCheckBatch(ctx context.Context, userID int64, club string, in CheckBatch) (stored int, duplicate bool, err error) {
	var f errs.Fields
	id := strings.TrimSpace(in.BatchID)
	if id == "" || len(id) > 100 {
		f.Add("batch_id", "required", "informe o identificador do lote (batch_id), até 100 caracteres.")
	}
	if len(in.Device) > 200 {
		f.Add("device", "max", "o nome do dispositivo tem no máximo 200 caracteres.")
	}
	if len(in.Records) > MaxCheckBatch {
		f.Add("records", "max", fmt.Sprintf("no máximo %d registros por lote.", MaxCheckBatch))
	}
	now := l.Clock.Now()
	recs := make([]CheckRecord, 0, len(in.Records))
	for i, r := range in.Records {
		cpf, err := ParseCPFAnySpelling(r.CPF)
		if err != nil {
			f.Add(fmt.Sprintf("records[%d].cpf", i), "cpf", err.Error())
			continue
		}
		if r.CheckedAt.IsZero() || r.CheckedAt.After(now.Add(5*time.Minute)) {
			f.Add(fmt.Sprintf("records[%d].checked_at", i), "instant", "informe o instante da consulta (RFC 3339), que não pode estar no futuro.")
			continue
		}
		recs = append(recs, CheckRecord{UserID: userID, Club: club, CPF: cpf.String(), CheckedAt: r.CheckedAt, Version: r.Version})
	}
	if err := f.Err(); err != nil {
		return 0, false, err
	}
	blocked := make([]bool, len(in.Records))
	for i, r := range in.Records {
		blocked[i] = r.Blocked
	}
	digest := batchDigest(recs, blocked)
	err = db.WithTx(ctx, l.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, l.DB)
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&batchRow{BatchID: id, UserID: userID, Club: club, Device: in.Device, Records: len(recs), Digest: digest, ReceivedAt: now})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			var prev batchRow
			if err := tx.Where("user_id = ? AND batch_id = ?", userID, id).Take(&prev).Error; err != nil {
				return err
			}
			if prev.Digest != nil && !bytes.Equal(prev.Digest, digest) {
				msg := fmt.Sprintf("batch_id já usado com outros registros: o lote %q desta conta já foi gravado com outro conteúdo; nada foi gravado. Envie registros novos com outro batch_id.", id)
				return &errs.Error{Kind: errs.Conflict, Message: msg, Fields: []errs.FieldError{{Field: "batch_id", Rule: "unique",
					Message: "batch_id já usado com outros registros: envie os registros novos com outro batch_id."}}}
			}
			duplicate = true
			return nil
		}
		// One statement for the whole batch, its columns as arrays (pgx
		// sends them in binary): GORM's INSERT of 1,000 maps at a time had
		// cost about 10 µs of the server's CPU per record.
		cpfs, ats, vers := make([]string, len(recs)), make([]time.Time, len(recs)), make([]int64, len(recs))
		for i, r := range recs {
			cpfs[i], ats[i], vers[i] = r.CPF, r.CheckedAt, r.Version
		}
		_, err := tx.Statement.ConnPool.ExecContext(ctx, `INSERT INTO blocklist_checks (user_id, club, cpf, checked_at, version, device, batch_id, blocked)
			SELECT $1, $2, r.cpf, r.checked_at, r.version, $3, $4, r.blocked
			FROM unnest($5::text[], $6::timestamptz[], $7::bigint[], $8::boolean[]) AS r(cpf, checked_at, version, blocked)`,
			userID, club, in.Device, id, cpfs, ats, vers, blocked)
		if err != nil {
			return err
		}
		stored = len(recs)
		return nil
	})
	return stored, duplicate, err
}

// batchDigest is the SHA-256 of a valid batch's records, the same for every
// spelling of them: one JSON line per record [cpf (11 digits), checked_at
// (UTC, RFC 3339 with nanoseconds), version, blocked], the lines sorted
// (the order of the records does not count; the device is not part of
// the records: an agent renamed between a lost answer and its retry is
// still a duplicate). recs are the batch's records as checked (CPF in 11
// digits), blocked their outcomes in the same order. The lines are written
// by hand, byte for byte what json.Marshal writes for them (tested: the
// digests stored since migration 00051 must stay the same).
func batchDigest(recs []CheckRecord, blocked []bool) []byte {
	lines := make([][]byte, len(recs))
	buf := make([]byte, 0, len(recs)*64)
	for i, r := range recs {
		start := len(buf)
		buf = append(buf, `["`...)
		buf = append(buf, r.CPF...)
		buf = append(buf, `","`...)
		buf = r.CheckedAt.UTC().AppendFormat(buf, time.RFC3339Nano)
		buf = append(buf, `",`...)
		buf = strconv.AppendInt(buf, r.Version, 10)
		buf = append(buf, ',')
		buf = strconv.AppendBool(buf, blocked[i])
		buf = append(buf, ']')
		lines[i] = buf[start:len(buf):len(buf)]
	}
	slices.SortFunc(lines, bytes.Compare)
	h := sha256.New()
	for _, l := range lines {
		h.Write(l)
		h.Write([]byte{'\n'})
	}
	return h.Sum(nil)
}
