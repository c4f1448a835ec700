package decisions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm/clause"
)

// AppealResultInput is the body of POST /api/v1/cases/{id}/appeal-result:
// the Turma Recursal's result (confirmed, reformed, annulled), the day it
// was decided, the defendant it concerns (required for reformed) and, for
// reformed, the new decision: outcome acquittal, or a new ban term in
// months (ban.months), which replaces the ban before it starts.
type AppealResultInput struct {
	// PrisonMonths and FineDays: a reform to reclusão and fine with no
	// conversion (outcome prison).
	PrisonMonths *int     `json:"prison_months"`
	FineDays     *int     `json:"fine_days"`
	Result       string   `json:"result"`
	DefendantID  int64    `json:"defendant_id"`
	DecidedOn    string   `json:"decided_on"`
	Text         string   `json:"text"`
	Outcome      string   `json:"outcome"`
	Ban          BanInput `json:"ban"`
}

// AppealResult is a recorded result of an appeal.
type AppealResult struct {
	ID          int64      `json:"id"`
	CaseID      int64      `json:"case_id"`
	DefendantID *int64     `json:"defendant_id"`
	Result      string     `json:"result"`
	DecidedOn   civil.Date `json:"decided_on"`
	Text        string     `json:"text"`
	CreatedAt   time.Time  `json:"created_at"`
	CreatedBy   *int64     `json:"-"`
}

// SentenceDay is the day (in the court's zone) the last sentence of case
// caseID was signed, the decision an appeal attacks; ok is false when no
// sentence of the case was signed.
func (s *Service) SentenceDay(ctx context.Context, caseID int64) (day civil.Date, ok bool, err error) {
	var at *time.Time
	if err := db.Conn(ctx, s.DB).Model(&SentenceRecord{}).Where("case_id = ? AND signed_at IS NOT NULL", caseID).Select("max(signed_at)").Scan(&at).Error; err != nil {
		return civil.Date{}, false, err
	}
	if at == nil {
		return civil.Date{}, false, nil
	}
	return civil.Today(*at, s.Loc), true, nil
}

// ApplyAppealResult records the Turma Recursal's result of the appeal of
// case caseID and applies it, in the transaction of ctx, and returns the
// case (casefile.Service.RecordAppealResult answers with its view; the
// rules are written there).
func (s *Service) ApplyAppealResult(ctx context.Context, actor actor.Actor, caseID int64, in AppealResultInput) (*cases.Case, error) {
	tx := db.Conn(ctx, s.DB)
	c, d, decided, err := s.lockAppeal(ctx, actor, caseID, in)
	if err != nil {
		return nil, err
	}
	today := civil.Today(s.Now(), s.Loc)
	now := s.Now()
	uid := actor.UserID
	code := cases.TPUAppealDenied
	text := fmt.Sprintf("Turma Recursal, em %s: negado provimento ao recurso; mantida a sentença.", decided.BR())
	var changed []int64
	switch in.Result {
	case "reformed":
		code = cases.TPUAppealGranted
		if text, changed, err = s.reform(ctx, actor, c, d, in, decided, today); err != nil {
			return nil, err
		}
	case "annulled":
		code = cases.TPUAppealGranted
		if text, changed, err = s.annul(ctx, c, d, decided, today); err != nil {
			return nil, err
		}
	}
	if t := strings.TrimSpace(in.Text); t != "" {
		text += " " + t
	}
	var did *int64
	if d != nil {
		did = &d.ID
	}
	if err := tx.Create(&AppealResult{CaseID: c.ID, DefendantID: did, Result: in.Result, DecidedOn: decided, Text: strings.TrimSpace(in.Text), CreatedAt: now, CreatedBy: &uid}).Error; err != nil {
		return nil, err
	}
	if err := s.Move(ctx, c, &actor, now, code, text); err != nil {
		return nil, err
	}
	if err := s.afterAppeal(ctx, c, d, in.Result); err != nil {
		return nil, err
	}
	if len(changed) > 0 {
		if err := s.RefreshBlocklist(ctx, changed...); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// afterAppeal moves the tracks an annulment sends back for a new sentence
// (the defendant's, or every defendant in appeal; a group case: the
// hearing); other results leave them in appeal until the final judgment.
func (s *Service) afterAppeal(ctx context.Context, c *cases.Case, d *cases.Defendant, result string) error {
	if result != "annulled" {
		return s.Touch(ctx, c, "")
	}
	if c.Flow == cases.FlowCivil {
		return s.Touch(ctx, c, cases.StatusHearing)
	}
	var ids []int64
	if d != nil {
		ids = []int64{d.ID}
	} else {
		ds, err := s.Tracks(ctx, c)
		if err != nil {
			return err
		}
		for _, x := range ds {
			if x.Status == cases.StatusAppeal {
				ids = append(ids, x.ID)
			}
		}
	}
	return s.SetTrack(ctx, c, cases.StatusInstructionHearing, nil, ids...)
}

// lockAppeal locks case caseID for its appeal's result and checks in: the
// clerk records it (errs.Forbidden), the case is in appeal and has no
// result yet since its last sentence (errs.Conflict), decided_on is not in
// the future nor before the sentence, a reform names its defendant and its
// new decision (errs.Invalid). It returns the case, the defendant (nil for
// the whole case) and the day the appeal was decided.
func (s *Service) lockAppeal(ctx context.Context, actor actor.Actor, caseID int64, in AppealResultInput) (*cases.Case, *cases.Defendant, civil.Date, error) {
	tx := db.Conn(ctx, s.DB)
	c, err := s.LockCase(ctx, actor, caseID)
	if err != nil {
		return nil, nil, civil.Date{}, err
	}
	if actor.Role != "clerk" {
		return nil, nil, civil.Date{}, errs.New(errs.Forbidden, "O resultado do recurso é registrado pelo cartório (clerk).")
	}
	if err := s.inAppeal(ctx, c, nil); err != nil { // some track in appeal
		return nil, nil, civil.Date{}, err
	}
	var f errs.Fields
	today := civil.Today(s.Now(), s.Loc)
	var decided civil.Date
	if in.DecidedOn == "" {
		decided = today
	} else if d, ok := cases.ParseDate(&f, "decided_on", in.DecidedOn); ok {
		if d.After(today) {
			f.Add("decided_on", "not_future", "o julgamento do recurso não pode estar no futuro.")
		}
		decided = d
	}
	// The Turma Recursal judges the appeal of a signed sentence: not
	// before the day it was signed (Lei 9.099/1995, art. 82).
	if signed, ok, err := s.SentenceDay(ctx, c.ID); err != nil {
		return nil, nil, civil.Date{}, err
	} else if ok && !decided.IsZero() && decided.Before(signed) {
		f.Add("decided_on", "after_sentence", fmt.Sprintf("a sentença recorrida é de %s: o julgamento do recurso não lhe é anterior.", signed.BR()))
	}
	cases.CheckText(&f, "text", in.Text, cases.MaxLong, true)
	var d *cases.Defendant
	if in.DefendantID != 0 {
		if d, err = s.PersonOf(ctx, c, in.DefendantID, "defendant_id"); err != nil {
			return nil, nil, civil.Date{}, err
		}
	}
	if d != nil {
		if err := s.inAppeal(ctx, c, d); err != nil { // his own track
			return nil, nil, civil.Date{}, err
		}
	}
	switch in.Result {
	case "confirmed", "annulled":
	case "reformed":
		if d == nil {
			f.Add("defendant_id", "required", "informe o réu cuja sentença foi reformada.")
		}
		switch {
		case in.Outcome == OutcomePrison:
			if in.PrisonMonths == nil {
				f.Add("prison_months", "required", "informe a reclusão fixada pela Turma Recursal, em meses.")
			}
			if in.Ban.Months != nil {
				f.Add("ban.months", "prison", "a reforma para reclusão sem conversão não tem prazo de impedimento.")
			}
		case (in.Outcome == OutcomeAcquittal) == (in.Ban.Months != nil):
			f.Add("outcome", "reform", "informe o novo prazo (ban.months), outcome \"prison\" com prison_months e fine_days, ou outcome \"acquittal\".")
		}
	default:
		f.Add("result", "oneof", "use confirmed (negado provimento), reformed (reformada) ou annulled (anulada).")
	}
	if err := f.Err(); err != nil {
		return nil, nil, civil.Date{}, err
	}
	// One result per appeal: a result for the defendant (or for the whole
	// case) recorded since the last sentence settles it.
	var prior int64
	pq := tx.Model(&AppealResult{}).Where("case_id = ? AND created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE case_id = ?)", c.ID, c.ID)
	if d != nil {
		pq = pq.Where("defendant_id IS NULL OR defendant_id = ?", d.ID)
	}
	if err := pq.Count(&prior).Error; err != nil {
		return nil, nil, civil.Date{}, err
	}
	if prior > 0 {
		return nil, nil, civil.Date{}, errs.New(errs.Conflict, "O resultado deste recurso já foi registrado: a Turma Recursal julga o recurso uma vez.")
	}
	return c, d, decided, nil
}

// inAppeal is errs.Conflict unless defendant d's track (d nil: some
// defendant's; a group case's: the case's) is in appeal (DOMAIN.md §4).
func (s *Service) inAppeal(ctx context.Context, c *cases.Case, d *cases.Defendant) error {
	if c.Flow == cases.FlowCivil || d == nil {
		ds, err := s.Tracks(ctx, c)
		if err != nil {
			return err
		}
		for _, x := range ds {
			if x.Status == cases.StatusAppeal {
				return nil
			}
		}
		return errs.New(errs.Conflict, fmt.Sprintf("O processo não está em recurso (está em “%s”).", cases.OrStatus(c.Status)))
	}
	if st := cases.TrackOf(c, *d); st != cases.StatusAppeal {
		return errs.New(errs.Conflict, fmt.Sprintf("O réu %s não está em recurso (está em “%s”).", cases.NameOf(*d), cases.OrStatus(st)))
	}
	return nil
}

// reform applies a reformed decision to defendant d's ban awaiting the
// final judgment: reformed to an acquittal (the ban and the sentence lose
// effect, the precautionary bans end), to reclusão without conversion, or
// to a new term (a new ban replaces it). It returns the docket's text and
// the bans changed.
func (s *Service) reform(ctx context.Context, actor actor.Actor, c *cases.Case, d *cases.Defendant, in AppealResultInput, decided, today civil.Date) (string, []int64, error) {
	tx := db.Conn(ctx, s.DB)
	now, uid := s.Now(), actor.UserID
	var text string
	var changed []int64
	var b sanctions.Ban
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("defendant_id = ? AND NOT precautionary AND group_ban_id IS NULL AND status = ?", d.ID, sanctions.StatusAwaitingFinal).Limit(1).Find(&b).Error; err != nil {
		return "", nil, err
	}
	if b.ID == 0 {
		return "", nil, errs.InvalidField("defendant_id", "awaiting_final", "o réu não tem impedimento aguardando o trânsito em julgado para reformar.")
	}
	prison, err := s.checkReform(ctx, b, d, in)
	if err != nil {
		return "", nil, err
	}
	if err := tx.Model(&sanctions.Ban{}).Where("id = ? OR group_ban_id = ?", b.ID, b.ID).Update("status", sanctions.StatusReformed).Error; err != nil {
		return "", nil, err
	}
	changed = append(changed, b.ID)
	if in.Outcome == OutcomeAcquittal {
		if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed'", d.ID).Update("status", "reformed").Error; err != nil {
			return "", nil, err
		}
		text = fmt.Sprintf("Turma Recursal, em %s: dado provimento ao recurso; reformada a sentença para absolver %s; impedimento %d sem efeito.", decided.BR(), d.FullName, b.ID)
		ids, err := s.EndPrecautionary(ctx, c, d.ID, today, "absolvição em recurso: cessam as medidas cautelares (CPP, art. 386, parágrafo único, II)")
		if err != nil {
			return "", nil, err
		}
		changed = append(changed, ids...)
	} else if in.Outcome == OutcomePrison {
		if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed'", d.ID).Updates(map[string]any{"outcome": OutcomePrison,
			"prison_months": *in.PrisonMonths, "fine_days": in.FineDays, "ban_id": nil, "article": prison.Offence, "law": prison.Law,
			"no_conversion_reason": "reformada em recurso pela Turma Recursal"}).Error; err != nil {
			return "", nil, err
		}
		text = fmt.Sprintf("Turma Recursal, em %s: reformada a sentença de %s para reclusão de %s, sem conversão em impedimento; impedimento %d sem efeito.", decided.BR(), d.FullName, cases.MonthsText(*in.PrisonMonths), b.ID)
		if in.FineDays != nil {
			text = strings.Replace(text, ", sem conversão", fmt.Sprintf(" e %d dias-multa, sem conversão", *in.FineDays), 1)
		}
	} else {
		nb := b
		nb.LiftedOn, nb.LiftReason = nil, ""
		nb.ID, nb.Months, nb.LastDay, nb.ComputedLastDay, nb.OverrideReason, nb.CreatedAt, nb.CreatedBy = 0, in.Ban.Months, nil, nil, "", now, &uid
		if err := tx.Create(&nb).Error; err != nil {
			return "", nil, err
		}
		if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed'", d.ID).Update("ban_id", nb.ID).Error; err != nil {
			return "", nil, err
		}
		changed = append(changed, nb.ID)
		text = fmt.Sprintf("Turma Recursal, em %s: dado provimento ao recurso; reformada a pena de %s para impedimento de %s (impedimento %d, em lugar do %d), a cumprir após o trânsito em julgado.", decided.BR(), d.FullName, cases.MonthsText(*in.Ban.Months), nb.ID, b.ID)
	}
	return text, changed, nil
}

// checkReform checks the reformed decision in for ban b of defendant d: a
// reclusão without conversion within the offence's range as sentenced
// (returned) and its fine, or a new term within the range recorded on b.
func (s *Service) checkReform(ctx context.Context, b sanctions.Ban, d *cases.Defendant, in AppealResultInput) (sanctions.Range, error) {
	tx := db.Conn(ctx, s.DB)
	if in.Outcome == OutcomePrison {
		// The reclusão of the offence as sentenced (the defendant's
		// flags; Lei 14.597/2023, art. 201, §§ 6º, 7º; art. 41-B).
		var rec SentenceRecord
		if err := tx.Where("defendant_id = ? AND status = 'signed'", d.ID).Limit(1).Find(&rec).Error; err != nil {
			return sanctions.Range{}, err
		}
		var fl Flags
		_ = json.Unmarshal(rec.Flags, &fl)
		no := false
		rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: b.FactsDate, Eligible: &no, Organiser: &fl.Organiser, Sec7: &fl.Sec7})
		if err != nil || b.Subject != sanctions.Person || b.Cumulative {
			return sanctions.Range{}, errs.InvalidField("outcome", "no_prison", "esta pena não se reforma em reclusão sem conversão.")
		}
		if msg := sanctions.CheckPrison(rg, *in.PrisonMonths); msg != "" {
			return sanctions.Range{}, errs.InvalidField("prison_months", "range", msg+".")
		}
		if in.FineDays != nil {
			if msg := sanctions.CheckFineDays(*in.FineDays); msg != "" {
				return sanctions.Range{}, errs.InvalidField("fine_days", "range", msg+".")
			}
		} else if rg.Fine {
			return sanctions.Range{}, errs.InvalidField("fine_days", "required", "informe a multa em dias-multa (CP, art. 49).")
		}
		return rg, nil
	} else if in.Outcome != OutcomeAcquittal {
		rg := sanctions.Range{Convertible: true, MinMonths: b.RangeMinMonths, MaxMonths: b.RangeMaxMonths, Law: b.Law, Article: b.Article}
		if b.Cumulative {
			return sanctions.Range{}, errs.InvalidField("ban.months", "fixed", "a proibição de frequência do art. 20, § 2º-A, da Lei 7.716/1989 é fixada em 3 anos.")
		}
		if err := sanctions.CheckMonths(rg, *in.Ban.Months); err != nil {
			return sanctions.Range{}, errs.InvalidField("ban.months", "range", err.Error())
		}
	}
	return sanctions.Range{}, nil
}

// annul annuls the signed sentences of case c (of defendant d, or all when
// d is nil) and their bans awaiting the final judgment, supersedes the
// notifications and ends the precautionary bans they imposed. It returns
// the docket's text and the bans changed.
func (s *Service) annul(ctx context.Context, c *cases.Case, d *cases.Defendant, decided, today civil.Date) (string, []int64, error) {
	tx := db.Conn(ctx, s.DB)
	var changed []int64
	q := tx.Model(&SentenceRecord{}).Where("case_id = ? AND status = 'signed'", c.ID)
	bq := tx.Model(&sanctions.Ban{}).Where("case_id = ? AND status = ? ", c.ID, sanctions.StatusAwaitingFinal)
	if d != nil {
		q, bq = q.Where("defendant_id = ?", d.ID), bq.Where("defendant_id = ?", d.ID)
	}
	if err := q.Update("status", "annulled").Error; err != nil {
		return "", nil, err
	}
	if err := bq.Update("status", sanctions.StatusAnnulled).Error; err != nil {
		return "", nil, err
	}
	nq := tx.Model(&calendar.Notification{}).Where("case_id = ?", c.ID)
	if d != nil {
		nq = nq.Where("defendant_id = ?", d.ID)
	}
	if err := nq.Update("superseded", true).Error; err != nil {
		return "", nil, err
	}
	did := int64(0)
	if d != nil {
		did = d.ID
	}
	ids, err := s.EndPrecautionary(ctx, c, did, today, "anulada a sentença que a impôs: cessa a medida cautelar; o(a) juiz(a) pode impô-la de novo")
	if err != nil {
		return "", nil, err
	}
	changed = append(changed, ids...)
	text := fmt.Sprintf("Turma Recursal, em %s: anulada a sentença; os autos voltam para nova sentença.", decided.BR())
	return text, changed, nil
}
