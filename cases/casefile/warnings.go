package casefile

import (
	"context"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// SentenceWarnings are the warnings the judge needs before sentencing
// defendant defendantID of case caseID (the sentence form shows them): the
// same CPF with another birth date on another defendant record, and for a
// person whose CPF was already punished under art. 201 (41-B) of the rule
// that applies at the date of the facts, the § 2º condition to decide
// (Lei 14.597/2023, art. 201, § 2º); for a fan group, the changes to its
// register recorded after the filing that touch the facts date
// (registry.RegisterChanges; issue 32, item 6). errs.NotFound for a case of
// another court; an unknown defendant gives no warnings.
func (s *Service) SentenceWarnings(ctx context.Context, actor actor.Actor, caseID, defendantID int64) ([]string, error) {
	v, err := s.Get(ctx, actor, caseID)
	if err != nil {
		return nil, err
	}
	var d cases.Defendant
	if err := db.Conn(ctx, s.DB).Where("id = ? AND case_id = ?", defendantID, caseID).Limit(1).Find(&d).Error; err != nil || d.ID == 0 {
		return nil, err
	}
	if d.Kind != "person" {
		if d.GroupID == nil {
			return nil, nil
		}
		// The register as evidence (issue 32, item 6).
		return registry.RegisterChanges(ctx, s.DB, d.ID, *d.GroupID, v.Facts.Date, s.Loc)
	}
	out, err := s.Cases.BirthDateWarnings(ctx, caseID, d.ID, v.Court)
	if err != nil {
		return nil, err
	}
	rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: v.Facts.Date, Conduct: v.Facts.Conduct})
	if err != nil {
		return out, nil // the form says why no rule applies
	}
	w, err := s.Decisions.PriorPunishmentWarning(ctx, d, rg, "Decida se as condições do § 2º estão presentes (campo “Primário, de bons antecedentes e nunca punido por este artigo”).")
	if err != nil {
		return nil, err
	}
	if w != "" {
		out = append(out, w)
	}
	return out, nil
}
