package decisions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// Sentence decides one defendant of a case (or saves the decision as a
// draft when in.Draft): acquittal (CPP art. 386; TPU 220), conviction with
// the conversion to a ban (Lei 14.597/2023, art. 201, § 2º; Lei 10.671/2003,
// arts. 39, 41-B, § 2º) or with the cumulative ban of Lei 7.716/1989, art.
// 20, § 2º-A, or conviction to reclusão and fine with no conversion (§ 2º
// not met, § 6º; TPU 219), or a precautionary ban alone (CPP art. 319, II).
// The rule is the one in force at the date of the facts
// (sanctions.BanRange) with this defendant's flags. A ban decided here
// waits for the final judgment (status awaiting_final: no blocklist, no
// public list) unless it is precautionary (Súmula 643 STJ; CF art. 5º,
// LVII). Only the judge the case is distributed to may sentence
// (errs.Forbidden); a defendant already sentenced is errs.Conflict;
// invalid input is errs.Invalid naming the field and the article; after
// an annulment on the defence's appeal alone, signing a sentence harsher
// than the annulled one is errs.Invalid naming the harsher field (CPP art.
// 617, reformatio in pejus indireta).
func (s *Service) Sentence(ctx context.Context, actor actor.Actor, caseID int64, in SentenceInput) (*SentenceResult, error) {
	var res *SentenceResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		cp, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		c := *cp
		if c.JudgeID == nil || *c.JudgeID != actor.UserID {
			return errs.New(errs.Forbidden, "Somente o(a) juiz(a) a quem o processo foi distribuído pode sentenciá-lo.")
		}
		if in.DefendantID == 0 {
			return errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id).")
		}
		var d cases.Defendant
		if err := tx.Where("id = ? AND case_id = ?", in.DefendantID, c.ID).Limit(1).Find(&d).Error; err != nil {
			return err
		}
		if d.ID == 0 {
			return errs.InvalidField("defendant_id", "defendant_of_case", fmt.Sprintf("o réu %d não é parte deste processo.", in.DefendantID))
		}
		if err := sentenceable(c, d, in); err != nil {
			return err
		}
		var court cases.Court
		if err := tx.Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
			return err
		}
		alone := in.Precautionary
		if !alone {
			var already int64
			if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed' AND outcome <> ?", d.ID, OutcomePrecautionary).Count(&already).Error; err != nil {
				return err
			}
			if already == 0 { // bans decided before sentences were recorded
				if err := tx.Model(&sanctions.Ban{}).Where("defendant_id = ? AND NOT precautionary AND source IN ('sentence', 'civil_judgment') AND status IN ('active', 'awaiting_final')", d.ID).Count(&already).Error; err != nil {
					return err
				}
			}
			if already > 0 {
				return errs.New(errs.Conflict, "Este réu já foi sentenciado neste processo.")
			}
		}
		var r *SentenceResult
		if alone {
			r, err = s.precautionaryAlone(ctx, actor, c, d, in)
		} else {
			r, err = s.decide(ctx, actor, c, d, court, in)
		}
		if err != nil {
			return err
		}
		res = r
		return nil
	})
	return res, err
}

// SignDraft signs the saved minuta of defendantID: the same checks and
// writes as Sentence with the saved input, and the minuta becomes the
// signed sentence. errs.NotFound when the case is not of the actor's court
// (before any other answer, as for an unknown case) or there is no minuta;
// errs.Invalid on defendant_id when it is missing.
func (s *Service) SignDraft(ctx context.Context, actor actor.Actor, caseID, defendantID int64) (*SentenceResult, error) {
	if defendantID == 0 {
		var n int64
		if err := db.Conn(ctx, s.DB).Model(&cases.Case{}).Where("id = ? AND court_code = ?", caseID, actor.Court).Count(&n).Error; err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, cases.NotFound(fmt.Sprintf("Processo %d", caseID))
		}
		return nil, errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id) cuja minuta será assinada.")
	}
	d, err := s.Draft(ctx, actor, caseID, defendantID)
	if err != nil {
		return nil, err
	}
	var in SentenceInput
	if err := json.Unmarshal(d.Input, &in); err != nil {
		return nil, err
	}
	in.Draft = false
	return s.Sentence(ctx, actor, caseID, in)
}

// Draft returns the saved minuta of a defendant of case caseID of the
// actor's court; errs.NotFound when there is none.
func (s *Service) Draft(ctx context.Context, actor actor.Actor, caseID, defendantID int64) (*SentenceRecord, error) {
	var rec SentenceRecord
	err := db.Conn(ctx, s.DB).Joins("JOIN cases k ON k.id = sentences.case_id").
		Where("sentences.case_id = ? AND sentences.defendant_id = ? AND sentences.status = 'draft' AND k.court_code = ?", caseID, defendantID, actor.Court).
		Limit(1).Find(&rec).Error
	if err != nil {
		return nil, err
	}
	if rec.ID == 0 {
		return nil, errs.New(errs.NotFound, fmt.Sprintf("Não há minuta de sentença do réu %d no processo %d.", defendantID, caseID))
	}
	return &rec, nil
}

// beforeFinal reports whether a case in status is not yet final (a
// precautionary measure may still be ordered: CPP art. 319, at any stage).
func beforeFinal(status string) bool {
	switch status {
	case cases.StatusFinal, cases.StatusExecuting, cases.StatusArchived, cases.StatusSettlement, cases.StatusRejected, cases.StatusExtinct:
		return false
	}
	return true
}

// sentenceable checks that defendant d of c may be decided as in asks, by
// his own track (DOMAIN.md §4): a precautionary order until his final
// judgment; a sentence before his decision (errs.Conflict), and in a
// criminal case only once the accusation was received for him (errs.Invalid
// on defendant_id: no conviction nor acquittal without it, Lei 9.099/1995,
// arts. 77 and 81). A draft may be saved before; a group (civil) case is
// decided from any step before the judgment, the skipped steps recorded.
func sentenceable(c cases.Case, d cases.Defendant, in SentenceInput) error {
	track := cases.TrackOf(&c, d)
	if in.Precautionary {
		switch track {
		case cases.StatusArchived, cases.StatusRejected, cases.StatusExtinct:
			return errs.InvalidField("defendant_id", "not_archived", fmt.Sprintf("o réu %s está em “%s”: não há processo em curso quanto a ele, e a medida cautelar não cabe (CPP, arts. 282 e 319).", cases.NameOf(d), cases.OrStatus(track)))
		}
		if !beforeFinal(track) {
			return errs.New(errs.Conflict, fmt.Sprintf("O réu está na fase “%s”: a medida cautelar cabe até o trânsito em julgado.", cases.OrStatus(track)))
		}
		return nil
	}
	if !cases.BeforeDecision(c.Flow, track) || cases.Ended(track) {
		return errs.New(errs.Conflict, fmt.Sprintf("O réu já está na fase “%s”: a sentença cabe antes da decisão.", cases.OrStatus(track)))
	}
	if c.Flow == cases.FlowCriminal && !in.Draft && track != cases.StatusInstructionHearing {
		return errs.InvalidField("defendant_id", "accusation_received", fmt.Sprintf("o réu %s está em “%s”: não há condenação nem absolvição sem a denúncia recebida quanto a ele (Lei 9.099/1995, arts. 77 e 81); receba-a antes (transição instruction_hearing).", cases.NameOf(d), cases.OrStatus(track)))
	}
	return nil
}

func (s *Service) decide(ctx context.Context, actor actor.Actor, c cases.Case, d cases.Defendant, court cases.Court, in SentenceInput) (*SentenceResult, error) {
	if d.Kind == "fan_group" && d.GroupID == nil && in.Outcome != OutcomeAcquittal {
		return nil, errs.InvalidField("defendant_id", "linked_group", "a torcida ré não está vinculada a uma torcida cadastrada (group_id): cadastre-a e vincule-a antes de sentenciar.")
	}
	rg, fl, err := s.rangeFor(ctx, c, d, court, in)
	if err != nil && in.Outcome != OutcomeAcquittal {
		return nil, err
	}
	outcome := in.Outcome
	var f errs.Fields
	switch outcome {
	case "":
		outcome = OutcomeBan // the default; refused naming the flag when the law allows no conversion
	case OutcomeBan, OutcomePrison, OutcomeAcquittal:
	default:
		return nil, errs.InvalidField("outcome", "oneof", "use ban (conversão em impedimento), prison (reclusão e multa, sem conversão) ou acquittal (absolvição, CPP art. 386).")
	}
	res := &SentenceResult{Outcome: outcome, Flags: fl, Range: rg, MemberBans: []sanctions.Ban{}, Warnings: []string{}}
	rec := SentenceRecord{CaseID: c.ID, DefendantID: d.ID, Outcome: outcome, Status: "signed", CreatedAt: s.Now(), CreatedBy: c.JudgeID}
	cases.CheckText(&f, "text.report", textOf(in.Text, true), cases.MaxLong, true)
	cases.CheckText(&f, "text.reasoning", textOf(in.Text, false), cases.MaxLong, true)
	rec.Report, rec.Reasoning = strings.TrimSpace(textOf(in.Text, true)), strings.TrimSpace(textOf(in.Text, false))
	if !in.Draft {
		requireReasoning(&f, in.Text, "a sentença")
	}
	if err := checkOutcome(&f, d, rg, in, outcome, &rec); err != nil {
		return nil, err
	}
	membersApply(&f, d, in, outcome)
	if outcome != OutcomeAcquittal {
		rec.Law, rec.Article = rg.Law, rg.Offence
		s.checkPrison(&f, rg, in, outcome, &rec)
	}
	flags, _ := json.Marshal(fl)
	rec.Flags = flags
	if in.Dosimetry != nil {
		dj, _ := json.Marshal(in.Dosimetry)
		rec.Dosimetry = dj
	}
	input, _ := json.Marshal(in)
	rec.Input = input
	plan, prec, err := s.planBans(ctx, &f, c, d, court, in, outcome, rg, res)
	if err != nil {
		return nil, err
	}
	statutoryScope(&f, in.Scope, in.Ban, "O impedimento da sentença")
	if err := f.Err(); err != nil {
		return nil, err
	}
	if !in.Draft { // after an annulment on the defence's appeal alone (CPP art. 617)
		var nb *sanctions.Ban
		if plan != nil {
			nb = &plan.ban
		}
		if err := s.indirectPejus(ctx, c, d, severityOf(rec, nb)); err != nil {
			return nil, err
		}
	}
	if in.Draft {
		return s.saveDraft(ctx, c, d, rec, res, plan)
	}
	return s.sign(ctx, c, d, in, rg, rec, res, plan, prec)
}

// checkOutcome checks in against the outcome (acquittal, prison or ban) and
// the range rg, adding to f what the law refuses and filling rec's ground,
// law and article; a ban the law does not allow to convert is an error
// naming the flag.
func checkOutcome(f *errs.Fields, d cases.Defendant, rg sanctions.Range, in SentenceInput, outcome string, rec *SentenceRecord) error {
	switch outcome {
	case OutcomeAcquittal:
		g := strings.TrimSpace(strings.ToUpper(in.AcquittalGround))
		if _, ok := AcquittalGrounds[g]; !ok && d.Kind != "fan_group" {
			f.Add("acquittal_ground", "oneof", "informe o fundamento da absolvição: inciso I a VII do art. 386 do CPP.")
		}
		if in.Ban.Months != nil || in.PrisonMonths != nil || in.FineDays != nil || in.PrecautionaryUntilFinal != nil || in.Dosimetry != nil {
			f.Add("outcome", "acquittal", "a absolvição não impõe impedimento, reclusão, multa nem medida cautelar.")
		}
		rec.AcquittalGround, rec.Law, rec.Article = g, "Decreto-Lei 3.689/1941 (CPP)", "art. 386, "+g
		if d.Kind == "fan_group" { // a civil case: the claim is dismissed
			rec.AcquittalGround, rec.Law, rec.Article = "", "Lei 13.105/2015 (CPC)", "art. 487, I"
		}
	case OutcomePrison:
		switch {
		case d.Kind == "fan_group":
			f.Add("outcome", "person_only", "a torcida organizada responde no rito civil: não há pena privativa de liberdade (LGE, art. 183, § 2º; art. 184).")
		case rg.Cumulative:
			f.Add("outcome", "cumulative", fmt.Sprintf("no %s da %s a proibição de frequência de 3 anos é cumulativa com a reclusão: use outcome \"ban\" com prison_months.", rg.Article, rg.Law))
		case rg.PrisonMaxMonths == 0:
			f.Add("outcome", "no_prison", fmt.Sprintf("o %s da %s é sanção imposta na sentença, sem pena privativa de liberdade: use outcome \"ban\".", rg.Article, rg.Law))
		case rg.Convertible:
			f.Add("outcome", "conversion_owed", fmt.Sprintf("o réu preenche as condições do %s da %s (primário, bons antecedentes, sem punição anterior): o juiz deverá converter a reclusão em impedimento. Se as condições não se verificam, informe eligible=false.", rg.Article, rg.Law))
		}
		if in.Ban.Months != nil {
			f.Add("ban.months", "prison", "a condenação sem conversão não tem prazo de impedimento (para a cautelar até o trânsito, use precautionary_until_final).")
		}
		rec.NoConversionReason = rg.Reason
		if r := strings.TrimSpace(in.NoConversionReason); r != "" {
			rec.NoConversionReason = r + " (" + rg.Reason + ")"
		}
		cases.CheckText(f, "no_conversion_reason", in.NoConversionReason, cases.MaxLong, true)
	case OutcomeBan:
		if !rg.Convertible && !rg.Cumulative {
			field := "eligible"
			if rg.Organiser {
				field = "organiser"
			}
			return errs.InvalidField(field, "convertible", rg.Reason+". Para condenar sem conversão, informe outcome \"prison\" com prison_months e fine_days (ou \"acquittal\").")
		}
	}
	return nil
}

// membersApply adds to f member_ids or excluded_member_ids where a
// decision of outcome has no group ban for them to reach (DOMAIN.md §2):
// a person's decision other than a ban (whose planBan says it), a group's
// dismissal (CPC art. 487, I). Never ignored (issue 28, item 4).
func membersApply(f *errs.Fields, d cases.Defendant, in SentenceInput, outcome string) {
	if len(in.MemberIDs) == 0 && len(in.ExcludedMemberIDs) == 0 {
		return
	}
	field := "member_ids"
	if len(in.MemberIDs) == 0 {
		field = "excluded_member_ids"
	}
	switch {
	case d.Kind != "fan_group" && outcome != OutcomeBan:
		f.Add(field, "group_only", "member_ids e excluded_member_ids valem só para o impedimento de torcidas.")
	case d.Kind == "fan_group" && outcome == OutcomeAcquittal:
		f.Add(field, "no_ban", "a improcedência não impõe impedimento: member_ids e excluded_member_ids não se aplicam.")
	}
}

// planBans plans what a decision of outcome writes: the ban (outcome ban;
// its errs.Invalid fields join f) and the precautionary ban until the
// final judgment; the warnings go to res.
func (s *Service) planBans(ctx context.Context, f *errs.Fields, c cases.Case, d cases.Defendant, court cases.Court, in SentenceInput, outcome string, rg sanctions.Range, res *SentenceResult) (*banPlan, *sanctions.Ban, error) {
	var plan *banPlan
	if outcome == OutcomeBan {
		p, err := s.planBan(ctx, c, d, court, in, "", &rg)
		if err != nil {
			var fe *errs.Error
			if errors.As(err, &fe) && fe.Kind == errs.Invalid {
				*f = append(*f, fe.Fields...)
			} else {
				return nil, nil, err
			}
		} else {
			plan = p
			res.Warnings = append(res.Warnings, p.warnings...)
		}
	} else if d.Kind == "person" {
		ws, err := s.Cases.BirthDateWarnings(ctx, c.ID, d.ID, c.CourtCode)
		if err != nil {
			return nil, nil, err
		}
		res.Warnings = append(res.Warnings, ws...)
	}
	var prec *sanctions.Ban
	if in.PrecautionaryUntilFinal != nil && outcome != OutcomeAcquittal {
		pb, err := s.planPrecautionary(f, c, d, in.PrecautionaryUntilFinal.FirstDay, in.PrecautionaryUntilFinal.ReviewOn, "precautionary_until_final.")
		if err != nil {
			return nil, nil, err
		}
		if pb.Scope, err = s.resolveScope(ctx, f, c.CourtCode, in.PrecautionaryUntilFinal.Scope, "precautionary_until_final.scope"); err != nil {
			return nil, nil, err
		}
		prec = pb
	}
	return plan, prec, nil
}

// saveDraft saves rec as the draft of defendant d (the one draft: an older
// one is replaced); nothing is decided.
func (s *Service) saveDraft(ctx context.Context, c cases.Case, d cases.Defendant, rec SentenceRecord, res *SentenceResult, plan *banPlan) (*SentenceResult, error) {
	tx := db.Conn(ctx, s.DB)
	rec.Status = "draft"
	if err := tx.Where("defendant_id = ? AND status = 'draft'", d.ID).Delete(&SentenceRecord{}).Error; err != nil {
		return nil, err
	}
	if err := tx.Create(&rec).Error; err != nil {
		return nil, err
	}
	if err := s.Touch(ctx, &c, ""); err != nil {
		return nil, err
	}
	res.Sentence = rec
	res.Warnings = append(res.Warnings, "Minuta salva: nada foi decidido. Confira a prévia em PDF e assine.")
	if plan != nil {
		res.Ban = &plan.ban
	}
	return res, nil
}

// sign writes the signed decision rec of defendant d: its bans (plan) and
// precautionary ban (prec), the docket movements, the ending of the
// precautionary bans of an acquittal, the case's status, and the blocklist.
func (s *Service) sign(ctx context.Context, c cases.Case, d cases.Defendant, in SentenceInput, rg sanctions.Range, rec SentenceRecord, res *SentenceResult, plan *banPlan, prec *sanctions.Ban) (*SentenceResult, error) {
	tx := db.Conn(ctx, s.DB)
	outcome := rec.Outcome
	now := s.Now()
	if err := tx.Where("defendant_id = ? AND status = 'draft'", d.ID).Delete(&SentenceRecord{}).Error; err != nil {
		return nil, err
	}
	rec.SignedAt = &now
	var changed []int64
	if plan != nil {
		memberBans, err := s.writeBan(ctx, plan, in)
		if err != nil {
			return nil, err
		}
		res.Ban, res.MemberBans = &plan.ban, memberBans
		rec.BanID = &plan.ban.ID
		changed = cases.BanIDs(plan.ban, memberBans)
		if err := s.memberMovement(ctx, c, plan, memberBans, in, now); err != nil {
			return nil, err
		}
	}
	if prec != nil {
		ids, err := s.writePrecautionaryUntilFinal(ctx, c, plan, prec, in, res, now)
		if err != nil {
			return nil, err
		}
		rec.PrecautionaryBanID = &prec.ID
		changed = append(changed, ids...)
	}
	if rec.PrisonMonths != nil {
		res.Prison = &PrisonView{Months: *rec.PrisonMonths, FineDays: rec.FineDays}
		if rec.PrisonDays != nil {
			res.Prison.Days = *rec.PrisonDays
		}
	}
	if err := tx.Create(&rec).Error; err != nil {
		return nil, err
	}
	res.Sentence = rec
	if skipped := cases.SkippedSteps(c.Flow, c.Status); c.Flow == cases.FlowCivil && len(skipped) > 0 {
		if err := tx.Create(&cases.Movement{CaseID: c.ID, At: now, Kind: cases.MoveSkippedSteps, Description: "Etapas não registradas no sistema antes da sentença: " + strings.Join(skipped, ", ") + "."}).Error; err != nil {
			return nil, err
		}
	}
	kind, text := sentenceMovement(c, d, rec, res, rg)
	if err := tx.Create(&cases.Movement{CaseID: c.ID, At: now, Kind: kind, Description: text, AuthorRole: "judge", AuthorUserID: c.JudgeID}).Error; err != nil {
		return nil, err
	}
	if prec != nil {
		if err := tx.Create(&cases.Movement{CaseID: c.ID, At: now, Kind: cases.MovePrecautionary, AuthorRole: "judge", AuthorUserID: c.JudgeID, Description: precautionaryText(d, *prec, true)}).Error; err != nil {
			return nil, err
		}
	}
	if outcome == OutcomeAcquittal {
		ids, err := s.EndPrecautionary(ctx, &c, d.ID, civil.Today(now, s.Loc), "absolvição: cessam as medidas cautelares (CPP, art. 386, parágrafo único, II)")
		if err != nil {
			return nil, err
		}
		changed = append(changed, ids...)
	}
	status, err := s.decidedStatus(ctx, c, now)
	if err != nil {
		return nil, err
	}
	if c.Flow == cases.FlowCriminal {
		status = cases.StatusSentenced // his own track (DOMAIN.md §4)
		if err := s.SetTrack(ctx, &c, status, nil, d.ID); err != nil {
			return nil, err
		}
	} else if err := s.Touch(ctx, &c, status); err != nil {
		return nil, err
	}
	if len(changed) > 0 {
		if err := s.RefreshBlocklist(ctx, changed...); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// decidedStatus is the status of case c once a sentence was signed: the
// flow's decided status when every defendant has a signed sentence (a
// docket movement records a partial judgment: some convicted, some
// acquitted), else "" (unchanged).
func (s *Service) decidedStatus(ctx context.Context, c cases.Case, now time.Time) (string, error) {
	tx := db.Conn(ctx, s.DB)
	// The case is decided when every defendant has a signed sentence.
	var open int64
	if err := tx.Raw(`SELECT count(*) FROM defendants d WHERE d.case_id = ? AND NOT EXISTS
		(SELECT 1 FROM sentences s WHERE s.defendant_id = d.id AND s.status = 'signed' AND s.outcome <> 'precautionary')
		AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.defendant_id = d.id AND NOT b.precautionary AND b.source IN ('sentence', 'civil_judgment')
		AND b.status IN ('active', 'awaiting_final'))`, c.ID).Scan(&open).Error; err != nil {
		return "", err
	}
	status := ""
	if open == 0 {
		status = cases.Decided(c.Flow)
		var kinds []string
		if err := tx.Raw("SELECT DISTINCT outcome = 'acquittal' FROM sentences WHERE case_id = ? AND status = 'signed' AND outcome <> 'precautionary'", c.ID).Scan(&kinds).Error; err != nil {
			return "", err
		}
		if len(kinds) > 1 {
			if err := tx.Create(&cases.Movement{CaseID: c.ID, At: now, Kind: cases.MovePartialJudgment, AuthorRole: "judge", AuthorUserID: c.JudgeID,
				Description: "Julgada procedente em parte a representação: réus condenados e réus absolvidos."}).Error; err != nil {
				return "", err
			}
		}
	}
	return status, nil
}

// requireReasoning adds to f the reasoning missing from a decision being
// signed (what names it, e.g. "a sentença"): every judicial decision is
// reasoned, on pain of nullity (CF art. 93, IX); the report may be dispensed
// in the JECRIM (Lei 9.099/1995, art. 81, § 3º), the reasoning never.
func requireReasoning(f *errs.Fields, t *SentenceText, what string) {
	if strings.TrimSpace(textOf(t, false)) == "" {
		f.Add("text.reasoning", "required", fmt.Sprintf("informe a fundamentação (text.reasoning): %s sem fundamentação é nula (CF, art. 93, IX); o relatório pode ser dispensado (Lei 9.099/1995, art. 81, § 3º).", what))
	}
}

func textOf(t *SentenceText, report bool) string {
	if t == nil {
		return ""
	}
	if report {
		return t.Report
	}
	return t.Reasoning
}

// checkPrison checks the reclusão, the fine and the dosimetry of a
// conviction (CP arts. 49, 59, 68; the offence's range after §§ 6º/7º).
func (s *Service) checkPrison(f *errs.Fields, rg sanctions.Range, in SentenceInput, outcome string, rec *SentenceRecord) {
	months := in.PrisonMonths
	var third *sanctions.ThirdPhase
	phases := true
	if dz := in.Dosimetry; dz != nil {
		third, phases = checkDosimetry(f, rg, dz, months)
		if months == nil {
			m := dz.FinalMonths
			months = &m
		}
	}
	needPrison := outcome == OutcomePrison || (outcome == OutcomeBan && rg.Cumulative)
	switch {
	case months == nil && needPrison:
		f.Add("prison_months", "required", fmt.Sprintf("informe a reclusão fixada na dosimetria, em meses (de %d a %d: %s da %s).", rg.PrisonMinMonths, rg.PrisonMaxMonths, rg.Offence, rg.Law))
	case !phases:
	case third != nil:
		// The causes of the third phase take the term where they lead,
		// below the minimum or above the maximum (CP art. 68).
		rec.PrisonMonths = &third.Final.Months
		if third.Final.Days > 0 {
			rec.PrisonDays = &third.Final.Days
		}
	case months != nil:
		if msg := sanctions.CheckPrison(rg, *months); msg != "" {
			if rg.Organiser && rg.Sec7 {
				// CP art. 68, parágrafo único: the range carries both increases.
				msg += "; para limitar-se ao aumento do § 7º, o que mais aumenta (CP, art. 68, parágrafo único), informe a dosimetria com suas causas (dosimetry.causes)"
			}
			f.Add("prison_months", "range", msg+".")
		} else {
			rec.PrisonMonths = months
		}
	}
	switch {
	case in.FineDays != nil && !rg.Fine:
		f.Add("fine_days", "not_applicable", fmt.Sprintf("o %s da %s não prevê multa.", rg.Offence, rg.Law))
	case in.FineDays != nil:
		if msg := sanctions.CheckFineDays(*in.FineDays); msg != "" {
			f.Add("fine_days", "range", msg+".")
		} else {
			rec.FineDays = in.FineDays
		}
	case outcome == OutcomePrison && rg.Fine:
		f.Add("fine_days", "required", fmt.Sprintf("informe a multa em dias-multa, de %d a %d (CP, art. 49): o %s prevê reclusão e multa.", sanctions.MinFineDays, sanctions.MaxFineDays, rg.Offence))
	}
}

// sentenceMovement is the docket entry of a defendant's sentence: TPU 219
// (conviction, with or without a ban) or 220 (acquittal).
func sentenceMovement(c cases.Case, d cases.Defendant, rec SentenceRecord, res *SentenceResult, rg sanctions.Range) (cases.MovementKind, string) {
	name := d.FullName
	if d.Kind == "fan_group" {
		name = d.GroupName
	}
	switch rec.Outcome {
	case OutcomeAcquittal:
		if d.Kind == "fan_group" {
			return cases.MoveAcquittal, fmt.Sprintf("Sentença: julgado improcedente o pedido contra a torcida %s (CPC, art. 487, I).", name)
		}
		return cases.MoveAcquittal, fmt.Sprintf("Sentença: absolvido(a) %s (CPP, art. 386, %s: %s).", name, rec.AcquittalGround, AcquittalGrounds[rec.AcquittalGround])
	case OutcomePrison:
		text := fmt.Sprintf("Sentença: condenado(a) %s (%s da %s) à reclusão de %s", name, rec.Article, rec.Law, prisonPenalty(rec))
		if rec.FineDays != nil {
			text += fmt.Sprintf(" e %d dias-multa", *rec.FineDays)
		}
		return cases.MoveConviction, text + ", sem conversão em impedimento: " + rec.NoConversionReason + "."
	}
	b := res.Ban
	text := fmt.Sprintf("Sentença: condenado(a) %s (%s da %s); ", name, rec.Article, rec.Law)
	switch {
	case rg.Cumulative:
		text += fmt.Sprintf("reclusão de %s e proibição de frequência a locais destinados a práticas esportivas por %s, cumulativa (%s da %s)", prisonPenalty(rec), termPT(*b), rg.Article, rg.Law)
	case b.Article == "art. 39" || b.Subject == sanctions.Group:
		text += fmt.Sprintf("impedimento de comparecimento (%s, %s) de %s", b.Article, b.Law, termPT(*b))
	default:
		text += fmt.Sprintf("pena convertida em impedimento de comparecimento (%s, %s) de %s", b.Article, b.Law, termPT(*b))
	}
	if b.StartNotBefore != nil {
		text += fmt.Sprintf(", a cumprir após o trânsito em julgado, não antes de %s", b.StartNotBefore.BR())
	} else {
		text += ", a cumprir a partir do trânsito em julgado (Súmula 643 do STJ)"
	}
	return cases.MoveConviction, text + "."
}

// memberMovement records the members a group ban reaches and those the
// judge excluded (DOMAIN.md §2).
func (s *Service) memberMovement(ctx context.Context, c cases.Case, p *banPlan, memberBans []sanctions.Ban, in SentenceInput, now time.Time) error {
	if p.reached == nil || (len(memberBans) == 0 && len(in.ExcludedMemberIDs) == 0) {
		return nil
	}
	names := make([]string, len(memberBans))
	for i, mb := range memberBans {
		names[i] = fmt.Sprintf("%s (associado %d)", mb.Name, *mb.MemberID)
	}
	mt := fmt.Sprintf("Impedimento estendido a %d associado(s) da torcida (%s, %s)", len(memberBans), p.rg.Article, p.rg.Law)
	if len(names) > 0 {
		mt += ": " + strings.Join(names, "; ")
	}
	if len(in.ExcludedMemberIDs) > 0 {
		mt += fmt.Sprintf(". Excluídos pelo(a) juiz(a): associados %s", JoinIDs(in.ExcludedMemberIDs))
		if r := strings.TrimSpace(in.ExclusionReason); r != "" {
			mt += ", por este motivo: " + r
		}
	}
	return db.Conn(ctx, s.DB).Create(&cases.Movement{CaseID: c.ID, At: now, Kind: cases.MoveGroupMembers, Description: mt + ".", AuthorRole: "judge", AuthorUserID: c.JudgeID}).Error
}
