package cases

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// SentenceInput is the body of POST /api/v1/cases/{id}/sentence
// (../shared/API.md). Nil flags take their defaults: eligible true;
// organiser, sec7 and off_venue derived from the conduct; sec7_doubles_ban
// and publish from the court's settings.
type SentenceInput struct {
	DefendantID       int64          `json:"defendant_id"`
	Eligible          *bool          `json:"eligible"`
	Organiser         *bool          `json:"organiser"`
	Sec7              *bool          `json:"sec7"`
	OffVenue          *bool          `json:"off_venue"`
	Sec7DoublesBan    *bool          `json:"sec7_doubles_ban"`
	Ban               BanInput       `json:"ban"`
	Precautionary     bool           `json:"precautionary"`
	PrisonMonths      *int           `json:"prison_months"`
	ReportingDuty     *ReportingDuty `json:"reporting_duty"`
	Publish           *bool          `json:"publish"`
	MemberIDs         []int64        `json:"member_ids"`
	ExcludedMemberIDs []int64        `json:"excluded_member_ids"`
	ExclusionReason   string         `json:"exclusion_reason"` // required with excluded_member_ids; recorded in the docket
}

// BanInput is the term the judge fixes: the first day and the months; the
// last day is computed (CP art. 10) unless overridden with a reason.
type BanInput struct {
	FirstDay        string `json:"first_day"`
	Months          *int   `json:"months"`
	LastDayOverride string `json:"last_day_override"`
	OverrideReason  string `json:"override_reason"`
}

// ReportingDuty is the duty to stay at a place the judge names from 2 hours
// before to 2 hours after the matches of a club or competition (Lei
// 14.597/2023, art. 201, § 4º; Lei 10.671/2003, art. 41-B, § 4º).
type ReportingDuty struct {
	Place       string `json:"place"`
	Club        string `json:"club,omitempty"`
	Competition string `json:"competition,omitempty"`
}

// SentenceResult is what a sentence creates.
type SentenceResult struct {
	Ban        sanctions.Ban
	MemberBans []sanctions.Ban
	Range      sanctions.Range
	Warnings   []string
}

// Sentence decides a defendant's case with a stadium ban: it takes the rule
// in force at the date of the facts (sanctions.BanRange), checks the term
// against its range (errs.Invalid naming the article otherwise), counts the
// last day (sanctions.LastDay, CP art. 10) and writes the ban, the docket
// movements and the blocklist change in one transaction. Only the judge the
// case is distributed to may sentence (errs.Forbidden); a defendant already
// sentenced is errs.Conflict. Lei 14.597/2023, art. 201, §§ 2º–7º; Lei
// 10.671/2003, arts. 39, 39-A, 39-C, 41-B.
func (s *Service) Sentence(ctx context.Context, actor Actor, caseID int64, in SentenceInput) (*SentenceResult, error) {
	var res *SentenceResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		cp, err := s.lockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		c := *cp
		if c.JudgeID == nil || *c.JudgeID != actor.UserID {
			return errs.New(errs.Forbidden, "Somente o(a) juiz(a) a quem o processo foi distribuído pode sentenciá-lo.")
		}
		if !beforeDecision(c.Flow, c.Status) {
			return errs.New(errs.Conflict, fmt.Sprintf("O processo já está na fase “%s”: a sentença cabe antes da decisão.", orStatus(c.Status)))
		}
		var court Court
		if err := tx.Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
			return err
		}
		if in.DefendantID == 0 {
			return errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id).")
		}
		var d Defendant
		if err := tx.Where("id = ? AND case_id = ?", in.DefendantID, c.ID).Limit(1).Find(&d).Error; err != nil {
			return err
		}
		if d.ID == 0 {
			return errs.InvalidField("defendant_id", "defendant_of_case", fmt.Sprintf("o réu %d não é parte deste processo.", in.DefendantID))
		}
		var already int64
		if err := tx.Model(&sanctions.Ban{}).Where("defendant_id = ? AND NOT precautionary AND status = 'active'", d.ID).Count(&already).Error; err != nil {
			return err
		}
		if already > 0 {
			return errs.New(errs.Conflict, "Este réu já foi sentenciado neste processo.")
		}
		r, err := s.decide(ctx, c, d, court, in)
		if err != nil {
			return err
		}
		res = r
		return nil
	})
	return res, err
}

// orStatus names a status in Portuguese (the code itself when unnamed).
func orStatus(st string) string {
	if pt, ok := StatusPT[st]; ok {
		return pt
	}
	return st
}

// banIDs lists the ids of a ban and its member bans.
func banIDs(b sanctions.Ban, members []sanctions.Ban) []int64 {
	ids := []int64{b.ID}
	for _, m := range members {
		ids = append(ids, m.ID)
	}
	return ids
}

// banPlan is a ban checked against the rule in force at the date of the
// facts and ready to be written, with the members of a group it reaches.
type banPlan struct {
	ban      sanctions.Ban
	rg       sanctions.Range
	reached  *registry.BanSelection
	warnings []string
}

func (s *Service) decide(ctx context.Context, c Case, d Defendant, court Court, in SentenceInput) (*SentenceResult, error) {
	p, err := s.planBan(ctx, c, d, court, in, "")
	if err != nil {
		return nil, err
	}
	tx := db.Conn(ctx, s.DB)
	ban, rg, reached, warnings := &p.ban, p.rg, p.reached, p.warnings
	memberBans, err := s.writeBan(ctx, p, in)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if skipped := skippedSteps(c.Flow, c.Status); len(skipped) > 0 {
		if err := tx.Create(&Movement{CaseID: c.ID, At: now, Description: "Etapas não registradas no sistema antes da sentença: " + strings.Join(skipped, ", ") + "."}).Error; err != nil {
			return nil, err
		}
	}
	code := TPUConviction
	text := fmt.Sprintf("Sentença: impedimento de comparecimento (%s, %s) de %s, com início em %s", rg.Article, rg.Law, termPT(*ban), ban.FirstDay.BR())
	if ban.LastDay != nil {
		text += " e término em " + ban.LastDay.BR()
	}
	text += "."
	if err := tx.Create(&Movement{CaseID: c.ID, At: now, TPUCode: &code, Description: text, AuthorRole: "judge", AuthorUserID: c.JudgeID}).Error; err != nil {
		return nil, err
	}
	if reached != nil && (len(memberBans) > 0 || len(in.ExcludedMemberIDs) > 0) {
		names := make([]string, len(memberBans))
		for i, mb := range memberBans {
			names[i] = fmt.Sprintf("%s (associado %d)", mb.Name, *mb.MemberID)
		}
		mt := fmt.Sprintf("Impedimento estendido a %d associado(s) da torcida (%s, %s)", len(memberBans), rg.Article, rg.Law)
		if len(names) > 0 {
			mt += ": " + strings.Join(names, "; ")
		}
		if len(in.ExcludedMemberIDs) > 0 {
			mt += fmt.Sprintf(". Excluídos pelo(a) juiz(a): associados %s", joinIDs(in.ExcludedMemberIDs))
			if r := strings.TrimSpace(in.ExclusionReason); r != "" {
				mt += ", por este motivo: " + r
			}
		}
		if err := tx.Create(&Movement{CaseID: c.ID, At: now, Description: mt + ".", AuthorRole: "judge", AuthorUserID: c.JudgeID}).Error; err != nil {
			return nil, err
		}
	}
	var open int64
	if err := tx.Raw(`SELECT count(*) FROM defendants d WHERE d.case_id = ? AND NOT EXISTS
		(SELECT 1 FROM bans b WHERE b.defendant_id = d.id AND NOT b.precautionary AND b.source <> 'conditional_suspension')`, c.ID).Scan(&open).Error; err != nil {
		return nil, err
	}
	status := ""
	if open == 0 {
		status = decided(c.Flow)
	}
	if err := s.touch(ctx, &c, status); err != nil {
		return nil, err
	}
	if err := s.refreshBlocklist(ctx, banIDs(*ban, memberBans)...); err != nil {
		return nil, err
	}
	return &SentenceResult{Ban: *ban, MemberBans: memberBans, Range: rg, Warnings: warnings}, nil
}

// planBan checks a ban for defendant d of case c: the rule in force at the
// date of the facts (sanctions.BanRange), the term within its range, the
// last day (CP art. 10) or the judge's override, the reporting duty, and
// for a group the members it reaches. source "" is the sentence's
// (sentence, civil judgment or precautionary order); a plea agreement
// passes sanctions.FromPleaAgreement. Used by the sentence and by the
// homologation of a plea agreement (Lei 14.597/2023, art. 201, § 5º).
func (s *Service) planBan(ctx context.Context, c Case, d Defendant, court Court, in SentenceInput, source sanctions.Source) (*banPlan, error) {
	var f errs.Fields
	subject := sanctions.Person
	if d.Kind == "fan_group" {
		subject = sanctions.Group
		if d.GroupID == nil {
			return nil, errs.InvalidField("defendant_id", "linked_group", "a torcida ré não está vinculada a uma torcida cadastrada (group_id): cadastre-a e vincule-a antes de sentenciar.")
		}
	}
	doubles := court.Sec7DoublesBan
	if in.Sec7DoublesBan != nil {
		doubles = *in.Sec7DoublesBan
	}
	rg, err := sanctions.BanRange(sanctions.Query{
		Subject: subject, FactsDate: c.FactsDate, Conduct: c.Conduct,
		Eligible: in.Eligible, Organiser: in.Organiser, Sec7: in.Sec7, OffVenue: in.OffVenue, Sec7DoublesBan: &doubles,
	})
	if err != nil {
		var nc *sanctions.NotCoveredError
		if errors.As(err, &nc) {
			field := nc.Field
			if field == "" || field == "conduct" || field == "facts_date" || field == "subject" {
				field = "defendant_id"
			}
			return nil, errs.InvalidField(field, "covered", nc.Reason)
		}
		return nil, err
	}
	if !rg.Convertible {
		field := "eligible"
		if rg.Organiser {
			field = "organiser"
		}
		return nil, errs.InvalidField(field, "convertible", rg.Reason)
	}
	var warnings []string
	warnings = append(warnings, rg.Notes...)
	if subject == sanctions.Person && in.Eligible == nil {
		// Lei 14.597/2023, art. 201, § 2º: the judge did not say whether the
		// conditions hold; the default (eligible) stays, with a warning
		// when the CPF was already punished under the article.
		w, err := s.priorPunishmentWarning(ctx, d, rg, "A elegibilidade (eligible) não foi informada e foi presumida: decida-a e informe-a (eligible=false afasta a conversão).")
		if err != nil {
			return nil, err
		}
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	if subject == sanctions.Person {
		ws, err := s.birthDateWarnings(ctx, c.ID, d.ID, c.CourtCode)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, ws...)
	}

	var first civil.Date
	ferr := errors.New("no first day")
	today := civil.Today(s.now(), s.Loc)
	if in.Ban.FirstDay == "" {
		f.Add("ban.first_day", "required", "informe o primeiro dia do impedimento (AAAA-MM-DD).")
	} else if d, ok := parseDate(&f, "ban.first_day", in.Ban.FirstDay); ok {
		switch {
		case d.Before(c.FactsDate):
			f.Add("ban.first_day", "after_facts", fmt.Sprintf("o impedimento não pode começar antes da data dos fatos (%s).", c.FactsDate.BR()))
		case d.After(civil.New(today.Year+maxFirstDayYears, today.Month, today.Day)):
			f.Add("ban.first_day", "max", fmt.Sprintf("o primeiro dia não pode estar mais de %d anos no futuro.", maxFirstDayYears))
		default:
			first, ferr = d, nil
		}
	}
	ban := sanctions.Ban{
		CaseID: c.ID, DefendantID: d.ID, Subject: subject, CourtCode: c.CourtCode, CaseNumber: c.Number,
		CPF: d.CPF, BirthDate: d.BirthDate, GroupID: d.GroupID, FactsDate: c.FactsDate,
		Law: rg.Law, Article: rg.Article, RangeMinMonths: rg.MinMonths, RangeMaxMonths: rg.MaxMonths,
		Sec7Applied: rg.Sec7Applied, Sec7DoublesBan: rg.Sec7DoublesBan, Eligible: rg.Eligible, Organiser: rg.Organiser,
		Precautionary: in.Precautionary, FirstDay: first, Status: "active", CreatedAt: s.now(),
		PrisonMonths: in.PrisonMonths,
	}
	ban.Name = d.FullName
	ban.Source = sanctions.FromSentence
	ban.Publish = court.PublishDefault
	if subject == sanctions.Group {
		ban.Name = d.GroupName
		if d.GroupID != nil { // the name as registered, not as typed in the representation
			var registered string
			if err := db.Conn(ctx, s.DB).Raw("SELECT name FROM fan_groups WHERE id = ?", *d.GroupID).Scan(&registered).Error; err != nil {
				return nil, err
			}
			if registered != "" {
				ban.Name = registered
			}
		}
		ban.Source = sanctions.FromCivilJudgment
		ban.Publish = false // DOMAIN.md §6: group bans are published only when the judge orders it
	}
	if in.Precautionary {
		ban.Source = sanctions.FromPrecautionaryOrder
		ban.Publish = false
		if in.Ban.Months != nil {
			f.Add("ban.months", "precautionary", "o impedimento cautelar não tem prazo em meses: vigora até ser revogado.")
		}
	}
	if in.Publish != nil {
		ban.Publish = *in.Publish
	}
	if in.PrisonMonths != nil {
		lo, hi, ok := prisonRange(rg)
		switch {
		case !ok:
			f.Add("prison_months", "not_applicable", fmt.Sprintf("o %s da %s não prevê pena privativa de liberdade.", rg.Article, rg.Law))
		case *in.PrisonMonths < lo || *in.PrisonMonths > hi:
			f.Add("prison_months", "range", fmt.Sprintf("a pena de reclusão deve estar entre %d e %d meses (%s da %s).", lo, hi, rg.Article, rg.Law))
		}
	}
	checkText(&f, "ban.override_reason", in.Ban.OverrideReason, maxLong, true)
	if !in.Precautionary {
		if in.Ban.Months == nil {
			f.Add("ban.months", "required", "informe o prazo do impedimento em meses.")
		} else if err := sanctions.CheckMonths(rg, *in.Ban.Months); err != nil {
			f.Add("ban.months", "range", err.Error())
		} else if ferr == nil {
			last, err := sanctions.LastDay(first, *in.Ban.Months)
			if err != nil {
				f.Add("ban.months", "range", err.Error())
			} else {
				ban.Months, ban.ComputedLastDay, ban.LastDay = in.Ban.Months, &last, &last
			}
		}
	}
	if (in.Ban.LastDayOverride == "") != (strings.TrimSpace(in.Ban.OverrideReason) == "") {
		f.Add("ban.last_day_override", "together", "a alteração do último dia exige a data e a justificativa (override_reason), juntas.")
	} else if in.Ban.LastDayOverride != "" {
		ov, err := civil.Parse(in.Ban.LastDayOverride)
		switch {
		case in.Precautionary:
			f.Add("ban.last_day_override", "precautionary", "o impedimento cautelar não tem último dia.")
		case err != nil:
			f.Add("ban.last_day_override", "date", "data inválida: use AAAA-MM-DD.")
		case ferr == nil && ov.Before(first):
			f.Add("ban.last_day_override", "after_first_day", "o último dia não pode ser anterior ao primeiro.")
		case ban.LastDay != nil && !withinOverrideBounds(first, ov, rg):
			lo, hi := overrideBounds(first, rg)
			f.Add("ban.last_day_override", "range", fmt.Sprintf("o último dia alterado deve ficar entre %s e %s: o prazo continua limitado ao intervalo de %d a %d meses (%s da %s).",
				lo.BR(), hi.BR(), max(rg.MinMonths, 1), rg.MaxMonths, rg.Article, rg.Law))
		case ban.LastDay != nil:
			ban.LastDay = &ov
			ban.OverrideReason = strings.TrimSpace(in.Ban.OverrideReason)
			warnings = append(warnings, fmt.Sprintf("Último dia alterado pelo(a) juiz(a): %s (calculado: %s).", ov.BR(), ban.ComputedLastDay.BR()))
		}
	}
	if w := PastBanWarning(ban.LastDay, today); w != "" {
		warnings = append(warnings, w)
	}
	if in.ReportingDuty != nil {
		checkText(&f, "reporting_duty.place", in.ReportingDuty.Place, maxShort, false)
		checkText(&f, "reporting_duty.club", in.ReportingDuty.Club, maxName, false)
		checkText(&f, "reporting_duty.competition", in.ReportingDuty.Competition, maxName, false)
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
	} else if subject == sanctions.Person && !in.Precautionary && rg.Article != "art. 39" {
		warnings = append(warnings, "Conversão sem obrigação de permanência: o art. 201, § 4º (art. 41-B, § 4º) determina que a sentença a fixe.")
	}
	// Group bans reach members (DOMAIN.md §2): the registry says which.
	var reached *registry.BanSelection
	if subject != sanctions.Group {
		if len(in.MemberIDs) > 0 || len(in.ExcludedMemberIDs) > 0 {
			f.Add("member_ids", "group_only", "member_ids e excluded_member_ids valem só para torcidas.")
		}
	} else if d.GroupID != nil {
		checkText(&f, "exclusion_reason", in.ExclusionReason, maxLong, true)
		if len(in.ExcludedMemberIDs) > 0 && strings.TrimSpace(in.ExclusionReason) == "" {
			// DOMAIN.md §2: members are excluded by the judge "with a reason".
			f.Add("exclusion_reason", "required", "informe o motivo da exclusão dos associados (excluded_member_ids).")
		}
		sel, err := registry.SelectBanMembers(ctx, s.DB, *d.GroupID, c.FactsDate, rg.Members, in.MemberIDs, in.ExcludedMemberIDs)
		var fe *errs.Error
		switch {
		case errors.As(err, &fe) && fe.Kind == errs.Invalid:
			f = append(f, fe.Fields...)
		case err != nil:
			return nil, err
		default:
			reached = sel
			warnings = append(warnings, sel.Warnings...)
			if len(sel.Members) == 0 && rg.Members == registry.ReachAll {
				warnings = append(warnings, fmt.Sprintf("Nenhum associado do cadastro da torcida era associado(a) na data dos fatos (%s): o impedimento alcança só a torcida.", c.FactsDate.BR()))
			}
		}
	}
	if subject == sanctions.Person {
		ws, err := s.prescriptionWarnings(ctx, c, d.ID)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, ws...)
	}
	if subject == sanctions.Person && d.CPF == nil {
		warnings = append(warnings, "Réu sem CPF: aguarda identificação e não entra na lista de bloqueio.")
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

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ", ")
}

// maxFirstDayYears bounds how far in the future a ban may start.
const maxFirstDayYears = 20

// prisonRange is the custodial quantum in months allowed by the rule before
// conversion: reclusão of 1 to 2 years (art. 41-B; Lei 14.597/2023, art.
// 201), doubled under § 7º. Art. 39 of 2003 and group bans have none.
func prisonRange(rg sanctions.Range) (lo, hi int, ok bool) {
	if strings.HasPrefix(rg.Article, "art. 41-B") || strings.HasPrefix(rg.Article, "art. 201") {
		if rg.Sec7 {
			return 24, 48, true
		}
		return 12, 24, true
	}
	return 0, 0, false
}

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
	if *b.Months == 1 {
		return "1 mês"
	}
	return fmt.Sprintf("%d meses", *b.Months)
}
