package blocklist

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry"
	"gorm.io/gorm/clause"
)

// MaxCheckBatch is the most records a gate agent sends in one batch.
const MaxCheckBatch = 10000

// Limits of a batch's texts, in characters (runes), not bytes.
const (
	maxBatchID = 100 // batch_id, after surrounding spaces are trimmed
	maxDevice  = 200 // device
)

// checksSince is the earliest instant a check record may carry:
// 2023-06-14T00:00:00-03:00, the date of Lei 14.597/2023 (Lei Geral do
// Esporte, DOU 15/06/2023), whose list of banned fans a gate checks; a
// record of an earlier instant is not a check made against this court's
// list (an agent's clock gone wrong, or a record made up).
var checksSince = time.Date(2023, time.June, 14, 0, 0, 0, 0, time.FixedZone("BRT", -3*60*60))

// UploadedCheck is one check a gate agent made offline or online: the CPF
// (any spelling), the instant, the version of this court's list the agent
// answered from (0: it held no list of this court yet) and whether it
// blocked. Version and Blocked are pointers so that a member missing or
// null is told from 0 and false: both are required.
type UploadedCheck struct {
	CPF       string    `json:"cpf"`
	CheckedAt time.Time `json:"checked_at"`
	Version   *int64    `json:"version"`
	Blocked   *bool     `json:"blocked"`
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
// answers duplicate true and stores nothing (the agent retries after a lost
// answer); with other content it is errs.Conflict naming batch_id and
// nothing is stored.
//
// The whole batch is stored or nothing: errs.Invalid names every bad field
// (field, rule):
//   - batch_id: "required" when empty after trimming surrounding spaces,
//     "max" above 100 characters, or a rule of textcheck.Problem (controls,
//     bidi and other invisible characters, U+FFFD) anywhere in it;
//   - device (may be empty): "max" above 200 characters, or a rule of
//     textcheck.Problem;
//   - records: "required" when missing, null or empty (an empty batch would
//     use up its batch_id), "max" above MaxCheckBatch;
//   - records[i].cpf: "cpf" (ParseCPFAnySpelling);
//   - records[i].checked_at: "instant" when missing, before checksSince
//     (2023-06-14T00:00:00-03:00, Lei 14.597/2023) or more than 5 minutes
//     after the clock's now;
//   - records[i].version: "required" when missing or null, "range" when
//     negative or above this court's latest blocklist version (Latest; 0 is
//     accepted: the agent held no list of this court);
//   - records[i].blocked: "required" when missing or null.
//
// An error reading the latest version is returned as it is (a fault of the
// database, not of the input).
func (l *Lists) StoreCheckBatch(ctx context.Context, userID int64, club string, in CheckBatch) (stored int, duplicate bool, err error) {
	var f errs.Fields
	id := strings.TrimSpace(in.BatchID)
	if id == "" {
		f.Add("batch_id", "required", "informe o identificador do lote (batch_id).")
	} else {
		checkBatchText(&f, "batch_id", "batch_id (identificador do lote)", in.BatchID, id, maxBatchID)
	}
	checkBatchText(&f, "device", "device (nome do dispositivo)", in.Device, in.Device, maxDevice)
	switch {
	case len(in.Records) == 0:
		f.Add("records", "required", "envie ao menos um registro de consulta (records): um lote vazio não é gravado.")
	case len(in.Records) > MaxCheckBatch:
		f.Add("records", "max", fmt.Sprintf("no máximo %d registros por lote.", MaxCheckBatch))
	}
	now := l.Clock.Now()
	recs := make([]CheckRecord, 0, len(in.Records))
	blocked := make([]bool, 0, len(in.Records))
	var maxVersion int64
	for i, r := range in.Records {
		ok := true
		field := func(name string) string { return fmt.Sprintf("records[%d].%s", i, name) }
		cpf, err := registry.ParseCPFAnySpelling(r.CPF)
		if err != nil {
			f.Add(field("cpf"), "cpf", err.Error())
			ok = false
		}
		switch {
		case r.CheckedAt.IsZero():
			f.Add(field("checked_at"), "instant", "informe o instante da consulta (RFC 3339, por exemplo 2026-12-01T15:30:00-03:00).")
			ok = false
		case r.CheckedAt.Before(checksSince):
			f.Add(field("checked_at"), "instant", "o instante da consulta não pode ser anterior a 14/06/2023 00:00 (horário de Brasília), data da Lei 14.597/2023 (Lei Geral do Esporte).")
			ok = false
		case r.CheckedAt.After(now.Add(5 * time.Minute)):
			f.Add(field("checked_at"), "instant", "o instante da consulta não pode estar no futuro (mais de 5 minutos adiante do relógio do juizado).")
			ok = false
		}
		switch {
		case r.Version == nil:
			f.Add(field("version"), "required", "informe a versão da lista deste juizado com que o agente respondeu (version; 0 se ainda não tinha lista deste juizado).")
			ok = false
		case *r.Version < 0:
			f.Add(field("version"), "range", fmt.Sprintf("a versão %d é negativa: use 0 se o agente ainda não tinha lista deste juizado.", *r.Version))
			ok = false
		default:
			maxVersion = max(maxVersion, *r.Version)
		}
		if r.Blocked == nil {
			f.Add(field("blocked"), "required", "informe se o agente bloqueou a entrada (blocked: true ou false).")
			ok = false
		}
		if ok {
			recs = append(recs, CheckRecord{UserID: userID, Club: club, CPF: cpf.String(), CheckedAt: r.CheckedAt, Version: *r.Version})
			blocked = append(blocked, *r.Blocked)
		}
	}
	if maxVersion > 0 {
		latest, err := l.Latest(ctx)
		if err != nil {
			return 0, false, err
		}
		for i, r := range in.Records {
			if r.Version != nil && *r.Version > latest.Version {
				f.Add(fmt.Sprintf("records[%d].version", i), "range", fmt.Sprintf("a versão %d não existe: a última versão da lista deste juizado é %d.", *r.Version, latest.Version))
			}
		}
	}
	if err := f.Err(); err != nil {
		return 0, false, err
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

// checkBatchText adds to f the problem of one of a batch's texts, field
// (label names it in the message): raw is the text as sent, kept the form
// stored (batch_id is trimmed). A character textcheck.Problem refuses
// anywhere in raw, surrounding space included (a trailing line break, a
// bidi override, a zero-width space, U+FFFD), is its rule; kept longer than
// max characters (runes, not bytes) is rule "max".
func checkBatchText(f *errs.Fields, field, label, raw, kept string, max int) {
	if rule, msg := textcheck.Problem(raw, len(raw), false); rule != "" {
		f.Add(field, rule, label+": "+msg)
		return
	}
	if n := utf8.RuneCountInString(kept); n > max {
		f.Add(field, "max", fmt.Sprintf("%s tem no máximo %d caracteres; este tem %d.", label, max, n))
	}
}
