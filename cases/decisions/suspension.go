package decisions

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// suspensionLaw and suspensionArticle are recorded on the ban a stadium
// condition of a conditional suspension makes.
const (
	suspensionLaw     = "Lei 9.099/1995"
	suspensionArticle = "art. 89, § 1º, II"
)

// checkSuspensionConditions adds to f what is missing or invalid in the
// conditions of Lei 9.099/1995, art. 89, § 1º (each stated: I reparação
// do dano or why it is impossible; II the places; III and IV true) and §
// 2º (the others, free text).
func checkSuspensionConditions(f *errs.Fields, in SuspensionInput) {
	repair, impossible := strings.TrimSpace(in.RepairDamage), strings.TrimSpace(in.RepairImpossible)
	switch {
	case repair == "" && impossible == "":
		f.Add("repair_damage", "required", "condição do art. 89, § 1º, I: informe a reparação do dano (repair_damage) ou por que é impossível fazê-la (repair_impossible).")
	case repair != "" && impossible != "":
		f.Add("repair_impossible", "one_of", "art. 89, § 1º, I: informe a reparação do dano ou a sua impossibilidade, não as duas.")
	}
	cases.CheckText(f, "repair_damage", in.RepairDamage, cases.MaxShort, false)
	cases.CheckText(f, "repair_impossible", in.RepairImpossible, cases.MaxShort, false)
	if len(in.ForbiddenPlaces) == 0 {
		f.Add("forbidden_places", "required", "condição do art. 89, § 1º, II: informe os lugares que o acusado fica proibido de frequentar (ex.: estádios e arredores em dias de jogo).")
	}
	if len(in.ForbiddenPlaces) > cases.MaxListItems {
		f.Add("forbidden_places", "max_items", fmt.Sprintf("no máximo %d lugares.", cases.MaxListItems))
	}
	for i, p := range in.ForbiddenPlaces {
		field := fmt.Sprintf("forbidden_places[%d]", i)
		if strings.TrimSpace(p) == "" {
			f.Add(field, "required", "lugar vazio.")
		}
		cases.CheckText(f, field, p, cases.MaxShort, false)
	}
	if in.StayInDistrict == nil || !*in.StayInDistrict {
		f.Add("stay_in_district", "required", "condição do art. 89, § 1º, III: a proibição de ausentar-se da comarca sem autorização do juiz é imposta por lei (stay_in_district: true).")
	}
	if in.MonthlyAppearance == nil || !*in.MonthlyAppearance {
		f.Add("monthly_appearance", "required", "condição do art. 89, § 1º, IV: o comparecimento pessoal e obrigatório a juízo, mensalmente, é imposto por lei (monthly_appearance: true).")
	}
	if len(in.Conditions) > cases.MaxListItems {
		f.Add("conditions", "max_items", fmt.Sprintf("no máximo %d condições.", cases.MaxListItems))
	}
	for i, cond := range in.Conditions {
		field := fmt.Sprintf("conditions[%d]", i)
		if strings.TrimSpace(cond) == "" {
			f.Add(field, "required", "condição vazia.")
		}
		cases.CheckText(f, field, cond, cases.MaxShort, false)
	}
}

// ConditionsPT lists the suspension's conditions in Portuguese, each with
// its item of Lei 9.099/1995, art. 89, § 1º, then the judge's own (§ 2º).
func (sp Suspension) ConditionsPT() []string {
	var out []string
	if sp.RepairDamage != "" {
		out = append(out, "reparação do dano: "+sp.RepairDamage+" (§ 1º, I)")
	} else if sp.RepairImpossible != "" {
		out = append(out, "reparação do dano dispensada por impossibilidade: "+sp.RepairImpossible+" (§ 1º, I)")
	}
	if len(sp.ForbiddenPlaces) > 0 {
		t := "proibição de frequentar " + strings.Join(sp.ForbiddenPlaces, ", ")
		if sp.SportingVenues {
			t += ", locais de eventos esportivos"
		}
		out = append(out, t+" (§ 1º, II)")
	}
	if sp.StayInDistrict {
		out = append(out, "proibição de ausentar-se da comarca sem autorização do juiz (§ 1º, III)")
	}
	if sp.MonthlyAppearance {
		out = append(out, "comparecimento pessoal e obrigatório a juízo, mensalmente, para informar e justificar atividades (§ 1º, IV)")
	}
	for _, c := range sp.Conditions {
		out = append(out, c+" (§ 2º)")
	}
	return out
}

// suspensionBarred refuses the suspension (Lei 9.099/1995, art. 89,
// caput: "desde que o acusado não esteja sendo processado ou não tenha
// sido condenado por outro crime") when the defendant, by CPF, has the
// accusation received in another criminal case of the court whose
// judgment is not final (prosecutedElsewhere: a case merely filed, or
// with the accusation offered and not received, does not bar), or was
// finally convicted for a crime in one, to any penalty, reclusão alone
// included (priorConviction: not a sentence reformed to acquittal or
// annulled, nor the art. 39 of Lei 10.671/2003, a sanction and no crime).
// errs.Invalid on defendant_id naming the case. Without a CPF nothing can
// be checked: the caller is told nothing here (the judge sees the case).
func (s *Service) suspensionBarred(ctx context.Context, c *cases.Case, d *cases.Defendant) error {
	p, err := s.prosecutedElsewhere(ctx, c, d)
	if err != nil {
		return err
	}
	if p != nil {
		return errs.InvalidField("defendant_id", "suspension_barred", fmt.Sprintf("o acusado está sendo processado por outro crime, com a denúncia recebida (processo %s, %s): sem suspensão condicional do processo (Lei 9.099/1995, art. 89, caput).",
			cases.FormatNumber(p.Number), cases.OrStatus(p.Status)))
	}
	if p, err = s.priorConviction(ctx, c, d, false); err != nil {
		return err
	}
	if p != nil {
		return errs.InvalidField("defendant_id", "suspension_barred", fmt.Sprintf("o acusado foi condenado por outro crime, por sentença transitada em julgado (processo %s: %s): sem suspensão condicional do processo (Lei 9.099/1995, art. 89, caput).",
			cases.FormatNumber(p.Number), p.What))
	}
	return nil
}

// suspensionBan writes the ban of a suspension whose condition II names
// sporting venues (Lei 9.099/1995, art. 89, § 1º, II; DOMAIN.md §3): source
// conditional_suspension, active from the suspension's first day to the
// end of its period, not published, and refreshes the blocklist.
//
// scope narrows the ban to the venues and clubs condition II names (nil:
// any sporting venue); a match term (mt, with its match days mdays) ends it
// on the last of those matches, within the period.
func (s *Service) suspensionBan(ctx context.Context, c *cases.Case, d *cases.Defendant, sp *Suspension, scope *sanctions.Scope, mt *sanctions.MatchTerm, mdays sanctions.DayList) (int64, error) {
	months, last, first := sp.Months, sp.LastDay, sp.FirstDay
	if mt != nil {
		if l := mdays[len(mdays)-1]; l.After(sp.LastDay) {
			return 0, errs.InvalidField("ban.matches", "period", fmt.Sprintf("o último dos %d jogos (%s) cai depois do fim do período de prova (%s): a condição não vai além da suspensão (Lei 9.099/1995, art. 89).", mt.Matches, l.BR(), sp.LastDay.BR()))
		} else {
			last = l
		}
	}
	b := sanctions.Ban{Scope: scope, MatchTerm: mt, MatchDays: mdays, CaseID: c.ID, DefendantID: d.ID, Subject: sanctions.Person, Source: sanctions.FromConditionalSuspension,
		CourtCode: c.CourtCode, CaseNumber: c.Number, CPF: d.CPF, Name: d.FullName, BirthDate: d.BirthDate, FactsDate: c.FactsDate,
		Law: suspensionLaw, Article: suspensionArticle, RangeMinMonths: 24, RangeMaxMonths: 48, Eligible: true,
		FirstDay: &first, Months: &months, ComputedLastDay: &last, LastDay: &last, Status: "active", CreatedAt: s.Now(), CreatedBy: c.JudgeID}
	if sp.FirstDay.Before(c.FactsDate) {
		return 0, errs.InvalidField("first_day", "after_facts", fmt.Sprintf("a suspensão não pode começar antes da data dos fatos (%s).", c.FactsDate.BR()))
	}
	tx := db.Conn(ctx, s.DB)
	if err := tx.Create(&b).Error; err != nil {
		if db.IsUniqueViolation(err, "") {
			return 0, errs.New(errs.Conflict, "O acusado já tem impedimento ativo neste processo.")
		}
		return 0, err
	}
	if err := tx.Model(&Suspension{}).Where("id = ?", sp.ID).Update("ban_id", b.ID).Error; err != nil {
		return 0, err
	}
	return b.ID, s.RefreshBlocklist(ctx, b.ID)
}

// EndSuspensions ends the active suspension of defendant defendantID of
// case c when his track leaves conditional_suspension (only his: a
// co-defendant's track goes on): to accusation, revoked (Lei 9.099/1995,
// art. 89, §§ 3º and 4º: reason required); to archived or extinct,
// extinguished, only after the period has ended (§ 5º) unless cause is
// the defendant's death (CP art. 107, I). The bans they made are lifted
// (status lifted, lifted_on the day of the decision) and leave the
// blocklist.
func (s *Service) EndSuspensions(ctx context.Context, c *cases.Case, defendantID int64, to, cause, note string) error {
	tx := db.Conn(ctx, s.DB)
	var sps []Suspension
	if err := tx.Where("case_id = ? AND defendant_id = ? AND status = 'active'", c.ID, defendantID).Order("id").Find(&sps).Error; err != nil {
		return err
	}
	today := civil.Today(s.Now(), s.Loc)
	st, reason := "extinguished", "Expirado o período de prova sem revogação (Lei 9.099/1995, art. 89, § 5º)."
	if cause == cases.CauseDeath {
		reason = "Extinta a punibilidade pela morte do agente (CP, art. 107, I)."
	}
	if to == cases.StatusAccusation {
		st, reason = "revoked", strings.TrimSpace(note)
		if reason == "" {
			return errs.InvalidField("note", "required", "informe o motivo da revogação da suspensão (Lei 9.099/1995, art. 89, § 3º: processado por outro crime ou sem reparar o dano; § 4º: processado por contravenção ou descumprida outra condição).")
		}
	} else if cause != cases.CauseDeath {
		for _, sp := range sps {
			if !today.After(sp.LastDay) {
				return errs.New(errs.Conflict, fmt.Sprintf("O período de prova da suspensão corre até %s: a punibilidade só se declara extinta depois de expirado o prazo sem revogação (Lei 9.099/1995, art. 89, § 5º).", sp.LastDay.BR()))
			}
		}
	}
	var banIDs []int64
	for _, sp := range sps {
		if err := tx.Model(&Suspension{}).Where("id = ?", sp.ID).Updates(map[string]any{"status": st, "ended_on": today, "end_reason": reason}).Error; err != nil {
			return err
		}
		if sp.BanID == nil {
			continue
		}
		liftReason := "Revogada a suspensão condicional do processo (Lei 9.099/1995, art. 89, §§ 3º e 4º): " + reason
		if st == "extinguished" {
			liftReason = "Extinta a punibilidade ao fim do período de prova (Lei 9.099/1995, art. 89, § 5º)."
			if cause == cases.CauseDeath {
				liftReason = reason
			}
		}
		if err := tx.Model(&sanctions.Ban{}).Where("id = ? AND status = 'active'", *sp.BanID).
			Updates(map[string]any{"status": "lifted", "lifted_on": today, "lift_reason": liftReason}).Error; err != nil {
			return err
		}
		banIDs = append(banIDs, *sp.BanID)
	}
	if len(banIDs) == 0 {
		return nil
	}
	return s.RefreshBlocklist(ctx, banIDs...)
}
