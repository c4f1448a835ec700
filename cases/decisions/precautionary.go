package decisions

import (
	"context"
	"fmt"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// EndPrecautionary ends the defendant's precautionary bans in force in case
// c on day (they are in force until the day before) with status lifted
// and reason, with a movement; it returns their ids for the blocklist. An
// acquittal ends them (CPP art. 386, parágrafo único, II), and so does a
// final judgment with no final ban.
func (s *Service) EndPrecautionary(ctx context.Context, c *cases.Case, defendantID int64, day civil.Date, reason string) ([]int64, error) {
	tx := db.Conn(ctx, s.DB)
	q := tx.Where("case_id = ? AND precautionary AND status = ?", c.ID, sanctions.StatusActive)
	if defendantID != 0 {
		q = q.Where("defendant_id = ?", defendantID)
	}
	var rows []sanctions.Ban
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	var ids []int64
	for _, b := range rows {
		on := day
		if b.FirstDay != nil && on.Before(*b.FirstDay) {
			on = *b.FirstDay
		}
		if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(map[string]any{"status": sanctions.StatusLifted, "lifted_on": on, "lift_reason": reason}).Error; err != nil {
			return nil, err
		}
		if err := s.Move(ctx, c, nil, s.Now(), cases.MovePrecautionaryEnded, fmt.Sprintf("Cessada em %s a medida cautelar de proibição de acesso a eventos esportivos (impedimento %d): %s.", on.BR(), b.ID, reason)); err != nil {
			return nil, err
		}
		ids = append(ids, b.ID)
	}
	return ids, nil
}

// PrecautionaryDays counts the days defendant spent under precautionary bans
// of case caseID: from each one's first day to the day before it was lifted
// or replaced (to today while in force), overlaps counted once.
func (s *Service) PrecautionaryDays(ctx context.Context, caseID, defendantID int64) (int, error) {
	var bans []sanctions.Ban
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND defendant_id = ? AND precautionary AND group_ban_id IS NULL", caseID, defendantID).Find(&bans).Error; err != nil {
		return 0, err
	}
	return CountPrecautionary(bans, civil.Today(s.Now(), s.Loc)), nil
}

// CountPrecautionary counts the days under the precautionary bans, each from
// its first day to its end (the day before lifted_on) or today, overlaps
// once.
func CountPrecautionary(bans []sanctions.Ban, today civil.Date) int {
	days := map[civil.Date]bool{}
	for _, b := range bans {
		if !b.Precautionary || b.FirstDay == nil {
			continue
		}
		end := today
		if b.LiftedOn != nil {
			end = b.LiftedOn.AddDays(-1)
		}
		for d := *b.FirstDay; !d.After(end); d = d.AddDays(1) {
			days[d] = true
		}
	}
	return len(days)
}

// planPrecautionary checks a precautionary ban for defendant d (CPP art.
// 319, II; allowed whatever the conditions of art. 201, §§ 2º and 6º): its
// first day (default today; not before the facts) and its review date
// (required and after the first day: Res. CNJ 417/2021, art. 19). Field
// errors go to f under prefix.
func (s *Service) planPrecautionary(f *errs.Fields, c cases.Case, d cases.Defendant, firstText, reviewText, prefix string) (*sanctions.Ban, error) {
	today := civil.Today(s.Now(), s.Loc)
	first := today
	if firstText != "" {
		if fd, ok := cases.ParseDate(f, prefix+"first_day", firstText); ok {
			switch {
			case fd.Before(c.FactsDate):
				f.Add(prefix+"first_day", "after_facts", fmt.Sprintf("a medida não pode começar antes da data dos fatos (%s).", c.FactsDate.BR()))
			case fd.Before(today):
				f.Add(prefix+"first_day", "not_past", "a medida cautelar vale a partir da decisão: o primeiro dia não pode ser anterior a hoje.")
			}
			first = fd
		}
	}
	if d.Kind == "person" {
		// CPP art. 283, § 1º: no precautionary measure for an offence with
		// no prison (art. 39 of Lei 10.671/2003, original wording).
		if rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: c.FactsDate}); err == nil && rg.PrisonMaxMonths == 0 {
			f.Add(prefix+"review_on", "no_prison", fmt.Sprintf("fatos sob o %s, sanção sem pena privativa de liberdade: não cabe medida cautelar (CPP, art. 283, § 1º).", sanctions.Cite(rg.Article, rg.Law)))
		}
	}
	var review *civil.Date
	if reviewText == "" {
		f.Add(prefix+"review_on", "required", "informe a data de revisão da medida cautelar (AAAA-MM-DD): o BNMP não admite medida sem revisão (Res. CNJ 417/2021, art. 19).")
	} else if rv, ok := cases.ParseDate(f, prefix+"review_on", reviewText); ok {
		if !rv.After(first) {
			f.Add(prefix+"review_on", "after_first_day", fmt.Sprintf("a revisão deve ser posterior ao primeiro dia da medida (%s).", first.BR()))
		} else if rv.After(first.AddDays(366)) {
			f.Add(prefix+"review_on", "max", "a revisão deve ocorrer em até um ano do início da medida.")
		}
		review = &rv
	}
	subject := sanctions.Person
	name, law, article := d.FullName, lawCPP, articleCPP319
	if d.Kind == "fan_group" { // a civil case: tutela de urgência
		subject, name, law, article = sanctions.Group, d.GroupName, "Lei 13.105/2015 (CPC)", "art. 300"
	}
	return &sanctions.Ban{
		CaseID: c.ID, DefendantID: d.ID, Subject: subject, Source: sanctions.FromPrecautionaryOrder, CourtCode: c.CourtCode, CaseNumber: c.Number,
		CPF: d.CPF, Name: name, BirthDate: d.BirthDate, GroupID: d.GroupID, FactsDate: c.FactsDate, Law: law, Article: article,
		Precautionary: true, FirstDay: &first, ReviewOn: review, Eligible: true, Status: sanctions.StatusActive, CreatedAt: s.Now(), CreatedBy: c.JudgeID,
	}, nil
}

// precautionaryText is the docket entry of a precautionary ban: a
// precautionary decision (CPP art. 319, II), not a judgment.
func precautionaryText(d cases.Defendant, b sanctions.Ban, untilFinal bool) string {
	name := d.FullName
	if d.Kind == "fan_group" {
		name = d.GroupName
	}
	text := fmt.Sprintf("Decisão: medida cautelar de proibição de acesso a eventos esportivos (CPP, art. 319, II) a %s, a partir de %s, com revisão em %s", name, b.FirstDay.BR(), b.ReviewOn.BR())
	if b.Scope != nil {
		text += ", restrita a " + sanctions.ScopePT(b.Scope)
	}
	if b.MatchTerm != nil {
		text += ", " + sanctions.PorPT(sanctions.MatchTermPT(b.MatchTerm, b.MatchDays)) + ", até " + b.LastDay.BR()
	}
	if untilFinal {
		text += ", até o trânsito em julgado da sentença"
	}
	return text + "."
}

// precautionaryAlone orders a precautionary ban without deciding the merits
// (CPP art. 319, II; any stage before the final judgment).
func (s *Service) precautionaryAlone(ctx context.Context, actor actor.Actor, c cases.Case, d cases.Defendant, in SentenceInput) (*SentenceResult, error) {
	if err := s.precautionaryAllowed(ctx, c, d); err != nil {
		return nil, err
	}
	var f errs.Fields
	if in.Ban.Months != nil {
		f.Add("ban.months", "precautionary", "o impedimento cautelar não tem prazo em meses: vigora até ser revogado, renovado ou substituído pela pena definitiva.")
	}
	if in.Outcome != "" && in.Outcome != OutcomePrecautionary {
		f.Add("outcome", "precautionary", "a medida cautelar isolada não decide o mérito: não informe outcome.")
	}
	if in.Ban.LastDayOverride != "" {
		f.Add("ban.last_day_override", "precautionary", "o impedimento cautelar não tem último dia.")
	}
	cases.CheckText(&f, "text.reasoning", textOf(in.Text, false), cases.MaxLong, true)
	requireReasoning(&f, in.Text, "a decisão cautelar")
	if in.Draft {
		f.Add("draft", "precautionary", "a medida cautelar isolada é decisão imediata, sem minuta: envie-a sem draft.")
	}
	b, err := s.planPrecautionary(&f, c, d, in.Ban.FirstDay, in.ReviewOn, "")
	if err != nil {
		return nil, err
	}
	if b.Scope, err = s.resolveScope(ctx, &f, c.CourtCode, in.Scope, "scope"); err != nil {
		return nil, err
	}
	if b.FirstDay != nil {
		mt, days, err := s.resolveMatchTerm(ctx, &f, c.CourtCode, in.Ban, *b.FirstDay, "ban.")
		if err != nil {
			return nil, err
		}
		if mt != nil {
			last := days[len(days)-1]
			b.MatchTerm, b.MatchDays, b.LastDay, b.ComputedLastDay = mt, days, &last, &last
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if in.Publish != nil {
		b.Publish = *in.Publish
	}
	plan, warnings, err := s.urgentMembers(ctx, &f, c, d, in, b)
	if err != nil {
		return nil, err
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	memberBans, err := s.writeBan(ctx, plan, in)
	if err != nil {
		return nil, err
	}
	*b = plan.ban
	now := s.Now()
	if err := db.Conn(ctx, s.DB).Create(&cases.Movement{CaseID: c.ID, At: now, Kind: cases.MovePrecautionary, AuthorRole: "judge", AuthorUserID: c.JudgeID, Description: precautionaryText(d, *b, false)}).Error; err != nil {
		return nil, err
	}
	if err := s.memberMovement(ctx, c, plan, memberBans, in, now); err != nil {
		return nil, err
	}
	if err := s.Touch(ctx, &c, ""); err != nil {
		return nil, err
	}
	if err := s.RefreshBlocklist(ctx, cases.BanIDs(*b, memberBans)...); err != nil {
		return nil, err
	}
	return &SentenceResult{Outcome: OutcomePrecautionary, PrecautionaryBan: b, MemberBans: memberBans, Flags: Flags{Derived: []string{}}, Warnings: warnings}, nil
}

// urgentMembers plans the precautionary ban b of defendant d with the
// members it reaches. A group's is the urgent order of its civil case
// (tutela de urgência, CPC art. 300), which reaches the members it names in
// member_ids as a judgment does (DOMAIN.md §2: each named member gets a ban
// of his own, linked to the group's, that reaches the blocklist;
// registry.SelectBanMembers with ReachInvolved checks they are members of
// the group); it names them, so excluded_member_ids has no place (errs
// field on excluded_member_ids). A person's measure (CPP art. 319, II)
// reaches no member: member_ids or excluded_member_ids there is an error on
// that field, never ignored. The errors join f; the warnings are returned.
func (s *Service) urgentMembers(ctx context.Context, f *errs.Fields, c cases.Case, d cases.Defendant, in SentenceInput, b *sanctions.Ban) (*banPlan, []string, error) {
	warnings := []string{}
	rg := sanctions.Range{Law: b.Law, Article: b.Article, Members: registry.ReachInvolved}
	plan := &banPlan{ban: *b, rg: rg}
	if d.Kind != "fan_group" {
		membersApply(f, d, in, OutcomePrecautionary)
		return plan, warnings, nil
	}
	if len(in.ExcludedMemberIDs) > 0 {
		f.Add("excluded_member_ids", "urgent_named", "a tutela de urgência contra a torcida (CPC, art. 300) alcança só os associados que nomeia em member_ids: não há associados a excluir.")
	}
	if len(in.MemberIDs) == 0 {
		return plan, warnings, nil
	}
	if d.GroupID == nil {
		f.Add("member_ids", "linked_group", "a torcida ré não está vinculada a uma torcida cadastrada (group_id): sem o cadastro, a tutela de urgência não alcança associados.")
		return plan, warnings, nil
	}
	sel, err := s.reachedMembers(ctx, f, c, d, SentenceInput{MemberIDs: in.MemberIDs}, rg, sanctions.Group, &warnings)
	if err != nil {
		return nil, nil, err
	}
	plan.reached = sel
	return plan, warnings, nil
}

// precautionaryAllowed refuses a precautionary ban for defendant d of c
// whose decision standing acquits him (errs.Invalid on defendant_id: the
// acquittal ends the precautionary measures, CPP art. 386, parágrafo
// único, II): his signed acquittal, or his sentence the Turma Recursal
// reformed to acquit him (status reformed, with the appeal's result
// reformed to acquittal recorded for him after it was signed); or who has
// one in force in this case (errs.Conflict: renew or replace it, CPP art.
// 282, §§ 4º–6º, instead of ordering a second).
func (s *Service) precautionaryAllowed(ctx context.Context, c cases.Case, d cases.Defendant) error {
	tx := db.Conn(ctx, s.DB)
	var acquitted int64
	if err := tx.Model(&SentenceRecord{}).Where(`defendant_id = ? AND (status = 'signed' AND outcome = ? OR status = 'reformed' AND EXISTS (SELECT 1 FROM appeal_results r
		WHERE r.case_id = sentences.case_id AND r.defendant_id = sentences.defendant_id AND r.result = 'reformed' AND r.outcome = ? AND r.created_at >= sentences.signed_at))`,
		d.ID, OutcomeAcquittal, OutcomeAcquittal).Count(&acquitted).Error; err != nil {
		return err
	}
	if acquitted > 0 {
		return errs.InvalidField("defendant_id", "acquitted", fmt.Sprintf("o réu %s foi absolvido (na sentença ou pela Turma Recursal): a absolvição faz cessar as medidas cautelares, e nova medida não cabe (CPP, art. 386, parágrafo único, II).", cases.NameOf(d)))
	}
	var inForce []int64
	if err := tx.Model(&sanctions.Ban{}).Where("case_id = ? AND defendant_id = ? AND precautionary AND group_ban_id IS NULL AND status = ?", c.ID, d.ID, sanctions.StatusActive).Order("id").Pluck("id", &inForce).Error; err != nil {
		return err
	}
	if len(inForce) > 0 {
		return errs.New(errs.Conflict, fmt.Sprintf("O réu %s já tem medida cautelar de proibição em vigor neste processo (impedimento %d): renove-a ou substitua-a (CPP, art. 282, §§ 4º a 6º) em vez de decretar outra.", cases.NameOf(d), inForce[0]))
	}
	return nil
}

// writePrecautionaryUntilFinal writes prec, the precautionary ban ordered
// with the sentence until it is final, and returns the bans written. A
// group's is the urgent order that makes its civil judgment effective at
// once (CPC art. 300; DOMAIN.md §3): it reaches the members the judgment
// reaches (plan.reached), each by a precautionary ban of his own linked to
// the group's, in force now (they end with it when the final ban starts),
// listed in res.MemberBans after the judgment's own member bans, with a
// docket movement.
func (s *Service) writePrecautionaryUntilFinal(ctx context.Context, c cases.Case, plan *banPlan, prec *sanctions.Ban, in SentenceInput, res *SentenceResult, now time.Time) ([]int64, error) {
	pp := &banPlan{ban: *prec, rg: sanctions.Range{Law: prec.Law, Article: prec.Article}}
	if plan != nil && prec.Subject == sanctions.Group {
		pp.reached = plan.reached
	}
	memberBans, err := s.writeBan(ctx, pp, in)
	if err != nil {
		return nil, err
	}
	*prec = pp.ban
	res.PrecautionaryBan = prec
	res.MemberBans = append(res.MemberBans, memberBans...)
	if err := s.memberMovement(ctx, c, pp, memberBans, SentenceInput{}, now); err != nil {
		return nil, err
	}
	return cases.BanIDs(*prec, memberBans), nil
}

// Law and article of a precautionary ban (CPP art. 319, II).
const (
	lawCPP        = "Decreto-Lei 3.689/1941 (CPP)"
	articleCPP319 = "art. 319, II"
)
