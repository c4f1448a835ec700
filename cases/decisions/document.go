package decisions

import (
	"context"

	"github.com/juizado/juizado/internal/db"
)

// LockSentenceDocument returns the id of the document issued for sentence
// sentenceID (nil while none was), locking the sentence's row until the
// transaction of ctx ends, so that two first downloads give one document.
func (s *Service) LockSentenceDocument(ctx context.Context, sentenceID int64) (*int64, error) {
	var row struct{ DocumentID *int64 }
	err := db.Conn(ctx, s.DB).Raw("SELECT document_id FROM sentences WHERE id = ? FOR UPDATE", sentenceID).Scan(&row).Error
	return row.DocumentID, err
}

// SetSentenceDocument records documentID as the document of sentence
// sentenceID (the one document of a decision).
func (s *Service) SetSentenceDocument(ctx context.Context, sentenceID, documentID int64) error {
	return db.Conn(ctx, s.DB).Exec("UPDATE sentences SET document_id = ? WHERE id = ?", documentID, sentenceID).Error
}
