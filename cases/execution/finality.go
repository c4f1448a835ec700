package execution

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// FinalDay is the day the judgment of defendant d of c became final
// (DOMAIN.md §3, §4: the trânsito em julgado is per defendant; d nil: the
// whole group case, which has one status): without an appeal, the day
// after the last of his parties' windows ended or the day of the last
// waiver (errs.Conflict naming what is missing while any of his parties
// was not notified or a window is open: Lei 9.099/1995, art. 82, § 1º); a
// co-defendant's windows and appeal do not count. After an appeal, finalOn
// (default today), which needs the Turma Recursal's result recorded (POST
// /api/v1/cases/{id}/appeal-result) and is not in the future nor before
// that result, the sentence's day or the last notification (errs.Invalid
// on final_on); when embargos de declaração against that result were
// ruled, each party's window against it runs again from its notice of the
// ruling (Lei 9.099/1995, art. 83, § 2º; CPC art. 1.026): errs.Conflict
// naming what is missing until every notice is recorded and every window
// has ended, and the day (default) is the day after the last one ended
// (finalOn before it: errs.Invalid on final_on).
func (s *Service) FinalDay(ctx context.Context, c *cases.Case, d *cases.Defendant, finalOn string) (civil.Date, error) {
	today := civil.Today(s.Now(), s.Loc)
	status := c.Status
	var defs []cases.Defendant
	if d != nil {
		status, defs = d.Status, []cases.Defendant{*d}
	}
	switch status {
	case cases.StatusSentenced, cases.StatusJudgment:
		if finalOn != "" {
			return civil.Date{}, errs.InvalidField("final_on", "computed", "sem recurso, o dia do trânsito em julgado é o seguinte ao fim do último prazo (ou o da última renúncia): não o informe.")
		}
		missing, day, err := s.Calendar.FinalityMissing(ctx, c, defs...)
		if err != nil {
			return civil.Date{}, err
		}
		if len(missing) > 0 {
			rule := "Lei 9.099/1995, art. 82, § 1º"
			if c.Flow == cases.FlowCivil {
				rule = "CPC, arts. 1.003, § 5º, e 219; Lei 7.347/1985, art. 19"
			}
			return civil.Date{}, errs.New(errs.Conflict, "Trânsito em julgado prematuro ("+rule+"): "+strings.Join(missing, "; ")+".")
		}
		return day, nil
	case cases.StatusAppeal:
		var last decisions.AppealResult
		q := db.Conn(ctx, s.DB).Where("case_id = ? AND result IN ('confirmed', 'reformed')", c.ID)
		if d != nil {
			q = q.Where("defendant_id IS NULL OR defendant_id = ?", d.ID)
		}
		if err := q.Order("decided_on DESC").Limit(1).Find(&last).Error; err != nil {
			return civil.Date{}, err
		}
		if last.ID == 0 {
			return civil.Date{}, errs.New(errs.Conflict, "Registre antes o resultado do recurso na Turma Recursal (POST /api/v1/cases/{id}/appeal-result).")
		}
		ruled, err := s.embargosRuled(ctx, c, d)
		if err != nil {
			return civil.Date{}, err
		}
		missing, after, counted, err := s.Calendar.JudgmentFinalityMissing(ctx, c, defs...)
		if err != nil {
			return civil.Date{}, err
		}
		day := today
		if counted {
			day = after
		}
		if finalOn != "" {
			var f errs.Fields
			d, ok := cases.ParseDate(&f, "final_on", finalOn)
			if !ok {
				return civil.Date{}, f.Err()
			}
			if d.After(today) {
				return civil.Date{}, errs.InvalidField("final_on", "not_future", "o trânsito em julgado não pode estar no futuro.")
			}
			if d.Before(ruled) {
				return civil.Date{}, errs.InvalidField("final_on", "after_embargos", fmt.Sprintf("os embargos de declaração foram decididos em %s: o trânsito em julgado não lhe é anterior (%s).", ruled.BR(), calendar.InterruptLaw(c)))
			}

			if d.Before(last.DecidedOn) {
				return civil.Date{}, errs.InvalidField("final_on", "after_appeal", fmt.Sprintf("o acórdão da Turma Recursal é de %s: o trânsito em julgado não lhe é anterior.", last.DecidedOn.BR()))
			}
			signed, ok, err := s.Decisions.SentenceDay(ctx, c.ID)
			if err != nil {
				return civil.Date{}, err
			}
			if ok && d.Before(signed) {
				return civil.Date{}, errs.InvalidField("final_on", "after_sentence", fmt.Sprintf("a sentença é de %s: o trânsito em julgado não lhe é anterior.", signed.BR()))
			}
			var notified calendar.Notification
			if err := db.Conn(ctx, s.DB).Where("case_id = ? AND NOT superseded", c.ID).Order("notified_on DESC").Limit(1).Find(&notified).Error; err != nil {
				return civil.Date{}, err
			}
			if notified.ID != 0 && d.Before(notified.NotifiedOn) {
				return civil.Date{}, errs.InvalidField("final_on", "after_notification", fmt.Sprintf("a última intimação da sentença é de %s: o trânsito em julgado não lhe é anterior.", notified.NotifiedOn.BR()))
			}
			day = d
		}
		if len(missing) > 0 {
			return civil.Date{}, errs.New(errs.Conflict, "Trânsito em julgado prematuro ("+calendar.InterruptLaw(c)+"): "+strings.Join(missing, "; ")+".")
		}
		if counted && day.Before(after) {
			return civil.Date{}, errs.InvalidField("final_on", "after_windows", fmt.Sprintf("os prazos contra o acórdão, reabertos pela decisão dos embargos de declaração, terminaram só na véspera de %s: o trânsito em julgado não lhe é anterior (%s).", after.BR(), calendar.InterruptLaw(c)))
		}
		return day, nil
	}
	return today, nil
}

// StartFinalBans starts the bans of case c (of its defendant defendantID;
// 0: every defendant, a group case's final judgment) that waited for the
// final judgment (Súmula 643 STJ), whatever a co-defendant's appeal: each starts on day (or the later day the judge
// fixed) and its last day is counted from it (CP art. 10), or kept as the
// judge overrode it when the first day is the one the judge fixed; the
// defendant's precautionary bans are replaced by it (they end the day
// before). A docket movement per ban shows the days under precautionary
// bans, for the judge's decision on credit (CP art. 42). The blocklist
// follows in the same transaction. A ban that would start before its facts
// or end before it starts (the table's checks) is errs.Invalid on final_on.
func (s *Service) StartFinalBans(ctx context.Context, c *cases.Case, day civil.Date, now time.Time, defendantID int64) error {
	tx := db.Conn(ctx, s.DB)
	var rows []sanctions.Ban
	q := tx.Where("case_id = ? AND status = ?", c.ID, sanctions.StatusAwaitingFinal)
	if defendantID != 0 {
		q = q.Where("defendant_id = ?", defendantID)
	}
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return err
	}
	changed := []int64{}
	for _, b := range rows {
		first := day
		if b.StartNotBefore != nil && b.StartNotBefore.After(first) {
			first = *b.StartNotBefore
		}
		computed, err := sanctions.LastDay(first, *b.Months)
		if err != nil {
			return err
		}
		last := computed
		note := ""
		if b.OverrideReason != "" && b.LastDay != nil {
			if b.StartNotBefore != nil && first == *b.StartNotBefore {
				last = *b.LastDay
			} else {
				note = fmt.Sprintf(" O último dia alterado na sentença (%s) contava de %s; contado do trânsito em julgado, o término é %s.", b.LastDay.BR(), b.StartNotBefore.BR(), computed.BR())
			}
		}
		// The table's checks, tested before the update so that a date of the
		// input is a 422 on final_on, not a failed constraint: the ban does not
		// start before the facts (bans_check) nor end before it starts.
		if first.Before(b.FactsDate) {
			return errs.InvalidField("final_on", "after_facts", fmt.Sprintf("os fatos são de %s: o impedimento %d não começa antes deles; o trânsito em julgado em %s é anterior aos fatos.", b.FactsDate.BR(), b.ID, day.BR()))
		}
		if last.Before(first) {
			return errs.InvalidField("final_on", "last_day", fmt.Sprintf("o último dia do impedimento %d (%s) seria anterior ao primeiro (%s).", b.ID, last.BR(), first.BR()))
		}
		if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(map[string]any{"status": sanctions.StatusActive, "first_day": first,
			"computed_last_day": computed, "last_day": last}).Error; err != nil {
			return err
		}
		changed = append(changed, b.ID)
		if b.GroupBanID != nil {
			continue
		}
		var precs []sanctions.Ban
		if err := tx.Where("case_id = ? AND defendant_id = ? AND precautionary AND status = ?", c.ID, b.DefendantID, sanctions.StatusActive).Find(&precs).Error; err != nil {
			return err
		}
		for _, p := range precs {
			if err := tx.Model(&sanctions.Ban{}).Where("id = ?", p.ID).Updates(map[string]any{"status": sanctions.StatusReplaced, "lifted_on": first,
				"lift_reason": fmt.Sprintf("substituída pelo impedimento definitivo %d", b.ID)}).Error; err != nil {
				return err
			}
			p.Status, p.LiftedOn = sanctions.StatusReplaced, &first
			changed = append(changed, p.ID)
		}
		var all []sanctions.Ban
		if err := tx.Where("case_id = ? AND defendant_id = ? AND precautionary", c.ID, b.DefendantID).Find(&all).Error; err != nil {
			return err
		}
		text := fmt.Sprintf("Início do cumprimento do impedimento %d (%s, %s): de %s a %s, contado do trânsito em julgado (Súmula 643 do STJ; CP, art. 10).", b.ID, b.Article, b.Law, first.BR(), last.BR())
		if len(all) > 0 {
			text += fmt.Sprintf(" Tempo sob medida cautelar neste processo: %d dias; a detração (CP, art. 42) é decisão do(a) juiz(a).", decisions.CountPrecautionary(all, first.AddDays(-1)))
		}
		if err := s.Move(ctx, c, nil, now, cases.MoveBanStart, text+note); err != nil {
			return err
		}
	}
	// Precautionary bans of defendants with no final ban (acquitted before,
	// or convicted to prison) end with the final judgment.
	ended, err := s.Decisions.EndPrecautionary(ctx, c, defendantID, day, "trânsito em julgado da sentença sem impedimento definitivo: cessa a medida cautelar")
	if err != nil {
		return err
	}
	changed = append(changed, ended...)
	if len(changed) == 0 {
		return nil
	}
	return s.RefreshBlocklist(ctx, changed...)
}

// embargosRuled is the day of the last ruling on embargos de declaração as
// to defendant d of c (nil: every defendant of a group case), or
// errs.Conflict naming the embargos still pending: the judgment is not
// final while they wait (Lei 9.099/1995, art. 83, § 2º; CPC art. 1.026).
func (s *Service) embargosRuled(ctx context.Context, c *cases.Case, d *cases.Defendant) (civil.Date, error) {
	ds := []cases.Defendant{}
	if d != nil {
		ds = append(ds, *d)
	} else if err := db.Conn(ctx, s.DB).Where("case_id = ?", c.ID).Find(&ds).Error; err != nil {
		return civil.Date{}, err
	}
	var last civil.Date
	for _, x := range ds {
		pending, ruled, err := s.Calendar.EmbargosMissing(ctx, c, x)
		if err != nil {
			return civil.Date{}, err
		}
		if len(pending) > 0 {
			return civil.Date{}, errs.New(errs.Conflict, "Trânsito em julgado prematuro: "+strings.Join(pending, "; ")+".")
		}
		if ruled.After(last) {
			last = ruled
		}
	}
	return last, nil
}
