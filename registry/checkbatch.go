package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
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
	digest := batchDigest(in)
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
		for i := 0; i < len(recs); i += 1000 {
			end := min(i+1000, len(recs))
			rows := make([]map[string]any, 0, end-i)
			for j, r := range recs[i:end] {
				rows = append(rows, map[string]any{"user_id": r.UserID, "club": r.Club, "cpf": r.CPF, "checked_at": r.CheckedAt,
					"version": r.Version, "device": in.Device, "batch_id": id, "blocked": in.Records[i+j].Blocked})
			}
			if err := tx.Table("blocklist_checks").Create(rows).Error; err != nil {
				return err
			}
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
// still a duplicate).
func batchDigest(in CheckBatch) []byte {
	lines := make([][]byte, 0, len(in.Records))
	for _, r := range in.Records {
		cpf, _ := ParseCPFAnySpelling(r.CPF) // valid: checked before
		b, _ := json.Marshal([]any{cpf.String(), r.CheckedAt.UTC().Format(time.RFC3339Nano), r.Version, r.Blocked})
		lines = append(lines, b)
	}
	slices.SortFunc(lines, bytes.Compare)
	h := sha256.New()
	for _, l := range lines {
		h.Write(l)
		h.Write([]byte{'\n'})
	}
	return h.Sum(nil)
}
