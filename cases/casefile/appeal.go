package casefile

import (
	"context"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
)

// RecordAppealResult records the Turma Recursal's result of the appeal of
// case caseID (clerk; Lei 9.099/1995, art. 82): confirmed (TPU 239) leaves
// the sentence; reformed (TPU 237) replaces the defendant's ban that waits
// for the final judgment by one of the new term within the range recorded
// on it, or removes it for an acquittal; annulled (TPU 237) annuls the
// sentences (of the defendant, or all) and their bans and returns the case
// to the instruction hearing (criminal) or hearing (civil) for a new
// sentence. The case must be in appeal (errs.Conflict); decided_on is not
// in the future nor before the day the last sentence was signed (errs.Invalid
// on decided_on).
func (s *Service) RecordAppealResult(ctx context.Context, actor actor.Actor, caseID int64, in decisions.AppealResultInput) (*View, error) {
	var out *View
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.Decisions.ApplyAppealResult(ctx, actor, caseID, in)
		if err != nil {
			return err
		}
		v, err := s.view(ctx, *c, true)
		out = v
		return err
	})
	return out, err
}
