package decisions

import (
	"context"

	"github.com/juizado/juizado/internal/civil"

	"github.com/juizado/juizado/internal/db"
)

// ActiveBans counts the bans decided for defendant defendantID that are
// active (stored status "active": not started, in force or ended).
func (s *Service) ActiveBans(ctx context.Context, defendantID int64) (int64, error) {
	var n int64
	err := db.Conn(ctx, s.DB).Raw("SELECT count(*) FROM bans WHERE defendant_id = ? AND status = 'active'", defendantID).Scan(&n).Error
	return n, err
}

// Identified gives the CPF cpf (11 digits) and the birth date (nil: keep
// the stored one) to the records of defendant defendantID identified after
// the decision: the person's bans without a CPF (not a member's ban of a
// group: those carry the member's CPF from the register), whose ids it
// returns, and the plea agreements without one (the 5-year bar of a new
// plea agreement is asked by CPF: Lei 9.099/1995, art. 76, § 2º, II).
func (s *Service) Identified(ctx context.Context, defendantID int64, cpf string, birth *civil.Date) ([]int64, error) {
	tx := db.Conn(ctx, s.DB)
	var banIDs []int64
	if err := tx.Raw("UPDATE bans SET cpf = ?, birth_date = COALESCE(?, birth_date) WHERE defendant_id = ? AND subject = 'person' AND cpf IS NULL RETURNING id",
		cpf, birth, defendantID).Scan(&banIDs).Error; err != nil {
		return nil, err
	}
	if err := tx.Exec("UPDATE plea_agreements SET cpf = ? WHERE defendant_id = ? AND cpf IS NULL", cpf, defendantID).Error; err != nil {
		return nil, err
	}
	return banIDs, nil
}
