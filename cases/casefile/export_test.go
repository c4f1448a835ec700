package casefile

import (
	"context"

	"github.com/juizado/juizado/internal/db"
)

// NamePlan exposes namePlan to the tests: the key of name_heads walked
// for name, "" for the GIN index. forget drops the cached statistics first.
func (s *Service) NamePlan(ctx context.Context, name string, forget bool) (string, error) {
	if forget {
		s.heads.mu.Lock()
		s.heads.freqs = nil
		s.heads.mu.Unlock()
	}
	tx := db.Conn(ctx, s.DB)
	var words []string
	if err := tx.Raw("SELECT unnest(f_name_words(?))", name).Scan(&words).Error; err != nil {
		return "", err
	}
	return s.namePlan(tx, words), nil
}
