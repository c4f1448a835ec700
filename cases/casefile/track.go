package casefile

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// extinguish applies the extinction of punishability of defendant d (CP
// art. 107) by cause: a plea agreement is fulfilled when it was
// homologated and its ban has ended (errs.Conflict before its last day);
// the suspension's period is checked by EndSuspensions (art. 89, § 5º);
// prescription and death end the penalty too: his bans in force are
// lifted and those awaiting the final judgment never start (annulled),
// with the blocklist in the same transaction.
func (s *Service) extinguish(ctx context.Context, c *cases.Case, d cases.Defendant, cause string) error {
	tx := db.Conn(ctx, s.DB)
	today := civil.Today(s.Now(), s.Loc)
	switch cause {
	case cases.CausePleaFulfilled:
		var p decisions.Plea
		if err := tx.Where("case_id = ? AND defendant_id = ? AND status = 'homologated'", c.ID, d.ID).Order("id DESC").Limit(1).Find(&p).Error; err != nil {
			return err
		}
		if p.ID == 0 {
			return errs.InvalidField("cause", "plea_homologated", "o réu não tem transação penal homologada neste processo (Lei 9.099/1995, art. 76, § 4º).")
		}
		if p.BanID != nil {
			var b sanctions.Ban
			if err := tx.Where("id = ?", *p.BanID).Take(&b).Error; err != nil {
				return err
			}
			if b.Status == sanctions.StatusActive && b.LastDay != nil && !today.After(*b.LastDay) {
				return errs.New(errs.Conflict, fmt.Sprintf("A transação penal se cumpre até %s (impedimento %d): a punibilidade se extingue depois de cumprida (Súmula Vinculante 35).", b.LastDay.BR(), b.ID))
			}
		}
	case cases.CausePrescription, cases.CauseDeath:
		reason := "extinta a punibilidade: " + cases.ExtinctionCausePT[cause]
		var bans []sanctions.Ban
		if err := tx.Where("case_id = ? AND defendant_id = ? AND NOT precautionary AND status IN ?", c.ID, d.ID,
			[]string{sanctions.StatusActive, sanctions.StatusAwaitingFinal}).Find(&bans).Error; err != nil {
			return err
		}
		var ids []int64
		for _, b := range bans {
			set := map[string]any{"status": sanctions.StatusLifted, "lifted_on": today, "lift_reason": reason}
			if b.Status == sanctions.StatusAwaitingFinal {
				set = map[string]any{"status": sanctions.StatusAnnulled, "lift_reason": reason}
			}
			if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(set).Error; err != nil {
				return err
			}
			ids = append(ids, b.ID)
		}
		if len(ids) > 0 {
			return s.RefreshBlocklist(ctx, ids...)
		}
	}
	return nil
}

// separate records the judge's separation of defendant in.DefendantID's
// proceedings (CPP art. 80: the facts in different times or places, the
// number of defendants, or another relevant reason): a docketed decision
// with its reason (note, required: CF art. 93, IX); his track keeps its
// status and moves only when named (a transition without defendant_id no
// longer reaches him). errs.Invalid on defendant_id when missing, unknown
// or already separated, on note without the reason; only the case's judge
// (errs.Forbidden); a group (civil) case has no tracks to separate.
func (s *Service) separate(ctx context.Context, actor actor.Actor, c *cases.Case, in TransitionInput) error {
	if err := cases.JudgeOfCase(actor, c, "determinar a separação dos processos (CPP, art. 80)"); err != nil {
		return err
	}
	if c.Flow == cases.FlowCivil {
		return errs.InvalidField("to", "criminal_only", "a separação dos processos (CPP, art. 80) cabe no processo criminal; o processo de torcidas tem uma só situação.")
	}
	if in.DefendantID == nil {
		return errs.InvalidField("defendant_id", "required", "informe o réu cujo processo será separado (CPP, art. 80).")
	}
	ds, err := s.Tracks(ctx, c)
	if err != nil {
		return err
	}
	d, err := s.trackOf(ctx, c, ds, *in.DefendantID)
	if err != nil {
		return err
	}
	switch {
	case len(ds) < 2:
		return errs.InvalidField("defendant_id", "co_defendants", "o processo tem um só réu: não há o que separar (CPP, art. 80).")
	case d.SeparatedOn != nil:
		return errs.InvalidField("defendant_id", "separated", fmt.Sprintf("o processo deste réu já foi separado em %s.", d.SeparatedOn.BR()))
	case cases.Ended(d.Status) || d.Status == cases.StatusFinal || d.Status == cases.StatusExecuting:
		return errs.InvalidField("defendant_id", "open_track", fmt.Sprintf("o réu está em “%s”: a separação cabe enquanto o processo corre quanto a ele.", cases.OrStatus(d.Status)))
	}
	note := strings.TrimSpace(in.Note)
	if note == "" {
		return errs.InvalidField("note", "required", "fundamente a separação (CPP, art. 80; CF, art. 93, IX).")
	}
	today := civil.Today(s.Now(), s.Loc)
	if err := db.Conn(ctx, s.DB).Table("defendants").Where("id = ?", d.ID).Update("separated_on", today).Error; err != nil {
		return err
	}
	text := fmt.Sprintf("Determinada a separação do processo quanto a %s, que segue em separado na fase “%s” (CPP, art. 80). Fundamento: %s",
		cases.NameOf(d), cases.OrStatus(d.Status), note)
	if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveSeparation, text); err != nil {
		return err
	}
	return s.SetTrack(ctx, c, "", nil)
}
