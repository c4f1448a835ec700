package decisions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm/clause"
)

// reformed is what a reform wrote: the docket's text, the bans changed
// (for the blocklist), the new outcome and the new ban, if any.
type reformed struct {
	text    string
	changed []int64
	outcome string
	banID   *int64
}

// checkReformShape adds to f what a reformed result lacks for its outcome:
// prison needs prison_months and no ban.months; acquittal imposes nothing;
// ban (the default with ban.months) needs ban.months.
func checkReformShape(f *errs.Fields, in AppealResultInput) {
	switch in.Outcome {
	case OutcomePrison:
		if in.PrisonMonths == nil {
			f.Add("prison_months", "required", "informe a reclusão fixada pela Turma Recursal, em meses.")
		}
		if in.Ban.Months != nil {
			f.Add("ban.months", "prison", "a reforma para reclusão sem conversão não tem prazo de impedimento.")
		}
	case OutcomeAcquittal:
		if in.Ban.Months != nil || in.PrisonMonths != nil || in.FineDays != nil {
			f.Add("outcome", "acquittal", "a absolvição não impõe impedimento, reclusão nem multa.")
		}
		if g := strings.ToUpper(strings.TrimSpace(in.AcquittalGround)); g != "" && AcquittalGrounds[g] == "" {
			f.Add("acquittal_ground", "oneof", "informe o fundamento da absolvição: inciso I a VII do art. 386 do CPP.")
		}
	case OutcomeBan, "":
		if in.Ban.Months == nil {
			f.Add("outcome", "reform", "informe o novo prazo (ban.months), outcome \"prison\" com prison_months e fine_days, ou outcome \"acquittal\".")
		}
	default:
		f.Add("outcome", "oneof", "use ban (impedimento), prison (reclusão e multa, sem conversão) ou acquittal (absolvição).")
	}
}

func appellantsText(as []string) string {
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = AppellantPT[a]
	}
	return strings.Join(names, " e ")
}

// reformedInput is the sentence the Turma Recursal's reform decides for
// defendant d: the signed sentence's own input (rec; its flags, text and
// group members) with the reform's outcome, term, reclusão, fine,
// reporting duty and finding on eligibility (Lei 14.597/2023, art. 201,
// § 2º: true for a conversion, false for the reclusão, unless given). The
// reclusão and fine the reform does not name are the sentence's.
func reformedInput(rec SentenceRecord, d cases.Defendant, in AppealResultInput) SentenceInput {
	var si SentenceInput
	if len(rec.Input) > 0 {
		_ = json.Unmarshal(rec.Input, &si)
	}
	si.DefendantID, si.Draft, si.Precautionary, si.PrecautionaryUntilFinal, si.Scope = d.ID, false, false, nil, nil
	si.Outcome = in.Outcome
	if si.Outcome == "" {
		si.Outcome = OutcomeBan
	}
	si.Ban = in.Ban
	si.AcquittalGround = strings.ToUpper(strings.TrimSpace(in.AcquittalGround))
	si.PrisonMonths, si.FineDays = rec.PrisonMonths, rec.FineDays
	if in.PrisonMonths != nil {
		si.PrisonMonths, si.Dosimetry = in.PrisonMonths, nil // a new quantum: the sentence's dosimetry no longer fits
	}
	if in.FineDays != nil {
		si.FineDays = in.FineDays
	}
	if in.ReportingDuty != nil {
		si.ReportingDuty = in.ReportingDuty
	}
	eligible := si.Outcome == OutcomeBan
	si.Eligible = &eligible
	if in.Eligible != nil {
		si.Eligible = in.Eligible
	}
	return si
}

// severityOf is what decision rec and its ban b (nil: none) impose (rec
// without ID: a ban decided before sentences were recorded).
func severityOf(rec SentenceRecord, b *sanctions.Ban) severity {
	v := severity{outcome: rec.Outcome}
	if rec.ID == 0 && rec.Outcome == "" {
		v.outcome = OutcomeBan
	}
	if b != nil {
		if b.Months != nil {
			v.banMonths = *b.Months
		}
		if b.PrisonMonths != nil {
			v.prison = *b.PrisonMonths
		}
	}
	if rec.PrisonMonths != nil {
		v.prison = *rec.PrisonMonths
	}
	if rec.PrisonDays != nil {
		v.prisonDays = *rec.PrisonDays
	}
	if rec.FineDays != nil {
		v.fines = *rec.FineDays
	}
	return v
}

// reform applies the Turma Recursal's reform of defendant d's sentence
// (Lei 9.099/1995, art. 82): to an acquittal (the sentence and its ban
// lose effect, the precautionary bans end: CPP art. 386, par. único, II),
// to reclusão and fine without conversion, to a new term, to the
// conversion of the reclusão into the ban (Lei 14.597/2023, art. 201,
// § 2º), or to a conviction on the prosecution's appeal against an
// acquittal. The new decision is checked and its ban planned as a
// sentence's (rangeFor, checkOutcome, checkPrison, planBans: the rule in
// force at the date of the facts, the term's range, the reporting duty, a
// group's members) and waits for the final judgment; a result harsher than
// the sentence in any penalty when the prosecution did not appeal is
// errs.Invalid (CPP art. 617; a group case: CPC art. 1.013), and so is, in
// a group case, a result milder than the judgment when only the
// prosecution appealed (CPC arts. 1.002 and 1.013; appealLimits). The
// signed sentence records the decision as reformed; the ban it had is
// reformed.
func (s *Service) reform(ctx context.Context, c *cases.Case, d *cases.Defendant, in AppealResultInput, appellants []string, decided, today civil.Date) (*reformed, error) {
	tx := db.Conn(ctx, s.DB)
	var rec SentenceRecord
	if err := tx.Where("defendant_id = ? AND status = 'signed' AND outcome <> ?", d.ID, OutcomePrecautionary).Limit(1).Find(&rec).Error; err != nil {
		return nil, err
	}
	var old sanctions.Ban
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("defendant_id = ? AND NOT precautionary AND group_ban_id IS NULL AND status = ?", d.ID, sanctions.StatusAwaitingFinal).Limit(1).Find(&old).Error; err != nil {
		return nil, err
	}
	if rec.ID == 0 && old.ID == 0 {
		return nil, errs.InvalidField("defendant_id", "sentenced", "o réu não tem sentença assinada a reformar.")
	}
	var ob *sanctions.Ban
	if old.ID != 0 {
		ob = &old
	}
	si := reformedInput(rec, *d, in)
	// A harsher (or, on the prosecution's appeal alone in a group case,
	// milder) outcome is refused before its details are checked.
	before := severityOf(rec, ob)
	if err := appealLimits(c, severity{outcome: si.Outcome}, severity{outcome: before.outcome}, appellants); err != nil {
		return nil, err
	}
	next := rec
	next.Outcome, next.BanID = si.Outcome, nil
	next.PrisonMonths, next.PrisonDays, next.FineDays, next.NoConversionReason, next.AcquittalGround = nil, nil, nil, "", ""
	var plan *banPlan
	var rg sanctions.Range
	if si.Outcome != OutcomeAcquittal {
		var court cases.Court
		if err := tx.Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
			return nil, err
		}
		var fl Flags
		var err error
		if rg, fl, err = s.rangeFor(ctx, *c, *d, court, si); err != nil {
			return nil, err
		}
		var f errs.Fields
		if err := checkOutcome(&f, *d, rg, si, si.Outcome, &next); err != nil {
			return nil, err
		}
		next.Law, next.Article = rg.Law, rg.Offence
		s.checkPrison(&f, rg, si, si.Outcome, &next)
		if plan, _, err = s.planBans(ctx, &f, *c, *d, court, si, si.Outcome, rg, &SentenceResult{}); err != nil {
			return nil, err
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		flags, _ := json.Marshal(fl)
		next.Flags = flags
	}
	var nb *sanctions.Ban
	if plan != nil {
		nb = &plan.ban
	}
	if err := appealLimits(c, severityOf(next, nb), before, appellants); err != nil {
		return nil, err
	}
	return s.writeReform(ctx, c, d, si, rec, next, old, plan, rg, decided, today)
}

// writeReform writes a reform checked by reform: the old ban (and its
// members' bans) reformed, the new ban planned, the signed sentence as
// reformed (an acquittal: the sentence is reformed and the precautionary
// bans end), and the docket's text.
func (s *Service) writeReform(ctx context.Context, c *cases.Case, d *cases.Defendant, si SentenceInput, rec, next SentenceRecord, old sanctions.Ban, plan *banPlan, rg sanctions.Range, decided, today civil.Date) (*reformed, error) {
	tx := db.Conn(ctx, s.DB)
	out := &reformed{outcome: si.Outcome}
	head := fmt.Sprintf("Turma Recursal, em %s: dado provimento ao recurso; reformada a sentença", decided.BR())
	if old.ID != 0 {
		if err := tx.Model(&sanctions.Ban{}).Where("id = ? OR group_ban_id = ?", old.ID, old.ID).Update("status", sanctions.StatusReformed).Error; err != nil {
			return nil, err
		}
		out.changed = append(out.changed, old.ID)
	}
	without := ""
	if old.ID != 0 {
		without = fmt.Sprintf(" Impedimento %d sem efeito.", old.ID)
	}
	if si.Outcome == OutcomeAcquittal {
		if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed' AND outcome <> ?", d.ID, OutcomePrecautionary).Update("status", "reformed").Error; err != nil {
			return nil, err
		}
		ids, err := s.EndPrecautionary(ctx, c, d.ID, today, "absolvição em recurso: cessam as medidas cautelares (CPP, art. 386, parágrafo único, II)")
		if err != nil {
			return nil, err
		}
		out.changed = append(out.changed, ids...)
		out.text = fmt.Sprintf("%s para absolver %s.%s", head, cases.NameOf(*d), without)
		return out, nil
	}
	res := &SentenceResult{}
	if plan != nil {
		memberBans, err := s.writeBan(ctx, plan, si)
		if err != nil {
			return nil, err
		}
		next.BanID, res.Ban, out.banID = &plan.ban.ID, &plan.ban, &plan.ban.ID
		out.changed = append(out.changed, cases.BanIDs(plan.ban, memberBans)...)
	}
	if rec.ID != 0 {
		input, _ := json.Marshal(si)
		if err := tx.Model(&SentenceRecord{}).Where("id = ?", rec.ID).Updates(map[string]any{"outcome": next.Outcome, "law": next.Law, "article": next.Article,
			"prison_months": next.PrisonMonths, "prison_days": next.PrisonDays, "fine_days": next.FineDays, "no_conversion_reason": next.NoConversionReason, "acquittal_ground": "",
			"flags": next.Flags, "ban_id": next.BanID, "input": input}).Error; err != nil {
			return nil, err
		}
	}
	_, desc := sentenceMovement(*c, *d, next, res, rg)
	out.text = fmt.Sprintf("%s: %s%s", head, strings.TrimPrefix(desc, "Sentença: "), without)
	return out, nil
}
