package decisions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// banPlan is a ban checked against the rule in force at the date of the
// facts and ready to be written, with the members of a group it reaches.
type banPlan struct {
	ban      sanctions.Ban
	rg       sanctions.Range
	reached  *registry.BanSelection
	warnings []string
}

// planBan checks a ban for defendant d of case c: the rule in force at the
// date of the facts (rg, or sanctions.BanRange with this defendant's flags
// when nil), the term within its range, the reporting duty, and for a group
// the members it reaches. source "" is the sentence's (sentence or civil
// judgment): the ban waits for the final judgment (status awaiting_final,
// no first or last day; Ban.FirstDay of the input is a later start the
// judge fixes). A plea agreement passes sanctions.FromPleaAgreement: the
// ban starts on in.Ban.FirstDay (the homologation's day) and runs at once
// (Lei 14.597/2023, art. 201, § 5º).
func (s *Service) planBan(ctx context.Context, c cases.Case, d cases.Defendant, court cases.Court, in SentenceInput, source sanctions.Source, rgp *sanctions.Range) (*banPlan, error) {
	var f errs.Fields
	subject := sanctions.Person
	if d.Kind == "fan_group" {
		subject = sanctions.Group
		if d.GroupID == nil {
			return nil, errs.InvalidField("defendant_id", "linked_group", "a torcida ré não está vinculada a uma torcida cadastrada (group_id): cadastre-a e vincule-a antes de sentenciar.")
		}
	}
	var rg sanctions.Range
	if rgp != nil {
		rg = *rgp
	} else {
		r, _, err := s.rangeFor(ctx, c, d, court, in)
		if err != nil {
			return nil, err
		}
		rg = r
	}
	if !rg.Convertible && !rg.Cumulative {
		field := "eligible"
		if rg.Organiser {
			field = "organiser"
		}
		return nil, errs.InvalidField(field, "convertible", rg.Reason)
	}
	warnings := append([]string{}, rg.Notes...)
	ws, err := s.banWarnings(ctx, c, d, in, rg, subject)
	if err != nil {
		return nil, err
	}
	warnings = append(warnings, ws...)
	// A plea agreement's ban starts on the day fixed at the homologation
	// (Lei 14.597/2023, art. 201, § 5º), a TAC's on the day the TAC fixes.
	immediate := source == sanctions.FromPleaAgreement || source == sanctions.FromSettlement
	today := civil.Today(s.Now(), s.Loc)
	first := firstDayOf(&f, c, in, immediate, today)
	ban, err := s.newBan(ctx, c, d, court, in, rg, subject, first, immediate, &warnings)
	if err != nil {
		return nil, err
	}
	setTerm(&f, &ban, in, rg, first, immediate, &warnings)
	if w := PastBanWarning(ban.LastDay, today); w != "" && immediate {
		warnings = append(warnings, w)
	}
	setReportingDuty(&f, &ban, in, rg, subject, source)
	reached, err := s.reachedMembers(ctx, &f, c, d, in, rg, subject, &warnings)
	if err != nil {
		return nil, err
	}
	if subject == sanctions.Person {
		ws, err := s.PrescriptionWarnings(ctx, c, d.ID)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, ws...)
	}
	if subject == sanctions.Person && d.CPF == nil {
		warnings = append(warnings, "Réu sem CPF: aguarda identificação e não entra na lista de bloqueio.")
	}
	if !immediate {
		warnings = append(warnings, "O impedimento aguarda o trânsito em julgado (Súmula 643 do STJ; CF, art. 5º, LVII): começa no dia em que a sentença transitar em julgado e só então entra na lista de bloqueio e na lista pública.")
	}
	if source != "" {
		ban.Source = source
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	ban.CreatedBy = c.JudgeID // the judge deciding (checked by the callers)
	if warnings == nil {
		warnings = []string{}
	}
	return &banPlan{ban: ban, rg: rg, reached: reached, warnings: warnings}, nil
}

// banWarnings are the warnings about defendant d a ban needs before it is
// planned: the eligibility presumed with a prior punishment under the
// article (Lei 14.597/2023, art. 201, § 2º), other records of the CPF with
// another birth date.
func (s *Service) banWarnings(ctx context.Context, c cases.Case, d cases.Defendant, in SentenceInput, rg sanctions.Range, subject sanctions.Subject) ([]string, error) {
	var warnings []string
	if subject == sanctions.Person && in.Eligible == nil && !rg.Cumulative {
		// Lei 14.597/2023, art. 201, § 2º: the judge did not say whether the
		// conditions hold; the default (eligible) stays, with a warning
		// when the CPF was already convicted under the article.
		w, err := s.PriorPunishmentWarning(ctx, d, rg, "A elegibilidade (eligible) não foi informada e foi presumida: decida-a e informe-a (eligible=false afasta a conversão).")
		if err != nil {
			return nil, err
		}
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	if subject == sanctions.Person {
		ws, err := s.Cases.BirthDateWarnings(ctx, c.ID, d.ID, c.CourtCode)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, ws...)
	}
	return warnings, nil
}

// firstDayOf checks the ban's first day the judge fixes (ban.first_day):
// required when the ban runs at once (immediate: a plea agreement's, a
// TAC's), not before the facts, a future day for a sentence's ban (which
// starts at the final judgment, Súmula 643 STJ), at most maxFirstDayYears
// ahead of today. nil when none (or invalid: the error goes to f).
func firstDayOf(f *errs.Fields, c cases.Case, in SentenceInput, immediate bool, today civil.Date) *civil.Date {
	var first *civil.Date
	if in.Ban.FirstDay == "" {
		if immediate {
			f.Add("ban.first_day", "required", "informe o primeiro dia do impedimento (AAAA-MM-DD).")
		}
	} else if d, ok := cases.ParseDate(f, "ban.first_day", in.Ban.FirstDay); ok {
		switch {
		case d.Before(c.FactsDate):
			f.Add("ban.first_day", "after_facts", fmt.Sprintf("o impedimento não pode começar antes da data dos fatos (%s).", c.FactsDate.BR()))
		case !immediate && d.Before(today):
			f.Add("ban.first_day", "after_final", "o impedimento da sentença começa no trânsito em julgado (Súmula 643 do STJ): o primeiro dia que o(a) juiz(a) fixa é um dia futuro, posterior a ele.")
		case d.After(civil.New(today.Year+maxFirstDayYears, today.Month, today.Day)):
			f.Add("ban.first_day", "max", fmt.Sprintf("o primeiro dia não pode estar mais de %d anos no futuro.", maxFirstDayYears))
		default:
			first = &d
		}
	}
	return first
}

// newBan is the ban of defendant d under rg before its term: who, the
// rule, the first day the judge fixed (first; at once when immediate),
// the reclusão it converts, its name (a group's as registered), source
// and publication (a group's only when the judge orders it, DOMAIN.md §6).
func (s *Service) newBan(ctx context.Context, c cases.Case, d cases.Defendant, court cases.Court, in SentenceInput, rg sanctions.Range, subject sanctions.Subject, first *civil.Date, immediate bool, warnings *[]string) (sanctions.Ban, error) {
	ban := sanctions.Ban{
		CaseID: c.ID, DefendantID: d.ID, Subject: subject, CourtCode: c.CourtCode, CaseNumber: c.Number,
		CPF: d.CPF, BirthDate: d.BirthDate, GroupID: d.GroupID, FactsDate: c.FactsDate,
		Law: rg.Law, Article: rg.Article, RangeMinMonths: rg.MinMonths, RangeMaxMonths: rg.MaxMonths,
		Sec7Applied: rg.Sec7Applied, Sec7DoublesBan: rg.Sec7DoublesBan, Eligible: rg.Eligible, Organiser: rg.Organiser,
		Cumulative: rg.Cumulative, Status: sanctions.StatusAwaitingFinal, StartNotBefore: first, CreatedAt: s.Now(),
		PrisonMonths: in.PrisonMonths,
	}
	if in.PrisonMonths != nil && sanctions.CheckPrison(rg, *in.PrisonMonths) != "" {
		ban.PrisonMonths = nil // reported by checkPrison
	}
	if !immediate && in.PrisonMonths == nil && in.Dosimetry == nil && rg.PrisonMaxMonths > 0 && !rg.Cumulative {
		*warnings = append(*warnings, fmt.Sprintf("A sentença converte a reclusão sem fixá-la (prison_months ou dosimetry): o %s converte a pena fixada na dosimetria (CP, arts. 59 e 68); sem ela, um descumprimento (%s) não terá quantum a converter.", sanctions.Cite(rg.Article, rg.Law), sanctions.ConversionRule(sanctions.Ban{Article: rg.Article})))
	}
	if dz := in.Dosimetry; dz != nil && dz.ThirdPhase != nil {
		// The third phase's term, where its causes took it (CP art. 68;
		// checkDosimetry ran before): whole months (the days are the
		// sentence's, sentences.prison_days).
		m := dz.ThirdPhase.Final.Months
		ban.PrisonMonths = &m
	} else if in.PrisonMonths == nil && in.Dosimetry != nil && sanctions.CheckPrison(rg, in.Dosimetry.FinalMonths) == "" {
		m := in.Dosimetry.FinalMonths
		ban.PrisonMonths = &m
	}
	if immediate {
		ban.Status, ban.FirstDay, ban.StartNotBefore = sanctions.StatusActive, first, nil
	}
	ban.Name = d.FullName
	ban.Source = sanctions.FromSentence
	ban.Publish = court.PublishDefault
	if subject == sanctions.Group {
		ban.Name = d.GroupName
		if d.GroupID != nil { // the name as registered, not as typed in the representation
			registered, err := registry.GroupName(ctx, s.DB, *d.GroupID)
			if err != nil {
				return sanctions.Ban{}, err
			}
			if registered != "" {
				ban.Name = registered
			}
		}
		ban.Source = sanctions.FromCivilJudgment
		ban.Publish = false // DOMAIN.md §6: group bans are published only when the judge orders it
	}
	if in.Publish != nil {
		ban.Publish = *in.Publish
	}
	return ban, nil
}

// setTerm checks the ban's term and sets it on ban: the months within
// rg's range (3 years, fixed, for the cumulative ban of Lei 7.716/1989,
// art. 20, § 2º-A), the last day counted from first (CP art. 10) when the
// ban runs at once, and the judge's override of the last day with its
// reason, within the range's bounds.
func setTerm(f *errs.Fields, ban *sanctions.Ban, in SentenceInput, rg sanctions.Range, first *civil.Date, immediate bool, warnings *[]string) {
	cases.CheckText(f, "ban.override_reason", in.Ban.OverrideReason, cases.MaxLong, true)
	months := in.Ban.Months
	if rg.Cumulative && months == nil {
		m := sanctions.RacismBanMonths
		months = &m
	}
	switch {
	case months == nil:
		f.Add("ban.months", "required", "informe o prazo do impedimento em meses.")
	case rg.Cumulative && *months != sanctions.RacismBanMonths:
		f.Add("ban.months", "fixed", fmt.Sprintf("a proibição de frequência do %s da %s é de 3 anos (36 meses), fixada na lei.", rg.Article, rg.Law))
	case !rg.Cumulative && sanctions.CheckMonths(rg, *months) != nil:
		f.Add("ban.months", "range", sanctions.CheckMonths(rg, *months).Error())
	default:
		ban.Months = months
		if first != nil {
			if last, err := sanctions.LastDay(*first, *months); err != nil {
				f.Add("ban.months", "range", err.Error())
			} else if immediate {
				ban.ComputedLastDay, ban.LastDay = &last, &last
			}
		}
	}
	if (in.Ban.LastDayOverride == "") != (strings.TrimSpace(in.Ban.OverrideReason) == "") {
		f.Add("ban.last_day_override", "together", "a alteração do último dia exige a data e a justificativa (override_reason), juntas.")
	} else if in.Ban.LastDayOverride != "" {
		ov, err := civil.Parse(in.Ban.LastDayOverride)
		switch {
		case err != nil:
			f.Add("ban.last_day_override", "date", "data inválida: use AAAA-MM-DD.")
		case first == nil && !immediate:
			f.Add("ban.last_day_override", "first_day", "sem primeiro dia fixado, o impedimento começa no trânsito em julgado e seu último dia é contado dele (CP, art. 10): informe ban.first_day para alterar o último dia, ou corrija-o depois do início.")
		case first != nil && ov.Before(*first):
			f.Add("ban.last_day_override", "after_first_day", "o último dia não pode ser anterior ao primeiro.")
		case first != nil && ban.Months != nil && !withinOverrideBounds(*first, ov, rg):
			lo, hi := overrideBounds(*first, rg)
			f.Add("ban.last_day_override", "range", fmt.Sprintf("o último dia alterado deve ficar entre %s e %s: o prazo continua limitado ao intervalo de %d a %d meses (%s da %s).",
				lo.BR(), hi.BR(), max(rg.MinMonths, 1), rg.MaxMonths, rg.Article, rg.Law))
		case first != nil && ban.Months != nil:
			computed, _ := sanctions.LastDay(*first, *ban.Months)
			ban.ComputedLastDay, ban.LastDay = &computed, &ov
			ban.OverrideReason = strings.TrimSpace(in.Ban.OverrideReason)
			*warnings = append(*warnings, fmt.Sprintf("Último dia alterado pelo(a) juiz(a): %s (calculado: %s).", ov.BR(), computed.BR()))
		}
	}
}

// setReportingDuty checks the reporting duty (Lei 14.597/2023, art. 201,
// § 4º: a person's, at a place, for a club or a competition) and sets it
// on ban. A sentence's conversion (source "") without one is an error on
// reporting_duty: the sentence "deverá determinar" it (Lei 14.597/2023,
// art. 201, § 4º; Lei 10.671/2003, art. 41-B, § 4º, by the date of the
// facts); a plea agreement's or a settlement's ban is no conversion.
func setReportingDuty(f *errs.Fields, ban *sanctions.Ban, in SentenceInput, rg sanctions.Range, subject sanctions.Subject, source sanctions.Source) {
	if in.ReportingDuty != nil {
		cases.CheckText(f, "reporting_duty.place", in.ReportingDuty.Place, cases.MaxShort, false)
		cases.CheckText(f, "reporting_duty.club", in.ReportingDuty.Club, cases.MaxName, false)
		cases.CheckText(f, "reporting_duty.competition", in.ReportingDuty.Competition, cases.MaxName, false)
		if subject != sanctions.Person {
			f.Add("reporting_duty", "person_only", "a obrigação de permanência aplica-se a pessoas (art. 201, § 4º).")
		} else if strings.TrimSpace(in.ReportingDuty.Place) == "" {
			f.Add("reporting_duty.place", "required", "informe o local onde o réu deve permanecer.")
		} else if (in.ReportingDuty.Club == "") == (in.ReportingDuty.Competition == "") {
			f.Add("reporting_duty.club", "one_of", "informe o clube ou a competição (um dos dois).")
		} else {
			ban.ReportingPlace = strings.TrimSpace(in.ReportingDuty.Place)
			ban.ReportingClub = strings.TrimSpace(in.ReportingDuty.Club)
			ban.ReportingCompetition = strings.TrimSpace(in.ReportingDuty.Competition)
		}
	} else if subject == sanctions.Person && rg.Article != "art. 39" && !rg.Cumulative && source == "" {
		f.Add("reporting_duty", "required", fmt.Sprintf("a conversão em impedimento exige a obrigação de permanência (local e clube ou competição): a sentença deverá determiná-la (%s).", sanctions.Cite(reportingArticle(rg), rg.Law)))
	}
}

// reachedMembers are the members of group defendant d that its ban
// reaches (DOMAIN.md §2: the registry says which; the judge may exclude
// some, with a reason); nil for a person.
func (s *Service) reachedMembers(ctx context.Context, f *errs.Fields, c cases.Case, d cases.Defendant, in SentenceInput, rg sanctions.Range, subject sanctions.Subject, warnings *[]string) (*registry.BanSelection, error) {
	// Group bans reach members (DOMAIN.md §2): the registry says which.
	var reached *registry.BanSelection
	if subject != sanctions.Group {
		if len(in.MemberIDs) > 0 || len(in.ExcludedMemberIDs) > 0 {
			f.Add("member_ids", "group_only", "member_ids e excluded_member_ids valem só para torcidas.")
		}
	} else if d.GroupID != nil {
		cases.CheckText(f, "exclusion_reason", in.ExclusionReason, cases.MaxLong, true)
		if len(in.ExcludedMemberIDs) > 0 && strings.TrimSpace(in.ExclusionReason) == "" {
			// DOMAIN.md §2: members are excluded by the judge "with a reason".
			f.Add("exclusion_reason", "required", "informe o motivo da exclusão dos associados (excluded_member_ids).")
		}
		sel, err := registry.SelectCaseBanMembers(ctx, s.DB, d.ID, *d.GroupID, c.FactsDate, s.Loc, rg.Members, in.MemberIDs, in.ExcludedMemberIDs)
		var fe *errs.Error
		switch {
		case errors.As(err, &fe) && fe.Kind == errs.Invalid:
			*f = append(*f, fe.Fields...)
		case err != nil:
			return nil, err
		default:
			reached = sel
			*warnings = append(*warnings, sel.Warnings...)
			if len(sel.Members) == 0 && rg.Members == registry.ReachAll {
				*warnings = append(*warnings, fmt.Sprintf("Nenhum associado do cadastro da torcida era associado(a) na data dos fatos (%s): o impedimento alcança só a torcida.", c.FactsDate.BR()))
			}
		}
	}
	return reached, nil
}

// writeBan stores a planned ban and, for a group, one ban per member it
// reaches, linked to the group ban, so that each CPF reaches the blocklist
// (published only when the judge orders it, DOMAIN.md §6).
func (s *Service) writeBan(ctx context.Context, p *banPlan, in SentenceInput) ([]sanctions.Ban, error) {
	tx := db.Conn(ctx, s.DB)
	if err := tx.Create(&p.ban).Error; err != nil {
		return nil, err
	}
	memberBans := []sanctions.Ban{}
	if p.reached == nil {
		return memberBans, nil
	}
	for _, m := range p.reached.Members {
		mb := p.ban
		mb.ID, mb.Subject, mb.Name = 0, sanctions.Person, m.FullName
		cpf, birth, groupBan, member := m.CPF, m.BirthDate, p.ban.ID, m.ID
		mb.CPF, mb.BirthDate, mb.GroupBanID, mb.MemberID = &cpf, &birth, &groupBan, &member
		mb.Publish = in.Publish != nil && *in.Publish
		if err := tx.Create(&mb).Error; err != nil {
			return nil, err
		}
		memberBans = append(memberBans, mb)
	}
	return memberBans, nil
}

// JoinIDs is ids as the docket writes them: "3, 4, 7" (in the order given).
func JoinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ", ")
}

// maxFirstDayYears bounds how far in the future a ban may start.
const maxFirstDayYears = 20

// overrideBounds are the last days a judge's override may choose, both
// counted exactly like the term itself (sanctions.LastDay: CP art. 10, the
// first day counts, a missing day rolls forward): from the last day of the
// minimum term (at least 1 month) to the last day of the maximum term. Lei
// 14.597/2023, art. 201, § 2º (Lei 10.671/2003, arts. 39, 39-A, 41-B, § 2º):
// the ban lasts at least the minimum, so no override may end before the
// minimum term's last day. DOMAIN.md §3 says the override "covers a court
// that reads" CP art. 10 with the clamp (one day earlier at month ends);
// where that would end a minimum-length ban one day short of the statutory
// minimum the statute wins, and the clamp reading is available only for
// terms above the minimum.
func overrideBounds(first civil.Date, rg sanctions.Range) (lo, hi civil.Date) {
	lo, _ = sanctions.LastDay(first, max(rg.MinMonths, 1))
	hi, _ = sanctions.LastDay(first, rg.MaxMonths)
	return lo, hi
}

func withinOverrideBounds(first, last civil.Date, rg sanctions.Range) bool {
	lo, hi := overrideBounds(first, rg)
	return !last.Before(lo) && !last.After(hi)
}

func termPT(b sanctions.Ban) string {
	if b.Months == nil {
		return "prazo indeterminado (cautelar)"
	}
	return cases.MonthsText(*b.Months)
}

// reportingArticle is the paragraph that orders the reporting duty in the
// statute of rg: art. 41-B, § 4º of Lei 10.671/2003 (facts from 28/07/2010
// to 14/06/2023), art. 201, § 4º of Lei 14.597/2023 after.
func reportingArticle(rg sanctions.Range) string {
	if strings.HasPrefix(rg.Article, "art. 41-B") {
		return "art. 41-B, § 4º"
	}
	return "art. 201, § 4º"
}
