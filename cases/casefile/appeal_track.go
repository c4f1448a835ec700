package casefile

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
)

// appeal records party in.Party's appeal (Lei 9.099/1995, art. 82; the
// defendant's own is the defence's, CPP art. 577) as to the defendant
// named, or as to every defendant (not separated) whose track is
// sentenced; a group case's for the case. A sentenced track moves to
// appeal (the transition and its docket movement); a track already in
// appeal takes the other party's appeal ("também"), the same party's
// twice is errs.Conflict. The Turma Recursal's result is then judged
// against the appellants (CPP art. 617). errs.Invalid on party when it is
// not a party that appeals.
func (s *Service) appeal(ctx context.Context, actor actor.Actor, c *cases.Case, in TransitionInput) error {
	party, ok := decisions.AppellantOf(in.Party)
	if !ok {
		return errs.InvalidField("party", "oneof", "use defence (defesa; o réu recorrendo ele mesmo, CPP, art. 577) ou prosecution (Ministério Público).")
	}
	in.Note = strings.TrimSpace(fmt.Sprintf("Recorrente: %s. %s", decisions.AppellantPT[party], in.Note))
	if c.Flow == cases.FlowCivil {
		again := c.Status == cases.StatusAppeal
		if again {
			if err := mayAppeal(actor, c, cases.StatusJudgment, in); err != nil {
				return err
			}
		} else if err := s.caseTransition(ctx, actor, c, cases.StatusAppeal, in); err != nil {
			return err
		}
		return s.Decisions.RecordAppeal(ctx, actor, c, nil, party, again)
	}
	ds, err := s.Tracks(ctx, c)
	if err != nil {
		return err
	}
	if in.DefendantID != nil {
		d, err := s.trackOf(ctx, c, ds, *in.DefendantID)
		if err != nil {
			return err
		}
		if d.Status == cases.StatusAppeal {
			if err := mayAppeal(actor, c, cases.StatusSentenced, in); err != nil {
				return err
			}
			return s.Decisions.RecordAppeal(ctx, actor, c, &d, party, true)
		}
		if err := s.trackTransition(ctx, actor, c, cases.StatusAppeal, in); err != nil {
			return err
		}
		return s.Decisions.RecordAppeal(ctx, actor, c, &d, party, false)
	}
	var moving []cases.Defendant
	for _, d := range ds {
		if d.Status == cases.StatusSentenced && d.SeparatedOn == nil {
			moving = append(moving, d)
		}
	}
	if err := s.trackTransition(ctx, actor, c, cases.StatusAppeal, in); err != nil {
		return err
	}
	for i := range moving {
		if err := s.Decisions.RecordAppeal(ctx, actor, c, &moving[i], party, false); err != nil {
			return err
		}
	}
	return nil
}

// mayAppeal is errs.Forbidden unless actor may record an appeal (the
// transition from the decided status from to appeal), or the party filed
// it itself (in).
func mayAppeal(actor actor.Actor, c *cases.Case, from string, in TransitionInput) error {
	t, ok := cases.TrackStep(c, from, cases.StatusAppeal)
	if !ok {
		return fmt.Errorf("no transition %s → appeal", from)
	}
	return mayMake(actor, c, t, in)
}

// AppealFiled records the appeal the defence of defendant defendantID
// filed itself in the system (a petition of kind appeal, in time), on case
// c locked by the caller's transaction, as the clerk's recording of the
// defence's appeal does (Lei 9.099/1995, art. 82; Lei 11.419/2006, art.
// 10: the lawyer's filing is joined without the clerk): a sentenced track
// moves to appeal, a track in appeal takes it too, the same party's twice
// is errs.Conflict; note goes to the docket.
func (s *Service) AppealFiled(ctx context.Context, actor actor.Actor, c *cases.Case, defendantID int64, note string) error {
	id := defendantID
	return s.appeal(ctx, actor, c, TransitionInput{To: cases.StatusAppeal, Party: decisions.AppellantDefence, DefendantID: &id, Note: note, filedByParty: true})
}
