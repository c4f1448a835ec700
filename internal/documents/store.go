package documents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"gorm.io/gorm"
)

// Document is an issued document as stored (table documents, migration
// 00005): never changed nor deleted.
type Document struct {
	ID           int64
	Code         string // 12 characters, see pdf.NewCode
	Kind         pdf.Kind
	CourtCode    string
	CaseID       *int64
	CaseNumber   *string // 20 digits
	BanID        *int64
	GroupID      *int64 // a register extract: the group (migration 00010)
	MandateID    *int64 // a BNMP mandate: the mandate (migration 00230)
	IssuedAt     time.Time
	IssuedBy     *int64
	Pages        int
	Size         int
	SHA256       []byte `gorm:"column:sha256"`
	SourceSHA256 []byte `gorm:"column:source_sha256"`
	Content      []byte
}

// TableName is the documents table.
func (Document) TableName() string { return "documents" }

// Store keeps issued documents.
type Store struct{ DB *gorm.DB }

// Insert stores d, in the transaction of ctx when there is one (with the
// actor of ctx for the audit trail); a code already taken is reported by
// db.IsUniqueViolation and, as the insert runs under a savepoint, leaves
// that transaction usable for another try.
func (s *Store) Insert(ctx context.Context, d *Document) error {
	return db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		return db.Conn(ctx, s.DB).Transaction(func(tx *gorm.DB) error { return tx.Create(d).Error })
	})
}

// ByCode returns the document with code (normalised by ParseCode):
// errs.NotFound when there is none.
func (s *Store) ByCode(ctx context.Context, code string) (*Document, error) {
	var d Document
	err := db.Conn(ctx, s.DB).Where("code = ?", code).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, errs.New(errs.NotFound, "Nenhum documento foi emitido com o código "+pdf.GroupCode(code)+".")
	}
	return &d, err
}

// byID returns the stored document id.
func (s *Store) byID(ctx context.Context, id int64) (*Document, error) {
	var d Document
	if err := db.Conn(ctx, s.DB).Take(&d, id).Error; err != nil {
		return nil, err
	}
	return &d, nil
}

// bySource returns the latest document of kind of court whose wording was
// filled with the same text (sourceSum), or nil.
func (s *Store) bySource(ctx context.Context, kind pdf.Kind, court string, sourceSum []byte) (*Document, error) {
	var ds []Document
	err := db.Conn(ctx, s.DB).Where("kind = ? AND court_code = ? AND source_sha256 = ?", kind, court, sourceSum).
		Order("id DESC").Limit(1).Find(&ds).Error
	if err != nil || len(ds) == 0 {
		return nil, err
	}
	return &ds[0], nil
}

// Verification is what anyone may learn about an issued document from its
// code: the kind, the date, the court and the case number (no personal
// data), the pages and the SHA-256 of the original.
type Verification struct {
	Code       string    `json:"code"`
	Kind       pdf.Kind  `json:"kind"`
	Title      string    `json:"title"`
	IssuedAt   time.Time `json:"issued_at"`
	IssuedOn   string    `json:"issued_on"` // "15 de junho de 2023"
	Court      string    `json:"court"`
	CourtName  string    `json:"court_name"`
	Tribunal   string    `json:"tribunal,omitempty"`
	CaseNumber string    `json:"case_number,omitempty"`
	Pages      int       `json:"pages"`
	Size       int       `json:"size"`
	SHA256     string    `json:"sha256"`
}

// Comparison tells whether a copy (its bytes or their SHA-256) is the
// document issued under a code: Status "authentic" or "altered".
type Comparison struct {
	Verification
	Match           bool   `json:"match"`
	Status          string `json:"status"`
	SubmittedSHA256 string `json:"submitted_sha256"`
}

// Compare reports whether sum is the SHA-256 of d.
func Compare(v Verification, d *Document, sum []byte) Comparison {
	c := Comparison{Verification: v, SubmittedSHA256: hex.EncodeToString(sum), Status: "altered"}
	if len(sum) == sha256.Size && hex.EncodeToString(d.SHA256) == c.SubmittedSHA256 {
		c.Match, c.Status = true, "authentic"
	}
	return c
}
