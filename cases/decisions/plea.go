package decisions

import (
	"context"
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

// Plea is a plea agreement (transação penal, Lei 9.099/1995, art. 76),
// which here takes the form of the ban (Lei 14.597/2023, art. 201, § 5º):
// offered by the prosecutor, accepted or refused by the defendant (a
// transition), homologated by the judge (the ban, source plea_agreement).
type Plea struct {
	ID            int64       `json:"id"`
	CaseID        int64       `json:"case_id"`
	DefendantID   int64       `json:"defendant_id"`
	CPF           *string     `json:"-" gorm:"column:cpf"`
	Months        int         `json:"months"`
	FirstDay      *civil.Date `json:"first_day"`
	Status        string      `json:"status"` // offered, accepted, refused, homologated
	OfferedAt     time.Time   `json:"offered_at"`
	OfferedBy     *int64      `json:"offered_by"`
	AnsweredAt    *time.Time  `json:"answered_at"`
	HomologatedAt *time.Time  `json:"homologated_at"`
	BanID         *int64      `json:"ban_id"`
	// CircumstancesFavourable and CircumstancesStatement are the
	// prosecutor's statement on bar III (art. 76, § 2º, III: antecedents,
	// social conduct, personality, motives and circumstances); nil when not
	// stated (presumed favourable, with a warning).
	CircumstancesFavourable *bool  `json:"circumstances_favourable"`
	CircumstancesStatement  string `json:"circumstances_statement,omitempty"`
	// BarChecks says, in Portuguese, what the system checked for each bar
	// of art. 76, § 2º, when the offer was made.
	BarChecks cases.StringList `json:"bar_checks"`
}

// TableName is plea_agreements.
func (Plea) TableName() string { return "plea_agreements" }

// PleaInput is the body of POST /api/v1/cases/{id}/plea: the defendant,
// the ban's term in months and optionally its first day (default: the day
// of the homologation), and the prosecutor's statement on bar III of art.
// 76, § 2º (circumstances_favourable: false bars the offer; omitted, it is
// presumed with a warning; circumstances_statement, the reasons).
type PleaInput struct {
	DefendantID             int64  `json:"defendant_id"`
	Months                  *int   `json:"months"`
	FirstDay                string `json:"first_day"`
	CircumstancesFavourable *bool  `json:"circumstances_favourable"`
	CircumstancesStatement  string `json:"circumstances_statement"`
	// Organiser, Sec7: this defendant's flags (Lei 14.597/2023, art. 201,
	// §§ 6º and 7º); default from the case's conduct only for a sole
	// defendant. Either puts the offence outside the JECRIM: no plea.
	Organiser *bool `json:"organiser"`
	Sec7      *bool `json:"sec7"`
	// Scope is refused (422): the plea's ban is the statute's (LGE art.
	// 201, § 5º), for any sporting event.
	Scope *ScopeInput `json:"scope"`
}

// PleaResult is an offer with its notes.
type PleaResult struct {
	Plea     Plea     `json:"plea"`
	Range    any      `json:"range"`
	Warnings []string `json:"warnings"`
}

// pleaBarYears: no plea agreement for someone who had one in the last five
// years (Lei 9.099/1995, art. 76, § 2º, II).
const pleaBarYears = 5

// pleaRule cites the rule that gives a plea agreement the form of the ban for
// the law of the facts: Lei 10.671/2003, art. 41-B, § 5º, before
// 15/06/2023; Lei 14.597/2023, art. 201, § 5º, from then on.
func pleaRule(rg sanctions.Range) string {
	if strings.HasPrefix(rg.Article, "art. 41-B") {
		return "Lei 10.671/2003, art. 41-B, § 5º"
	}
	return "Lei 14.597/2023, art. 201, § 5º"
}

// civilRefused is the answer to a plea or a suspension in a group case.
func civilRefused(what string) error {
	return errs.New(errs.Conflict, fmt.Sprintf("Processos de torcidas seguem o rito civil (ação civil pública ou TAC; DOMAIN.md §2): não há %s.", what))
}

// lockCriminalCase locks the case for a step of the criminal flow only
// (plea agreement, conditional suspension): a group case, civil, is
// refused naming the step (errs.Conflict).
func (s *Service) lockCriminalCase(ctx context.Context, actor actor.Actor, caseID int64, what string) (*cases.Case, error) {
	c, err := s.LockCase(ctx, actor, caseID)
	if err != nil {
		return nil, err
	}
	if c.Flow == cases.FlowCivil {
		return nil, civilRefused(what)
	}
	return c, nil
}

// OfferPlea records the prosecutor's plea agreement offer for a person
// defendant (Lei 9.099/1995, art. 76): refused for groups, for an
// organiser under Lei 14.597/2023, art. 201, § 6º (or another rule without
// conversion), for a term outside the range of the ban (art. 201, § 5º, via
// § 2º), and under each bar of art. 76, § 2º: I a final conviction to prison
// for a crime in the court's cases (pleaBars), II a plea agreement
// homologated in the last five years (by CPF, across cases; an agreement
// only offered, accepted, refused or undone never benefited him, nor does a
// plea-agreement ban undone or annulled), III the prosecutor's statement
// that the circumstances do not recommend it. What was checked is recorded
// with the offer (BarChecks). The defendant's track moves to plea_offered.
func (s *Service) OfferPlea(ctx context.Context, actor actor.Actor, caseID int64, in PleaInput) (*PleaResult, error) {
	var out *PleaResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.lockCriminalCase(ctx, actor, caseID, "transação penal")
		if err != nil {
			return err
		}
		d, err := s.PersonOf(ctx, c, in.DefendantID, "defendant_id")
		if err != nil {
			return err
		}
		// His own track (DOMAIN.md §4): a co-defendant's step does not
		// open nor close his plea.
		if track := cases.TrackOf(c, *d); track != cases.StatusPleaOffered {
			t, err := cases.StepFor(c, track, cases.StatusPleaOffered, cases.ViaPlea, "A proposta de transação penal (Lei 9.099/1995, art. 76)")
			if err != nil {
				return err
			}
			if err := cases.MayMake(actor, c, t); err != nil {
				return err
			}
		} else if actor.Role != "prosecutor" {
			return errs.New(errs.Forbidden, "A proposta de transação penal cabe ao Ministério Público (prosecutor).")
		}
		if d.Kind != "person" {
			return errs.InvalidField("defendant_id", "person_only", "não há transação penal para torcidas (rito civil, DOMAIN.md §2).")
		}
		var open int64
		if err := tx.Model(&Plea{}).Where("defendant_id = ? AND status IN ('offered', 'accepted', 'homologated')", d.ID).Count(&open).Error; err != nil {
			return err
		}
		if open > 0 {
			return errs.New(errs.Conflict, "Já há proposta de transação penal pendente ou aceita para este réu.")
		}
		var court cases.Court
		if err := tx.Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
			return err
		}
		rg, _, err := s.rangeFor(ctx, *c, *d, court, SentenceInput{Organiser: in.Organiser, Sec7: in.Sec7})
		if err != nil {
			return err
		}
		if !rg.PleaAllowed {
			field := "defendant_id"
			msg := fmt.Sprintf("pena máxima de %s (%s da %s): fora do JECRIM, rito ordinário; não cabe transação penal (Lei 9.099/1995, arts. 61 e 76).", cases.MonthsText(rg.PrisonMaxMonths), rg.Offence, rg.Law)
			switch {
			case rg.Organiser:
				msg = "organizador, preparador ou incitador (art. 201, § 6º, da Lei 14.597/2023): sem transação penal nem conversão em impedimento; pena de " + cases.MonthsText(rg.PrisonMinMonths) + " a " + cases.MonthsText(rg.PrisonMaxMonths) + ", fora do JECRIM. " + rg.Reason
			}
			return errs.InvalidField(field, "plea_barred", msg)
		}
		if !rg.Convertible {
			return errs.InvalidField("defendant_id", "plea_barred", rg.Reason)
		}
		var f errs.Fields
		statutoryScope(&f, in.Scope, BanInput{}, "O impedimento da transação penal (Lei 14.597/2023, art. 201, § 5º)")
		if in.Months == nil {
			f.Add("months", "required", "informe o prazo do impedimento em meses ("+pleaRule(rg)+").")
		} else if err := sanctions.CheckMonths(rg, *in.Months); err != nil {
			f.Add("months", "range", err.Error())
		}
		var first *civil.Date
		if in.FirstDay != "" {
			if fd, ok := cases.ParseDate(&f, "first_day", in.FirstDay); ok {
				if fd.Before(c.FactsDate) {
					f.Add("first_day", "after_facts", fmt.Sprintf("o impedimento não pode começar antes da data dos fatos (%s).", c.FactsDate.BR()))
				} else {
					first = &fd
				}
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		cases.CheckText(&f, "circumstances_statement", in.CircumstancesStatement, cases.MaxLong, true)
		if in.CircumstancesFavourable != nil && !*in.CircumstancesFavourable && strings.TrimSpace(in.CircumstancesStatement) == "" {
			f.Add("circumstances_statement", "required", "informe por que os antecedentes, a conduta social, a personalidade, os motivos ou as circunstâncias não recomendam a transação (art. 76, § 2º, III).")
		}
		if err := f.Err(); err != nil {
			return err
		}
		if in.CircumstancesFavourable != nil && !*in.CircumstancesFavourable {
			return errs.InvalidField("circumstances_favourable", "plea_barred", "o Ministério Público declarou que os antecedentes, a conduta social, a personalidade do agente, os motivos e as circunstâncias não indicam ser necessária e suficiente a medida: sem transação penal (Lei 9.099/1995, art. 76, § 2º, III). "+strings.TrimSpace(in.CircumstancesStatement))
		}
		warnings := []string{}
		now := s.Now()
		checks, ws, err := s.pleaBars(ctx, c, d, in)
		if err != nil {
			return err
		}
		warnings = append(warnings, ws...)
		if d.CPF == nil {
			warnings = append(warnings, "Réu sem CPF: não foi possível verificar transação penal nos últimos 5 anos (art. 76, § 2º, II).")
		} else {
			since := now.AddDate(-pleaBarYears, 0, 0)
			var prev struct {
				At     *time.Time
				Number string
			}
			err := tx.Raw(`SELECT at, number FROM (
				SELECT p.homologated_at AS at, k.number FROM plea_agreements p JOIN cases k ON k.id = p.case_id
				 WHERE p.cpf = ? AND p.defendant_id <> ? AND p.status = 'homologated' AND p.homologated_at IS NOT NULL
				UNION ALL
				SELECT b.created_at, b.case_number FROM bans b WHERE b.cpf = ? AND b.source = 'plea_agreement' AND b.defendant_id <> ?
				   AND b.status NOT IN (?, ?) AND NOT EXISTS (SELECT 1 FROM plea_agreements q WHERE q.ban_id = b.id)
			) x WHERE at >= ? ORDER BY at DESC LIMIT 1`, *d.CPF, d.ID, *d.CPF, d.ID, sanctions.StatusUndone, sanctions.StatusAnnulled, since).Scan(&prev).Error
			if err != nil {
				return err
			}
			if prev.At != nil {
				return errs.InvalidField("defendant_id", "plea_five_years", fmt.Sprintf("o autor do fato foi beneficiado por transação penal em %s (processo %s), há menos de %d anos: Lei 9.099/1995, art. 76, § 2º, II.",
					civil.Today(*prev.At, s.Loc).BR(), cases.FormatNumber(prev.Number), pleaBarYears))
			}
		}
		uid := actor.UserID
		p := Plea{CaseID: c.ID, DefendantID: d.ID, CPF: d.CPF, Months: *in.Months, FirstDay: first, Status: "offered", OfferedAt: now, OfferedBy: &uid,
			CircumstancesFavourable: in.CircumstancesFavourable, CircumstancesStatement: strings.TrimSpace(in.CircumstancesStatement), BarChecks: checks}
		if err := tx.Create(&p).Error; err != nil {
			return err
		}
		text := fmt.Sprintf("Proposta de transação penal pelo Ministério Público a %s: impedimento de comparecimento de %s (Lei 9.099/1995, art. 76; %s).", d.FullName, cases.MonthsText(p.Months), pleaRule(rg))
		if err := s.Move(ctx, c, &actor, now, cases.MovePleaOffered, text); err != nil {
			return err
		}
		if err := s.SetTrack(ctx, c, cases.StatusPleaOffered, nil, d.ID); err != nil {
			return err
		}
		out = &PleaResult{Plea: p, Warnings: warnings,
			Range: map[string]any{"law": rg.Law, "article": rg.Article, "min_months": rg.MinMonths, "max_months": rg.MaxMonths}}
		return nil
	})
	return out, err
}

// HomologateInput is the body of POST /api/v1/cases/{id}/plea/homologate:
// the defendant (default: the one accepted plea) and the first day when
// the offer did not fix it (default today).
type HomologateInput struct {
	DefendantID int64  `json:"defendant_id"`
	FirstDay    string `json:"first_day"`
}

// homologationPhase is the errs.Conflict of a homologation asked where no
// track is in plea_accepted: of the defendant named, or of the first
// defendant's track (cases.StepFor names the phase); nil when a track is.
func (s *Service) homologationPhase(ctx context.Context, c *cases.Case, defendantID int64) error {
	ds, err := s.Tracks(ctx, c)
	if err != nil {
		return err
	}
	var first error
	for _, d := range ds {
		if defendantID != 0 && d.ID != defendantID {
			continue
		}
		_, err := cases.StepFor(c, d.Status, cases.StatusExecuting, cases.ViaHomologate, "A homologação da transação penal (Lei 9.099/1995, art. 76, § 4º)")
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// Homologate is the judge's homologation of an accepted plea agreement: it
// creates the ban with source plea_agreement through the same checks as a
// sentence (range, last day; Lei 14.597/2023, art. 201, § 5º), refreshes
// the blocklist, and moves that defendant's track (only his) to executing.
func (s *Service) Homologate(ctx context.Context, actor actor.Actor, caseID int64, in HomologateInput) (*SentenceResult, error) {
	var out *SentenceResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.lockCriminalCase(ctx, actor, caseID, "transação penal")
		if err != nil {
			return err
		}
		var pleas []Plea
		q := tx.Where("case_id = ? AND status = 'accepted'", c.ID)
		if in.DefendantID != 0 {
			q = q.Where("defendant_id = ?", in.DefendantID)
		}
		if err := q.Order("id").Find(&pleas).Error; err != nil {
			return err
		}
		switch {
		case len(pleas) == 0:
			if err := s.homologationPhase(ctx, c, in.DefendantID); err != nil {
				return err
			}
			return errs.InvalidField("defendant_id", "accepted", "não há transação penal aceita para este réu.")
		case len(pleas) > 1:
			return errs.InvalidField("defendant_id", "required", "há mais de uma transação aceita: informe o réu (defendant_id).")
		}
		p := pleas[0]
		d, err := s.PersonOf(ctx, c, p.DefendantID, "defendant_id")
		if err != nil {
			return err
		}
		t, err := cases.StepFor(c, cases.TrackOf(c, *d), cases.StatusExecuting, cases.ViaHomologate, "A homologação da transação penal (Lei 9.099/1995, art. 76, § 4º)")
		if err != nil {
			return err
		}
		if err := cases.MayMake(actor, c, t); err != nil {
			return err
		}
		var court cases.Court
		if err := tx.Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
			return err
		}
		first := civil.Today(s.Now(), s.Loc).String()
		if p.FirstDay != nil {
			first = p.FirstDay.String()
		}
		if in.FirstDay != "" {
			first = in.FirstDay
		}
		months := p.Months
		sin := SentenceInput{DefendantID: d.ID, Ban: BanInput{FirstDay: first, Months: &months}}
		plan, err := s.planBan(ctx, *c, *d, court, sin, sanctions.FromPleaAgreement, nil)
		if err != nil {
			return renameField(err, "ban.first_day", "first_day")
		}
		// No sentence fixes a reporting duty here; its warning is the
		// sentence's, not the agreement's.
		plan.warnings = dropPrefix(plan.warnings, "Conversão sem obrigação de permanência")
		if _, err := s.writeBan(ctx, plan, sin); err != nil {
			return err
		}
		now := s.Now()
		if err := tx.Model(&Plea{}).Where("id = ?", p.ID).Updates(map[string]any{"status": "homologated", "homologated_at": now, "ban_id": plan.ban.ID}).Error; err != nil {
			return err
		}
		text := fmt.Sprintf("Homologada a transação penal de %s: impedimento de comparecimento (%s, %s) de %s, com início em %s e término em %s (Lei 9.099/1995, art. 76, § 4º; "+pleaRule(plan.rg)+").",
			d.FullName, plan.rg.Article, plan.rg.Law, cases.MonthsText(months), plan.ban.FirstDay.BR(), plan.ban.LastDay.BR())
		if err := s.Move(ctx, c, &actor, now, cases.MovePleaHomologated, text); err != nil {
			return err
		}
		// Only his track moves: the co-defendants (the organiser, § 6º,
		// who may not take the plea) are still to be tried.
		if err := s.SetTrack(ctx, c, cases.StatusExecuting, nil, d.ID); err != nil {
			return err
		}
		if err := s.RefreshBlocklist(ctx, plan.ban.ID); err != nil {
			return err
		}
		out = &SentenceResult{Outcome: OutcomeBan, Ban: &plan.ban, MemberBans: []sanctions.Ban{}, Range: plan.rg, Warnings: plan.warnings}
		return nil
	})
	return out, err
}

// renameField renames an invalid field of err (the sentence's names to the
// homologation's).
func renameField(err error, from, to string) error {
	var e *errs.Error
	if errors.As(err, &e) {
		for i := range e.Fields {
			if e.Fields[i].Field == from {
				e.Fields[i].Field = to
			}
		}
	}
	return err
}

func dropPrefix(l []string, prefix string) []string {
	out := []string{}
	for _, s := range l {
		if !strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// Suspension is a conditional suspension of the proceedings (suspensão
// condicional do processo, Lei 9.099/1995, art. 89): 2 to 4 years of
// probation under the conditions of § 1º, each recorded (I RepairDamage or
// RepairImpossible; II ForbiddenPlaces, SportingVenues when they are
// sporting venues, which makes the ban BanID; III StayInDistrict; IV
// MonthlyAppearance), and Conditions, the others the judge adds (§ 2º).
// It ends revoked (§§ 3º and 4º) or extinguished after the period (§ 5º)
// on EndedOn, with EndReason.
type Suspension struct {
	ID                int64            `json:"id"`
	CaseID            int64            `json:"case_id"`
	DefendantID       int64            `json:"defendant_id"`
	CPF               *string          `json:"-" gorm:"column:cpf"`
	Months            int              `json:"months"`
	FirstDay          civil.Date       `json:"first_day"`
	LastDay           civil.Date       `json:"last_day"`
	RepairDamage      string           `json:"repair_damage"`
	RepairImpossible  string           `json:"repair_impossible"`
	ForbiddenPlaces   cases.StringList `json:"forbidden_places"`
	SportingVenues    bool             `json:"sporting_venues"`
	StayInDistrict    bool             `json:"stay_in_district"`
	MonthlyAppearance bool             `json:"monthly_appearance"`
	Conditions        cases.StringList `json:"conditions"`
	BanID             *int64           `json:"ban_id"`
	Status            string           `json:"status"` // active, revoked, extinguished
	EndedOn           *civil.Date      `json:"ended_on"`
	EndReason         string           `json:"end_reason,omitempty"`
	CreatedAt         time.Time        `json:"created_at"`
	CreatedBy         *int64           `json:"-"`
}

// TableName is conditional_suspensions.
func (Suspension) TableName() string { return "conditional_suspensions" }

// SuspensionInput is the body of POST /api/v1/cases/{id}/suspension: the
// defendant, the probation in months (24 to 48), its first day (default
// today) and the conditions of art. 89, § 1º, each stated: I
// repair_damage (the repair ordered) or repair_impossible (why it cannot
// be made: "salvo impossibilidade de fazê-lo"); II forbidden_places (the
// places named) and sporting_venues (true when they include places of
// sporting events: the suspension then makes a ban, source
// conditional_suspension, for its period); III stay_in_district and IV
// monthly_appearance (true); conditions: the others the judge adds (§ 2º).
type SuspensionInput struct {
	DefendantID int64 `json:"defendant_id"`
	// Organiser, Sec7: this defendant's flags (as in PleaInput).
	Organiser         *bool    `json:"organiser"`
	Sec7              *bool    `json:"sec7"`
	Months            *int     `json:"months"`
	FirstDay          string   `json:"first_day"`
	RepairDamage      string   `json:"repair_damage"`
	RepairImpossible  string   `json:"repair_impossible"`
	ForbiddenPlaces   []string `json:"forbidden_places"`
	SportingVenues    bool     `json:"sporting_venues"`
	StayInDistrict    *bool    `json:"stay_in_district"`
	MonthlyAppearance *bool    `json:"monthly_appearance"`
	Conditions        []string `json:"conditions"`
	// Scope: the venues and clubs condition II names for the ban it makes
	// (absent: any sporting venue); Ban: a term counted in matches
	// (matches, club, home_only) instead of the whole period.
	Scope *ScopeInput `json:"scope"`
	Ban   *BanInput   `json:"ban"`
}

// Suspend records the judge's conditional suspension of the proceedings
// for a person defendant, on the prosecutor's proposal made with the
// accusation and accepted by the defendant (Lei 9.099/1995, art. 89: the
// case must be in accusation). Refused for groups, for the offences whose
// minimum penalty is above one year (the organiser, Lei 14.597/2023, art.
// 201, § 6º, and the doubled penalties of § 7º), and when the defendant is
// prosecuted in another case of the court or was convicted in one (caput;
// suspensionBarred). Each condition of § 1º must be stated
// (checkSuspensionConditions); when II names sporting venues the
// suspension makes a ban for its period that reaches the blocklist.
func (s *Service) Suspend(ctx context.Context, actor actor.Actor, caseID int64, in SuspensionInput) (*Suspension, error) {
	var out *Suspension
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.lockCriminalCase(ctx, actor, caseID, "suspensão condicional do processo")
		if err != nil {
			return err
		}
		d, err := s.PersonOf(ctx, c, in.DefendantID, "defendant_id")
		if err != nil {
			return err
		}
		t, err := cases.StepFor(c, cases.TrackOf(c, *d), cases.StatusConditionalSuspension, cases.ViaSuspension, "A suspensão condicional do processo (Lei 9.099/1995, art. 89)")
		if err != nil {
			return err
		}
		if err := cases.MayMake(actor, c, t); err != nil {
			return err
		}
		if d.Kind != "person" {
			return errs.InvalidField("defendant_id", "person_only", "não há suspensão condicional do processo para torcidas (rito civil).")
		}
		var court cases.Court
		if err := tx.Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
			return err
		}
		rg, _, err := s.rangeFor(ctx, *c, *d, court, SentenceInput{Organiser: in.Organiser, Sec7: in.Sec7})
		if err == nil && !rg.SuspensionAllowed {
			why := fmt.Sprintf("%s da %s", rg.Offence, rg.Law)
			switch {
			case rg.Organiser:
				why = "art. 201, § 6º, da Lei 14.597/2023 (organizador: pena aumentada de 1/3 a 1/2)"
			case rg.Sec7:
				why = "art. 201, § 7º, da Lei 14.597/2023 (penas em dobro)"
			}
			if rg.PrisonMaxMonths == 0 {
				return errs.InvalidField("defendant_id", "suspension_barred", fmt.Sprintf("o %s é sanção imposta na sentença, sem pena privativa de liberdade: não há suspensão condicional do processo (Lei 9.099/1995, art. 89).", sanctions.Cite(rg.Article, rg.Law)))
			}
			return errs.InvalidField("defendant_id", "suspension_barred", fmt.Sprintf("a pena mínima (%s) passa de um ano com o %s: rito ordinário, sem suspensão condicional do processo (Lei 9.099/1995, art. 89).", cases.MonthsText(rg.PrisonMinMonths), why))
		}
		var f errs.Fields
		if in.Months == nil {
			f.Add("months", "required", "informe o período de prova em meses (de 24 a 48).")
		} else if *in.Months < 24 || *in.Months > 48 {
			f.Add("months", "range", "o período de prova é de 2 a 4 anos: de 24 a 48 meses (Lei 9.099/1995, art. 89).")
		}
		checkSuspensionConditions(&f, in)
		first := civil.Today(s.Now(), s.Loc)
		if in.FirstDay != "" {
			if fd, ok := cases.ParseDate(&f, "first_day", in.FirstDay); ok {
				first = fd
			}
		}
		// Condition II may name the venues and clubs, and count the
		// stadium ban in matches (issue 19).
		scope, err := s.resolveScope(ctx, &f, c.CourtCode, in.Scope, "scope")
		if err != nil {
			return err
		}
		var mt *sanctions.MatchTerm
		var mdays sanctions.DayList
		if in.Ban != nil {
			if in.Ban.Matches == nil {
				f.Add("ban.matches", "required", "na suspensão, ban só conta o impedimento em jogos: informe matches e club (o prazo em meses é o período de prova, months).")
			} else if mt, mdays, err = s.resolveMatchTerm(ctx, &f, c.CourtCode, *in.Ban, first, "ban."); err != nil {
				return err
			}
		}
		if (in.Scope != nil || in.Ban != nil) && !in.SportingVenues {
			f.Add("sporting_venues", "required", "scope e ban valem para a condição que proíbe locais de eventos esportivos (sporting_venues: true).")
		}
		if err := f.Err(); err != nil {
			return err
		}
		var active int64
		if err := tx.Model(&Suspension{}).Where("defendant_id = ? AND status = 'active'", d.ID).Count(&active).Error; err != nil {
			return err
		}
		if active > 0 {
			return errs.New(errs.Conflict, "Este réu já está com o processo suspenso.")
		}
		if err := s.suspensionBarred(ctx, c, d); err != nil {
			return err
		}
		last, err := sanctions.LastDay(first, *in.Months)
		if err != nil {
			return errs.InvalidField("months", "range", err.Error())
		}
		uid := actor.UserID
		sp := Suspension{CaseID: c.ID, DefendantID: d.ID, CPF: d.CPF, Months: *in.Months, FirstDay: first, LastDay: last,
			RepairDamage: strings.TrimSpace(in.RepairDamage), RepairImpossible: strings.TrimSpace(in.RepairImpossible),
			ForbiddenPlaces: cases.TrimAll(in.ForbiddenPlaces), SportingVenues: in.SportingVenues,
			StayInDistrict: *in.StayInDistrict, MonthlyAppearance: *in.MonthlyAppearance,
			Conditions: cases.TrimAll(in.Conditions), Status: "active", CreatedAt: s.Now(), CreatedBy: &uid}
		if err := tx.Create(&sp).Error; err != nil {
			return err
		}
		if sp.SportingVenues {
			id, err := s.suspensionBan(ctx, c, d, &sp, scope, mt, mdays)
			if err != nil {
				return err
			}
			sp.BanID = &id
		}
		text := fmt.Sprintf("Suspenso condicionalmente o processo quanto a %s por %s, de %s a %s (Lei 9.099/1995, art. 89), com as condições: %s.",
			d.FullName, cases.MonthsText(sp.Months), first.BR(), last.BR(), strings.Join(sp.ConditionsPT(), "; "))
		if sp.BanID != nil {
			text += fmt.Sprintf(" A proibição de frequentar locais de eventos esportivos (art. 89, § 1º, II) vigora como impedimento %d, de %s a %s, e entra na lista de bloqueio.", *sp.BanID, first.BR(), last.BR())
		}
		if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveSuspension, text); err != nil {
			return err
		}
		if err := s.SetTrack(ctx, c, cases.StatusConditionalSuspension, nil, d.ID); err != nil {
			return err
		}
		out = &sp
		return nil
	})
	return out, err
}
