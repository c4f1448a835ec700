package execution

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm/clause"
)

// Breach sources.
var BreachSources = []string{"police_report", "gate_hit"}

// BreachInput is the body of POST /api/v1/bans/{id}/breaches: the day of
// the breach, where it is known from (a police report or a gate hit), the
// report's or the gate record's reference, and a description.
type BreachInput struct {
	OccurredOn  string `json:"occurred_on"`
	Source      string `json:"source"`
	Reference   string `json:"reference"`
	Description string `json:"description"`
}

// Breach is a recorded unjustified breach of a ban with the conversion
// figures computed when it was recorded.
type Breach struct {
	ID           int64      `json:"id"`
	BanID        int64      `json:"ban_id"`
	CaseID       int64      `json:"case_id"`
	OccurredOn   civil.Date `json:"occurred_on"`
	Source       string     `json:"source"`
	Reference    string     `json:"reference"`
	Description  string     `json:"description"`
	DaysServed   int        `json:"days_served"`
	PrisonMonths *int       `json:"prison_months"`
	QuantumDays  *int       `json:"quantum_days"`
	BalanceDays  *int       `json:"balance_days"`
	RecordedAt   time.Time  `json:"recorded_at"`
	RecordedBy   *int64     `json:"-"`
	RecorderRole string     `json:"recorder_role"`
	// Decision is the judge's: convert (with DecidedBalanceDays), undo_plea,
	// justified or noted; nil while pending.
	Decision           *string    `json:"decision"`
	DecidedBalanceDays *int       `json:"decided_balance_days"`
	DecisionReason     string     `json:"decision_reason,omitempty"`
	DecidedAt          *time.Time `json:"decided_at"`
	DecidedBy          *int64     `json:"-"`
}

// BreachResult is what RecordBreach answers: the breach and the conversion
// step it opens (nil when the ban is not convertible to prison: a
// precautionary or a group ban), with notes in Portuguese.
type BreachResult struct {
	Breach Breach `json:"breach"`
	// Kind is what the breach opens (sanctions.BreachKindOf: conversion,
	// plea_agreement, no_conversion, precautionary, conditional_suspension).
	Kind       string                `json:"kind"`
	Conversion *sanctions.Conversion `json:"conversion"`
	Warnings   []string              `json:"warnings"`
}

// RecordBreach records an unjustified breach of ban banID of the actor's
// court (a prosecutor or the police) and opens the conversion step in the
// case (Lei 14.597/2023, art. 201, § 3º; Lei 10.671/2003, art. 41-B, § 3º):
// the days served from the first day to the day before the breach and the
// balance of the custodial quantum (sanctions.BreachConversion; at least 30
// days). It writes the breach and a docket movement in one transaction.
//
// Errors: errs.NotFound (no such ban in the court); errs.Invalid naming
// occurred_on (form, future, outside the term), source, reference or
// description; errs.Conflict for the same breach recorded twice.
func (s *Service) RecordBreach(ctx context.Context, actor actor.Actor, banID int64, in BreachInput) (*BreachResult, error) {
	var res *BreachResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.LoadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		var f errs.Fields
		now := s.Now()
		today := civil.Today(now, s.Loc)
		var day civil.Date
		dayOK := false
		if in.OccurredOn == "" {
			f.Add("occurred_on", "required", "informe o dia do descumprimento (AAAA-MM-DD).")
		} else if d, ok := cases.ParseDate(&f, "occurred_on", in.OccurredOn); ok {
			if d.After(today) {
				f.Add("occurred_on", "not_future", "o descumprimento não pode estar no futuro.")
			} else {
				day, dayOK = d, true
			}
		}
		if !cases.Contains(BreachSources, in.Source) {
			f.Add("source", "oneof", "deve ser police_report (boletim de ocorrência) ou gate_hit (registro de catraca).")
		}
		if strings.TrimSpace(in.Reference) == "" {
			f.Add("reference", "required", "informe o número do boletim de ocorrência ou do registro da catraca.")
		}
		cases.CheckText(&f, "reference", in.Reference, cases.MaxListItemLen, false)
		cases.CheckText(&f, "description", in.Description, cases.MaxLong, true)
		var conv *sanctions.Conversion
		var warnings []string
		served := 0
		term, started := cases.BanTerm(*b)
		if !started {
			f.Add("occurred_on", "in_term", fmt.Sprintf("o impedimento %d não está em cumprimento (situação: %s): só se descumpre um impedimento em vigor.", b.ID, sanctions.StatePT[b.State(today)]))
		} else if dayOK {
			rule := sanctions.ConversionRule(*b)
			cv, err := sanctions.BreachConversion(term, day, b.PrisonMonths, rule)
			var de *sanctions.BreachDateError
			switch {
			case errors.As(err, &de):
				f.Add("occurred_on", "in_term", de.Reason+" Só se descumpre um impedimento em vigor.")
			case err != nil:
				return err
			default:
				served = cv.DaysServed
				if sanctions.BreachKindOf(*b) == sanctions.BreachConvertible {
					conv = &cv
				} else {
					warnings = append(warnings, sanctions.BreachNote(*b, served))
				}
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		uid := actor.UserID
		br := Breach{BanID: b.ID, CaseID: b.CaseID, OccurredOn: day, Source: in.Source, Reference: strings.TrimSpace(in.Reference),
			Description: strings.TrimSpace(in.Description), DaysServed: served, RecordedAt: now, RecordedBy: &uid, RecorderRole: actor.Role}
		if conv != nil {
			br.PrisonMonths, br.QuantumDays, br.BalanceDays = conv.PrisonMonths, conv.QuantumDays, conv.BalanceDays
		}
		tx := db.Conn(ctx, s.DB)
		if err := tx.Create(&br).Error; err != nil {
			if db.IsUniqueViolation(err, "breaches_once") {
				return errs.New(errs.Conflict, "Este descumprimento (mesmo dia, mesma origem e mesma referência) já foi registrado.")
			}
			return err
		}
		src := "boletim de ocorrência"
		if br.Source == "gate_hit" {
			src = "registro de catraca"
		}
		text := fmt.Sprintf("Descumprimento do impedimento %d comunicado (%s %s) em %s.", b.ID, src, br.Reference, day.BR())
		if conv != nil {
			text += " Aberta a conversão em pena privativa de liberdade, a decidir pelo(a) juiz(a): " + conv.Note
		} else if len(warnings) > 0 {
			text += " " + warnings[0]
		}
		if err := tx.Create(&cases.Movement{CaseID: c.ID, At: now, Kind: cases.MoveBreach, Description: text, AuthorUserID: &uid, AuthorRole: actor.Role}).Error; err != nil {
			return err
		}
		if warnings == nil {
			warnings = []string{}
		}
		res = &BreachResult{Breach: br, Kind: sanctions.BreachKindOf(*b), Conversion: conv, Warnings: warnings}
		return nil
	})
	return res, err
}

// LiftInput is the body of POST /api/v1/bans/{id}/lift.
type LiftInput struct {
	LiftedOn string `json:"lifted_on"`
	Reason   string `json:"reason"`
}

// Lift lifts precautionary ban banID (a medida cautelar of CPP art. 319,
// II, in force until lifted; CPP art. 282, § 5º): status becomes "lifted"
// with the date and reason of the decision, a movement is written and the
// blocklist refreshed, in one transaction. The urgent order against a group
// (CPC arts. 296 and 300) is lifted as a whole: the members' precautionary
// bans it made end the same day, with the same reason, and leave the
// blocklist in the same transaction. Only the judge the case is
// distributed to may lift (errs.Forbidden).
//
// Errors: errs.NotFound; errs.Forbidden; errs.Conflict when the ban is not
// precautionary or is already lifted; errs.Invalid naming lifted_on (form,
// future, before the order) or reason (required).
func (s *Service) Lift(ctx context.Context, actor actor.Actor, banID int64, in LiftInput) (*cases.BanView, error) {
	var out *cases.BanView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.LoadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		if err := cases.JudgeOfCase(actor, c, "revogar a medida cautelar"); err != nil {
			return err
		}
		if !b.Precautionary {
			return errs.New(errs.Conflict, "Só o impedimento cautelar (CPP, art. 319, II) é revogado por esta via; o impedimento da sentença tem último dia.")
		}
		if b.Status != "active" {
			return errs.New(errs.Conflict, fmt.Sprintf("O impedimento cautelar %d já foi revogado.", b.ID))
		}
		var f errs.Fields
		now := s.Now()
		today := civil.Today(now, s.Loc)
		ordered := civil.Today(b.CreatedAt, s.Loc)
		var on civil.Date
		if in.LiftedOn == "" {
			f.Add("lifted_on", "required", "informe a data da decisão que revoga a medida (AAAA-MM-DD).")
		} else if d, ok := cases.ParseDate(&f, "lifted_on", in.LiftedOn); ok {
			switch {
			case d.After(today):
				f.Add("lifted_on", "not_future", "a revogação não pode ter data futura: revogue no dia da decisão.")
			case d.Before(ordered):
				f.Add("lifted_on", "after_order", fmt.Sprintf("a revogação não pode ser anterior à decisão que impôs a medida (%s).", ordered.BR()))
			default:
				on = d
			}
		}
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "informe o motivo da revogação.")
		}
		cases.CheckText(&f, "reason", in.Reason, cases.MaxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		tx := db.Conn(ctx, s.DB)
		reason := strings.TrimSpace(in.Reason)
		if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).
			Updates(map[string]any{"status": "lifted", "lifted_on": on, "lift_reason": reason}).Error; err != nil {
			return err
		}
		members, err := s.liftMembers(ctx, b.ID, on, reason)
		if err != nil {
			return err
		}
		uid := actor.UserID
		if err := tx.Create(&cases.Movement{CaseID: c.ID, At: now, Kind: cases.MovePrecautionaryEnded, AuthorUserID: &uid, AuthorRole: actor.Role,
			Description: fmt.Sprintf("Revogada em %s a medida cautelar de proibição de acesso a eventos esportivos (impedimento %d; %s): %s%s", on.BR(), b.ID, liftArticle(*b), reason, membersText(members))}).Error; err != nil {
			return err
		}
		if err := s.RefreshBlocklist(ctx, append([]int64{b.ID}, members...)...); err != nil {
			return err
		}
		b.Status, b.LiftedOn, b.LiftReason = "lifted", &on, reason
		v := s.BanView(*b)
		v.LiftedOn, v.LiftReason = b.LiftedOn, b.LiftReason
		out = &v
		return nil
	})
	return out, err
}

// ExtendInput is the body of POST /api/v1/bans/{id}/extend. A final ban is
// never extended (res judicata, CF art. 5º, XXXVI); a precautionary ban's
// "extension" is its renewal: the new review date and the reason.
type ExtendInput struct {
	Months   *int   `json:"months"`
	ReviewOn string `json:"review_on"`
	Reason   string `json:"reason"`
}

// RenewInput is the body of POST /api/v1/bans/{id}/renew: the new review
// date of a precautionary ban and the reason (CPP art. 282, §§ 4º–6º; Res.
// CNJ 417/2021: a renewal is a new mandate in the BNMP).
type RenewInput struct {
	ReviewOn string `json:"review_on"`
	Reason   string `json:"reason"`
}

// Renewal is one recorded renewal of a precautionary ban.
type Renewal struct {
	ID             int64       `json:"id"`
	BanID          int64       `json:"ban_id"`
	PreviousReview *civil.Date `json:"previous_review" gorm:"column:previous_review"`
	NewReview      civil.Date  `json:"new_review" gorm:"column:new_review"`
	Reason         string      `json:"reason"`
	DecidedAt      time.Time   `json:"decided_at"`
	DecidedBy      *int64      `json:"-"`
}

// TableName is ban_renewals.
func (Renewal) TableName() string { return "ban_renewals" }

// RenewResult is what Renew answers.
type RenewResult struct {
	Ban     cases.BanView `json:"ban"`
	Renewal Renewal       `json:"renewal"`
	Notes   []string      `json:"warnings"`
}

// Extend answers POST /api/v1/bans/{id}/extend: a final ban (sentence,
// plea agreement, civil judgment) cannot be extended — res judicata, CF
// art. 5º, XXXVI; no statute allows it (errs.Conflict, naming the
// correction of a material error as the only change) —, and a
// precautionary ban is renewed (Renew).
func (s *Service) Extend(ctx context.Context, actor actor.Actor, banID int64, in ExtendInput) (*RenewResult, error) {
	b, c, err := s.LoadBan(ctx, actor, banID, false)
	if err != nil {
		return nil, err
	}
	if err := cases.JudgeOfCase(actor, c, "decidir sobre o impedimento"); err != nil {
		return nil, err
	}
	if !b.Precautionary {
		return nil, errs.New(errs.Conflict, "O impedimento definitivo não se prorroga: a pena fixada na sentença faz coisa julgada (CF, art. 5º, XXXVI) e nenhuma lei prevê sua prorrogação. Erro material se corrige por POST /api/v1/bans/{id}/correct, com a justificativa.")
	}
	if in.Months != nil {
		return nil, errs.InvalidField("months", "precautionary", "a medida cautelar não tem prazo em meses: renove-a fixando nova data de revisão (review_on).")
	}
	return s.Renew(ctx, actor, banID, RenewInput{ReviewOn: in.ReviewOn, Reason: in.Reason})
}

// Renew renews precautionary ban banID (the judge of the case): the review
// date moves to in.ReviewOn with a reason, recorded with a movement (CPP
// art. 319, II; art. 282; Res. CNJ 417/2021, art. 19). Renewing the urgent
// order against a group (CPC arts. 296 and 300) renews the members'
// precautionary bans it made with it: their review date follows, each with
// its recorded renewal (renewMembers). errs.Conflict for a
// ban that is not precautionary or no longer active; errs.Invalid naming
// review_on (required, after today and the current review date, within a
// year) or reason.
func (s *Service) Renew(ctx context.Context, actor actor.Actor, banID int64, in RenewInput) (*RenewResult, error) {
	var out *RenewResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.LoadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		if err := cases.JudgeOfCase(actor, c, "renovar a medida cautelar"); err != nil {
			return err
		}
		if !b.Precautionary {
			return errs.New(errs.Conflict, "Só a medida cautelar (CPP, art. 319, II) se renova; o impedimento definitivo não se prorroga (CF, art. 5º, XXXVI).")
		}
		if b.Status != sanctions.StatusActive {
			return errs.New(errs.Conflict, fmt.Sprintf("A medida cautelar %d não está ativa (%s).", b.ID, sanctions.StatePT[b.Status]))
		}
		var f errs.Fields
		today := civil.Today(s.Now(), s.Loc)
		var review civil.Date
		if in.ReviewOn == "" {
			f.Add("review_on", "required", "informe a nova data de revisão (AAAA-MM-DD).")
		} else if d, ok := cases.ParseDate(&f, "review_on", in.ReviewOn); ok {
			switch {
			case !d.After(today):
				f.Add("review_on", "future", "a nova revisão deve ser uma data futura.")
			case b.ReviewOn != nil && !d.After(*b.ReviewOn):
				f.Add("review_on", "later", fmt.Sprintf("a renovação leva a revisão para depois da atual (%s).", b.ReviewOn.BR()))
			case d.After(today.AddDays(366)):
				f.Add("review_on", "max", "a revisão deve ocorrer em até um ano.")
			default:
				review = d
			}
		}
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "informe o fundamento da renovação.")
		}
		cases.CheckText(&f, "reason", in.Reason, cases.MaxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		now := s.Now()
		uid := actor.UserID
		rn := Renewal{BanID: b.ID, PreviousReview: b.ReviewOn, NewReview: review, Reason: strings.TrimSpace(in.Reason), DecidedAt: now, DecidedBy: &uid}
		tx := db.Conn(ctx, s.DB)
		if err := tx.Create(&rn).Error; err != nil {
			return err
		}
		if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).Update("review_on", review).Error; err != nil {
			return err
		}
		members, err := s.renewMembers(ctx, rn)
		if err != nil {
			return err
		}
		prev := "sem data"
		if b.ReviewOn != nil {
			prev = b.ReviewOn.BR()
		}
		if err := s.Move(ctx, c, &actor, now, cases.MovePrecautionaryRenewed, fmt.Sprintf("Renovada a medida cautelar de proibição de acesso a eventos esportivos (impedimento %d; %s): revisão em %s (antes, %s). Fundamento: %s%s", b.ID, renewArticle(*b), review.BR(), prev, rn.Reason, membersText(members))); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		b.ReviewOn = &review
		out = &RenewResult{Ban: s.BanView(*b), Renewal: rn, Notes: []string{"Renovação é novo mandado no BNMP (Res. CNJ 417/2021): registre-o."}}
		return nil
	})
	return out, err
}

// CorrectInput is the body of POST /api/v1/bans/{id}/correct: the corrected
// last day and the material error it corrects.
type CorrectInput struct {
	LastDay string `json:"last_day"`
	Reason  string `json:"reason"`
}

// Correct corrects a material error in the last day of ban banID (the judge
// of the case; DOMAIN.md §3: not an extension): the last day stays within
// the range recorded on the ban, counted from its first day (CP art. 10),
// and the correction is its own movement, with its reason. errs.Conflict
// for a precautionary ban (no last day) or one not in its term; errs.Invalid
// naming last_day or reason.
func (s *Service) Correct(ctx context.Context, actor actor.Actor, banID int64, in CorrectInput) (*cases.BanView, error) {
	var out *cases.BanView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.LoadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		if err := cases.JudgeOfCase(actor, c, "corrigir o impedimento"); err != nil {
			return err
		}
		if b.Precautionary || b.Status != sanctions.StatusActive || b.FirstDay == nil || b.LastDay == nil {
			return errs.New(errs.Conflict, fmt.Sprintf("O impedimento %d não tem último dia a corrigir (situação: %s).", b.ID, sanctions.StatePT[b.State(civil.Today(s.Now(), s.Loc))]))
		}
		var f errs.Fields
		var last civil.Date
		if in.LastDay == "" {
			f.Add("last_day", "required", "informe o último dia corrigido (AAAA-MM-DD).")
		} else if d, ok := cases.ParseDate(&f, "last_day", in.LastDay); ok {
			// A material error changes no penalty (CF art. 5º, XXXVI): the
			// last day is the one counted from the first day (CP art. 10),
			// less any credit decided (CP art. 42), or the day before it
			// (the clamp reading of a month without that day, DOMAIN.md §3).
			counted, err := sanctions.LastDay(*b.FirstDay, *b.Months)
			if err != nil {
				return err
			}
			if b.CreditDays != nil {
				counted = counted.AddDays(-*b.CreditDays)
			}
			switch {
			case d == *b.LastDay:
				f.Add("last_day", "changed", "o último dia informado é o atual.")
			case d != counted && (d != counted.AddDays(-1) || !rolled(*b.FirstDay, counted) || counted.AddDays(-1).Before(minLast(*b.FirstDay, b.RangeMinMonths))):
				f.Add("last_day", "material_error", fmt.Sprintf("contado do primeiro dia (%s), o prazo de %s termina em %s (CP, art. 10), ou em %s pela leitura que não avança o dia inexistente: a correção de erro material não altera a pena (CF, art. 5º, XXXVI).", b.FirstDay.BR(), cases.MonthsText(*b.Months), counted.BR(), counted.AddDays(-1).BR()))
			default:
				last = d
			}
		}
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "descreva o erro material corrigido.")
		}
		cases.CheckText(&f, "reason", in.Reason, cases.MaxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		reason := strings.TrimSpace(in.Reason)
		if err := db.Conn(ctx, s.DB).Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(map[string]any{"last_day": last, "override_reason": reason}).Error; err != nil {
			return err
		}
		if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveBanCorrected, fmt.Sprintf("Correção de erro material no impedimento %d: último dia %s (antes, %s). Erro corrigido: %s", b.ID, last.BR(), b.LastDay.BR(), reason)); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		if err := s.RefreshBlocklist(ctx, b.ID); err != nil {
			return err
		}
		b.LastDay, b.OverrideReason = &last, reason
		v := s.BanView(*b)
		out = &v
		return nil
	})
	return out, err
}

// CreditInput is the body of POST /api/v1/bans/{id}/credit: the days of
// precautionary ban credited to the final ban, and the reason.
type CreditInput struct {
	Days   *int   `json:"days"`
	Reason string `json:"reason"`
}

// Credit records the judge's decision on the time served under a
// precautionary ban (detração, CP art. 42; a decision, never automatic):
// the final ban banID's last day moves earlier by in.Days, at most the days
// the defendant was under a precautionary ban in the case. 0 days records a
// refusal. errs.Conflict when the ban is precautionary, not yet started or
// already credited; errs.Invalid naming days or reason.
func (s *Service) Credit(ctx context.Context, actor actor.Actor, banID int64, in CreditInput) (*cases.BanView, error) {
	var out *cases.BanView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.LoadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		if err := cases.JudgeOfCase(actor, c, "decidir a detração"); err != nil {
			return err
		}
		if b.Precautionary || b.Status != sanctions.StatusActive || b.FirstDay == nil || b.LastDay == nil {
			return errs.New(errs.Conflict, "A detração (CP, art. 42) decide-se sobre o impedimento definitivo em cumprimento.")
		}
		if b.CreditDays != nil {
			return errs.New(errs.Conflict, fmt.Sprintf("A detração do impedimento %d já foi decidida (%d dias).", b.ID, *b.CreditDays))
		}
		under, err := s.Decisions.PrecautionaryDays(ctx, b.CaseID, b.DefendantID)
		if err != nil {
			return err
		}
		var f errs.Fields
		if in.Days == nil {
			f.Add("days", "required", "informe os dias a descontar (0 para não descontar).")
		} else if *in.Days < 0 || *in.Days > under {
			f.Add("days", "range", fmt.Sprintf("o réu esteve %d dias sob medida cautelar neste processo: desconte de 0 a %d dias (CP, art. 42).", under, under))
		} else if *in.Days > 0 && !b.LastDay.AddDays(-*in.Days).After(*b.FirstDay) {
			f.Add("days", "term", "o desconto não pode consumir todo o prazo do impedimento.")
		}
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "fundamente a decisão sobre a detração.")
		}
		cases.CheckText(&f, "reason", in.Reason, cases.MaxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		last := b.LastDay.AddDays(-*in.Days)
		reason := strings.TrimSpace(in.Reason)
		if err := db.Conn(ctx, s.DB).Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(map[string]any{"last_day": last, "credit_days": *in.Days, "credit_reason": reason}).Error; err != nil {
			return err
		}
		if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveBanCredit, fmt.Sprintf("Detração (CP, art. 42) no impedimento %d: descontados %d dos %d dias sob medida cautelar; término em %s (antes, %s). Fundamento: %s", b.ID, *in.Days, under, last.BR(), b.LastDay.BR(), reason)); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		if err := s.RefreshBlocklist(ctx, b.ID); err != nil {
			return err
		}
		b.LastDay, b.CreditDays, b.CreditReason = &last, in.Days, reason
		v := s.BanView(*b)
		v.PrecautionaryDays = &under
		out = &v
		return nil
	})
	return out, err
}

// rolled reports whether the term from first ended on last by the roll
// forward of CP art. 10 (DOMAIN.md §3): the day-number of first does not
// exist in the final month, so the last day is that month's last day; only
// then does the clamp reading (one day earlier) apply.
func rolled(first, last civil.Date) bool {
	return last.Day < first.Day && last.Day == civil.DaysIn(last.Year, last.Month)
}

// minLast is the last day of the statutory minimum term from first (at
// least one month): no correction ends a ban before it.
func minLast(first civil.Date, minMonths int) civil.Date {
	d, _ := sanctions.LastDay(first, max(minMonths, 1))
	return d
}

// BreachDecisionInput is the body of POST /api/v1/breaches/{id}/decision:
// convert (a conversion ban: the balance in days, at least 30, CP art. 44,
// § 4º), undo_plea (a plea-agreement ban: Súmula Vinculante 35), justified
// (the breach had a justification: nothing changes) or noted (recorded: a
// ban without conversion, CP art. 359), with the reason.
type BreachDecisionInput struct {
	Decision    string `json:"decision"`
	BalanceDays *int   `json:"balance_days"`
	Reason      string `json:"reason"`
}

// DecideBreach records the judge's decision on breach breachID of the
// actor's court (the judge of the case): convert ends the ban (status
// converted) with the balance the judge fixes; undo_plea undoes the plea
// agreement, ends its ban and returns that defendant's track (only his) to
// the prosecutor for the accusation (preliminary_hearing); justified and noted change no ban.
// Each writes a movement citing the law in force at the facts; the
// blocklist follows. errs.NotFound, errs.Forbidden, errs.Conflict (already
// decided, or a decision the ban's kind does not allow), errs.Invalid.
func (s *Service) DecideBreach(ctx context.Context, actor actor.Actor, breachID int64, in BreachDecisionInput) (*Breach, error) {
	var out *Breach
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var br Breach
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", breachID).Limit(1).Find(&br).Error; err != nil {
			return err
		}
		if br.ID == 0 {
			return errs.New(errs.NotFound, fmt.Sprintf("Descumprimento %d não encontrado.", breachID))
		}
		b, c, err := s.LoadBan(ctx, actor, br.BanID, true)
		if err != nil {
			var e *errs.Error
			if errors.As(err, &e) && e.Kind == errs.NotFound {
				return errs.New(errs.NotFound, fmt.Sprintf("Descumprimento %d não encontrado.", breachID))
			}
			return err
		}
		if err := cases.JudgeOfCase(actor, c, "decidir o descumprimento"); err != nil {
			return err
		}
		if br.Decision != nil {
			return errs.New(errs.Conflict, fmt.Sprintf("O descumprimento %d já foi decidido (%s).", br.ID, *br.Decision))
		}
		kind := sanctions.BreachKindOf(*b)
		var f errs.Fields
		allowed := map[string]bool{"justified": true, "noted": true}
		switch kind {
		case sanctions.BreachConvertible:
			allowed["convert"] = true
		case sanctions.BreachPlea:
			allowed["undo_plea"] = true
		}
		if !allowed[in.Decision] {
			opts := []string{}
			for _, o := range []string{"convert", "undo_plea", "justified", "noted"} {
				if allowed[o] {
					opts = append(opts, o)
				}
			}
			f.Add("decision", "oneof", fmt.Sprintf("para este impedimento (%s) cabe: %s.", kind, strings.Join(opts, ", ")))
		}
		if in.Decision == "convert" {
			if in.BalanceDays == nil {
				f.Add("balance_days", "required", "fixe o saldo de pena privativa de liberdade, em dias (CP, art. 44, § 4º).")
			} else if *in.BalanceDays < sanctions.MinBreachBalanceDays {
				f.Add("balance_days", "min", fmt.Sprintf("o saldo respeita o mínimo de %d dias (CP, art. 44, § 4º).", sanctions.MinBreachBalanceDays))
			} else if br.QuantumDays != nil && *in.BalanceDays > max(*br.QuantumDays-br.DaysServed, sanctions.MinBreachBalanceDays) {
				f.Add("balance_days", "max", fmt.Sprintf("deduzido o tempo cumprido (%d dias) da pena de %d dias, o saldo é de no máximo %d dias (CP, art. 44, § 4º).", br.DaysServed, *br.QuantumDays, max(*br.QuantumDays-br.DaysServed, sanctions.MinBreachBalanceDays)))
			}
		} else if in.BalanceDays != nil {
			f.Add("balance_days", "convert_only", "o saldo só se fixa na conversão (decision convert).")
		}
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "fundamente a decisão.")
		}
		cases.CheckText(&f, "reason", in.Reason, cases.MaxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		now := s.Now()
		uid := actor.UserID
		reason := strings.TrimSpace(in.Reason)
		dec := in.Decision
		if err := tx.Model(&Breach{}).Where("id = ?", br.ID).Updates(map[string]any{"decision": dec, "decided_balance_days": in.BalanceDays,
			"decision_reason": reason, "decided_at": now, "decided_by": uid}).Error; err != nil {
			return err
		}
		var text string
		switch dec {
		case "convert":
			if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(map[string]any{"status": sanctions.StatusConverted, "lifted_on": br.OccurredOn, "lift_reason": reason}).Error; err != nil {
				return err
			}
			text = fmt.Sprintf("Convertido em pena privativa de liberdade o impedimento %d pelo descumprimento de %s (%s): saldo de %d dias fixado pelo(a) juiz(a) (CP, art. 44, § 4º). Fundamento: %s",
				b.ID, br.OccurredOn.BR(), sanctions.ConversionRule(*b), *in.BalanceDays, reason)
		case "undo_plea":
			if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(map[string]any{"status": sanctions.StatusUndone, "lifted_on": now.In(s.Loc).Format("2006-01-02"), "lift_reason": reason}).Error; err != nil {
				return err
			}
			if err := tx.Model(&decisions.Plea{}).Where("ban_id = ?", b.ID).Update("status", "undone").Error; err != nil {
				return err
			}
			text = fmt.Sprintf("Descumprida a transação penal (impedimento %d, descumprimento de %s): desfeita a transação; os autos vão ao Ministério Público para a denúncia (Súmula Vinculante 35). Fundamento: %s", b.ID, br.OccurredOn.BR(), reason)
			// Súmula Vinculante 35: only this defendant's track goes back.
			if err := s.SetTrack(ctx, c, cases.StatusPreliminaryHearing, nil, b.DefendantID); err != nil {
				return err
			}
		case "justified":
			text = fmt.Sprintf("Descumprimento de %s do impedimento %d considerado justificado: o impedimento segue. Fundamento: %s", br.OccurredOn.BR(), b.ID, reason)
		default:
			text = fmt.Sprintf("Descumprimento de %s do impedimento %d registrado (%s). %s", br.OccurredOn.BR(), b.ID, reason, sanctions.BreachNote(*b, br.DaysServed))
		}
		if err := s.Move(ctx, c, &actor, now, cases.MoveBreachDecided, text); err != nil {
			return err
		}
		if dec != "undo_plea" {
			if err := s.Touch(ctx, c, ""); err != nil {
				return err
			}
		}
		if dec == "convert" || dec == "undo_plea" {
			if err := s.RefreshBlocklist(ctx, b.ID); err != nil {
				return err
			}
		}
		br.Decision, br.DecidedBalanceDays, br.DecisionReason, br.DecidedAt, br.DecidedBy = &dec, in.BalanceDays, reason, &now, &uid
		out = &br
		return nil
	})
	return out, err
}
