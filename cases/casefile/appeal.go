package casefile

import (
	"context"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
)

// RecordAppealResult records the Turma Recursal's result of the appeal of
// case caseID (clerk; Lei 9.099/1995, art. 82), with its appellants
// (default: the appeals recorded on the track, the defence when none is):
// confirmed (TPU 239) leaves the sentence; reformed (TPU 237) decides the
// defendant anew, checked and planned as a sentence — a new term, the
// conversion of the reclusão into the ban (Lei 14.597/2023, art. 201,
// § 2º), reclusão and fine, an acquittal, or a conviction on the
// prosecution's appeal against an acquittal — whose ban waits for the
// final judgment; a result harsher than the sentence in any penalty
// without the prosecution's appeal is errs.Invalid citing CPP art. 617
// (a group case: CPC art. 1.013), and in a group case a milder one
// without the group's appeal is errs.Invalid citing CPC arts. 1.002 and
// 1.013; annulled (TPU 237) annuls the sentences of the defendant (without
// defendant_id: of every track in appeal with no final judgment, never a
// final one, CF art. 5º, XXXVI; none: errs.Invalid on defendant_id) and
// their bans and returns those tracks for a new sentence. The track must
// be in appeal (errs.Conflict); decided_on is not in the future nor before
// the day the last sentence was signed (errs.Invalid on decided_on).
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
