package cases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// SentenceInput is the body of POST /api/v1/cases/{id}/sentence
// (../shared/API.md): one defendant's decision. Nil flags take their
// defaults: eligible true; organiser, sec7, weapons, fan_fight from the
// case's conduct only when the case has one defendant (false otherwise: a
// penalty is personal, CF art. 5º, XLV–XLVI); off_venue from the conduct;
// sec7_doubles_ban and publish from the court's settings.
type SentenceInput struct {
	DefendantID int64 `json:"defendant_id"`
	// Outcome is OutcomeBan (the conversion, or the cumulative ban of Lei
	// 7.716/1989; the default when the range allows it), OutcomePrison
	// (reclusão and fine, no conversion) or OutcomeAcquittal (CPP art. 386).
	Outcome   string `json:"outcome"`
	Eligible  *bool  `json:"eligible"`
	Organiser *bool  `json:"organiser"`
	Sec7      *bool  `json:"sec7"`
	// Sec7Ground names what § 7º is for: "racism" or "against_women";
	// default from the case's conduct.
	Sec7Ground     string   `json:"sec7_ground"`
	Weapons        *bool    `json:"weapons"`
	FanFight       *bool    `json:"fan_fight"`
	OffVenue       *bool    `json:"off_venue"`
	Sec7DoublesBan *bool    `json:"sec7_doubles_ban"`
	Ban            BanInput `json:"ban"`
	PrisonMonths   *int     `json:"prison_months"`
	FineDays       *int     `json:"fine_days"`
	// NoConversionReason is the judge's own words on why the reclusão is
	// not converted (outcome prison); the legal reason is always recorded.
	NoConversionReason string `json:"no_conversion_reason"`
	// AcquittalGround is the item of CPP art. 386 (I to VII).
	AcquittalGround string `json:"acquittal_ground"`
	// Precautionary with ReviewOn: a precautionary ban alone (CPP art. 319,
	// II), no months; Ban.FirstDay its first day (default today).
	Precautionary bool   `json:"precautionary"`
	ReviewOn      string `json:"review_on"`
	// PrecautionaryUntilFinal: a precautionary ban ordered in the sentence,
	// in force until the judgment is final (then replaced by the final ban).
	PrecautionaryUntilFinal *PrecautionaryInput `json:"precautionary_until_final"`
	// Scope: the places a precautionary ban alone names (absent:
	// anywhere); refused (422) on every statutory ban.
	Scope             *ScopeInput    `json:"scope"`
	Text              *SentenceText  `json:"text"`
	Dosimetry         *Dosimetry     `json:"dosimetry"`
	ReportingDuty     *ReportingDuty `json:"reporting_duty"`
	Publish           *bool          `json:"publish"`
	MemberIDs         []int64        `json:"member_ids"`
	ExcludedMemberIDs []int64        `json:"excluded_member_ids"`
	ExclusionReason   string         `json:"exclusion_reason"` // required with excluded_member_ids; recorded in the docket
	// Draft saves the decision as a minuta (checked, nothing decided);
	// SignDraft signs the saved minuta.
	Draft bool `json:"draft"`
}

// Sentence outcomes (DOMAIN.md §2 "Outcomes"; API.md).
const (
	OutcomeBan           = "ban"
	OutcomePrison        = "prison"
	OutcomeAcquittal     = "acquittal"
	OutcomePrecautionary = "precautionary" // a precautionary ban alone: no decision of the merits
)

// AcquittalGrounds are the items of CPP art. 386 with their text.
var AcquittalGrounds = map[string]string{
	"I":   "estar provada a inexistência do fato",
	"II":  "não haver prova da existência do fato",
	"III": "não constituir o fato infração penal",
	"IV":  "estar provado que o réu não concorreu para a infração penal",
	"V":   "não existir prova de ter o réu concorrido para a infração penal",
	"VI":  "existirem circunstâncias que excluam o crime ou isentem o réu de pena, ou mesmo se houver fundada dúvida sobre sua existência",
	"VII": "não existir prova suficiente para a condenação",
}

// PrecautionaryInput is a precautionary ban ordered with the sentence until
// it is final: its first day (default today) and review date (required:
// Res. CNJ 417/2021, art. 19).
type PrecautionaryInput struct {
	FirstDay string `json:"first_day"`
	ReviewOn string `json:"review_on"`
	// Scope: the places the measure names (absent: anywhere).
	Scope *ScopeInput `json:"scope"`
}

// SentenceText is the judge's own text (CF art. 93, IX): the report
// (relatório) and the reasoning (fundamentação).
type SentenceText struct {
	Report    string `json:"report"`
	Reasoning string `json:"reasoning"`
}

// Dosimetry is the prison term fixed in three phases (CP arts. 59 and 68),
// in months: the base (circumstances of art. 59, within the offence's
// range), the intermediate (aggravating and mitigating circumstances, CP
// arts. 61–66, within the same range: Súmula 231 STJ) and the final (causes
// of increase and decrease, e.g. art. 201, §§ 6º and 7º), each with its
// reasons.
type Dosimetry struct {
	BaseMonths          int    `json:"base_months"`
	BaseReasons         string `json:"base_reasons"`
	IntermediateMonths  int    `json:"intermediate_months"`
	IntermediateReasons string `json:"intermediate_reasons"`
	FinalMonths         int    `json:"final_months"`
	FinalReasons        string `json:"final_reasons"`
}

// BanInput is the term the judge fixes: the months, a later first day
// (optional: by default the ban starts on the day the judgment becomes
// final), and a last-day override with its reason (only with a fixed first
// day).
type BanInput struct {
	FirstDay string `json:"first_day"`
	Months   *int   `json:"months"`
	// Matches, Club, HomeOnly: a term counted in matches (the next Matches
	// matches of Club, only its home matches with HomeOnly) from the
	// court's imported schedule; only where a scope is allowed
	// (sanctions.ScopeAllowed).
	Matches         *int   `json:"matches"`
	Club            string `json:"club"`
	HomeOnly        *bool  `json:"home_only"`
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

// Flags are one defendant's conduct flags as applied, and which of them
// were derived from the case's conduct (a sole defendant) instead of stated
// by the judge.
type Flags struct {
	Organiser bool     `json:"organiser"`
	Sec7      bool     `json:"sec7"`
	Weapons   bool     `json:"weapons"`
	FanFight  bool     `json:"fan_fight"`
	Eligible  bool     `json:"eligible"`
	Derived   []string `json:"derived"`
}

// SentenceRecord is a stored sentence (table sentences): one defendant's
// decision, a draft or signed.
type SentenceRecord struct {
	ID                 int64           `json:"id"`
	CaseID             int64           `json:"case_id"`
	DefendantID        int64           `json:"defendant_id"`
	Status             string          `json:"status"` // draft, signed, reformed, annulled
	Outcome            string          `json:"outcome"`
	Input              json.RawMessage `json:"-" gorm:"type:jsonb"`
	Law                string          `json:"law"`
	Article            string          `json:"article"`
	PrisonMonths       *int            `json:"prison_months"`
	FineDays           *int            `json:"fine_days"`
	NoConversionReason string          `json:"no_conversion_reason,omitempty"`
	AcquittalGround    string          `json:"acquittal_ground,omitempty"`
	Flags              json.RawMessage `json:"flags" gorm:"type:jsonb"`
	Report             string          `json:"report"`
	Reasoning          string          `json:"reasoning"`
	Dosimetry          json.RawMessage `json:"dosimetry" gorm:"type:jsonb"`
	BanID              *int64          `json:"ban_id"`
	PrecautionaryBanID *int64          `json:"precautionary_ban_id"`
	DocumentID         *int64          `json:"-"`
	CreatedAt          time.Time       `json:"created_at"`
	CreatedBy          *int64          `json:"-"`
	SignedAt           *time.Time      `json:"signed_at"`
}

// TableName is sentences.
func (SentenceRecord) TableName() string { return "sentences" }

// PrisonView is the reclusão of a conviction without conversion.
type PrisonView struct {
	Months   int  `json:"months"`
	FineDays *int `json:"fine_days"`
}

// SentenceResult is what a sentence creates.
type SentenceResult struct {
	Sentence         SentenceRecord
	Outcome          string
	Ban              *sanctions.Ban
	PrecautionaryBan *sanctions.Ban
	MemberBans       []sanctions.Ban
	Prison           *PrisonView
	Flags            Flags
	Range            sanctions.Range
	Warnings         []string
}

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
// invalid input is errs.Invalid naming the field and the article.
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
		alone := in.Precautionary
		if alone {
			if !beforeFinal(c.Status) {
				return errs.New(errs.Conflict, fmt.Sprintf("O processo está na fase “%s”: a medida cautelar cabe até o trânsito em julgado.", orStatus(c.Status)))
			}
		} else if !beforeDecision(c.Flow, c.Status) {
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
func (s *Service) SignDraft(ctx context.Context, actor Actor, caseID, defendantID int64) (*SentenceResult, error) {
	if defendantID == 0 {
		var n int64
		if err := db.Conn(ctx, s.DB).Model(&Case{}).Where("id = ? AND court_code = ?", caseID, actor.Court).Count(&n).Error; err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, notFound(fmt.Sprintf("Processo %d", caseID))
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
func (s *Service) Draft(ctx context.Context, actor Actor, caseID, defendantID int64) (*SentenceRecord, error) {
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
	case StatusFinal, StatusExecuting, StatusArchived, StatusSettlement:
		return false
	}
	return true
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

// defendantFlags resolves one defendant's flags: those the judge stated,
// else, for a sole defendant, those of the case's conduct (DOMAIN.md §2:
// penalties are personal; CF art. 5º, XLV–XLVI). It returns the flags and
// the conduct words of this defendant (the event's words plus the personal
// words that hold for the defendant).
func defendantFlags(c Case, nDefendants int, in SentenceInput) (Flags, []string) {
	var fl Flags
	sole := nDefendants == 1
	pick := func(name string, given *bool, derived bool) bool {
		if given != nil {
			return *given
		}
		if sole && derived {
			fl.Derived = append(fl.Derived, name)
			return true
		}
		if sole {
			fl.Derived = append(fl.Derived, name)
		}
		return false
	}
	has := func(w string) bool { return slices.Contains(c.Conduct, w) }
	fl.Organiser = pick("organiser", in.Organiser, has(sanctions.WordOrganiser))
	fl.Sec7 = pick("sec7", in.Sec7, has(sanctions.WordRacism) || has(sanctions.WordAgainstWomen))
	fl.Weapons = pick("weapons", in.Weapons, has(sanctions.WordWeapons))
	fl.FanFight = pick("fan_fight", in.FanFight, has(sanctions.WordFanFight))
	fl.Eligible = in.Eligible == nil || *in.Eligible
	var conduct []string
	for _, w := range c.Conduct {
		if !slices.Contains(sanctions.PersonalWords, w) {
			conduct = append(conduct, w)
		}
	}
	if fl.Weapons {
		conduct = append(conduct, sanctions.WordWeapons)
	}
	if fl.FanFight {
		conduct = append(conduct, sanctions.WordFanFight)
	}
	if fl.Organiser {
		conduct = append(conduct, sanctions.WordOrganiser)
	}
	if fl.Sec7 {
		ground := in.Sec7Ground
		if ground == "" {
			ground = sanctions.WordRacism
			if has(sanctions.WordAgainstWomen) && !has(sanctions.WordRacism) {
				ground = sanctions.WordAgainstWomen
			}
		}
		conduct = append(conduct, ground)
	}
	if fl.Derived == nil {
		fl.Derived = []string{}
	}
	return fl, conduct
}

// SentenceRange is the rule that a sentence with in's flags would apply to
// defendant in.DefendantID of case caseID of the actor's court (the
// sentence page shows it before signing): the same computation as
// Sentence. errs.NotFound for a case or defendant not of the court.
func (s *Service) SentenceRange(ctx context.Context, actor Actor, caseID int64, in SentenceInput) (sanctions.Range, Flags, error) {
	var c Case
	if err := db.Conn(ctx, s.DB).Where("id = ? AND court_code = ?", caseID, actor.Court).Limit(1).Find(&c).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	if c.ID == 0 {
		return sanctions.Range{}, Flags{}, notFound(fmt.Sprintf("Processo %d", caseID))
	}
	var d Defendant
	if err := db.Conn(ctx, s.DB).Where("id = ? AND case_id = ?", in.DefendantID, c.ID).Limit(1).Find(&d).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	if d.ID == 0 {
		return sanctions.Range{}, Flags{}, errs.InvalidField("defendant_id", "defendant_of_case", fmt.Sprintf("o réu %d não é parte deste processo.", in.DefendantID))
	}
	var court Court
	if err := db.Conn(ctx, s.DB).Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	return s.rangeFor(ctx, c, d, court, in)
}

// rangeFor is the rule for defendant d of case c with the sentence's flags
// (sanctions.BanRange), as an errs.Invalid naming the field when no statute
// covers it.
func (s *Service) rangeFor(ctx context.Context, c Case, d Defendant, court Court, in SentenceInput) (sanctions.Range, Flags, error) {
	var n int64
	if err := db.Conn(ctx, s.DB).Model(&Defendant{}).Where("case_id = ?", c.ID).Count(&n).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	doubles := court.Sec7DoublesBan
	if in.Sec7DoublesBan != nil {
		doubles = *in.Sec7DoublesBan
	}
	q := sanctions.Query{Subject: sanctions.Person, FactsDate: c.FactsDate, Eligible: in.Eligible, OffVenue: in.OffVenue, Sec7DoublesBan: &doubles}
	var fl Flags
	if d.Kind == "fan_group" {
		q.Subject, q.Conduct, q.Organiser, q.Sec7 = sanctions.Group, c.Conduct, in.Organiser, in.Sec7
		fl = Flags{Eligible: true, Derived: []string{}}
	} else {
		var conduct []string
		fl, conduct = defendantFlags(c, int(n), in)
		if in.Sec7Ground != "" && in.Sec7Ground != sanctions.WordRacism && in.Sec7Ground != sanctions.WordAgainstWomen {
			return sanctions.Range{}, fl, errs.InvalidField("sec7_ground", "oneof", "use racism ou against_women (Lei 14.597/2023, art. 201, § 7º).")
		}
		org, sec7 := fl.Organiser, fl.Sec7
		q.Conduct, q.Organiser, q.Sec7 = conduct, &org, &sec7
		if len(c.Conduct) == 0 {
			q.Conduct = nil
		} else if len(conduct) == 0 {
			// Every word of the case is personal (weapons, fan_fight,
			// organiser, racism, against_women) and none was stated for this
			// defendant: no conduct of his is described.
			return sanctions.Range{}, fl, errs.InvalidField("defendant_id", "conduct_stated", fmt.Sprintf("as condutas da representação (%s) são pessoais e nenhuma foi afirmada para este réu: informe weapons, fan_fight, organiser ou sec7 (a pena é pessoal: CF, art. 5º, XLV e XLVI).", strings.Join(c.Conduct, ", ")))
		}
	}
	rg, err := sanctions.BanRange(q)
	if err != nil {
		var nc *sanctions.NotCoveredError
		if errors.As(err, &nc) {
			field := nc.Field
			if field == "" || field == "conduct" || field == "facts_date" || field == "subject" {
				field = "defendant_id"
				if nc.Field == "conduct" && d.Kind == "person" {
					field = "sec7"
					if !fl.Sec7 {
						field = "defendant_id"
					}
				}
			}
			return rg, fl, errs.InvalidField(field, "covered", nc.Reason)
		}
		return rg, fl, err
	}
	fl.Eligible = rg.Eligible
	if d.Kind != "fan_group" && n > 1 {
		for word, given := range map[string]*bool{sanctions.WordOrganiser: in.Organiser, sanctions.WordRacism: in.Sec7, sanctions.WordAgainstWomen: in.Sec7} {
			if given == nil && slices.Contains(c.Conduct, word) {
				rg.Notes = append(rg.Notes, fmt.Sprintf("a representação descreve %q e o processo tem %d réus: a condição não foi afirmada para este réu e não se aplica a ele (a pena é pessoal: CF, art. 5º, XLV e XLVI); informe-a se for o caso.", word, n))
			}
		}
	}
	return rg, fl, nil
}

func (s *Service) decide(ctx context.Context, actor Actor, c Case, d Defendant, court Court, in SentenceInput) (*SentenceResult, error) {
	tx := db.Conn(ctx, s.DB)
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
	rec := SentenceRecord{CaseID: c.ID, DefendantID: d.ID, Outcome: outcome, Status: "signed", CreatedAt: s.now(), CreatedBy: c.JudgeID}
	checkText(&f, "text.report", textOf(in.Text, true), maxLong, true)
	checkText(&f, "text.reasoning", textOf(in.Text, false), maxLong, true)
	rec.Report, rec.Reasoning = strings.TrimSpace(textOf(in.Text, true)), strings.TrimSpace(textOf(in.Text, false))
	if rec.Reasoning == "" {
		res.Warnings = append(res.Warnings, "A sentença não traz fundamentação (text.reasoning): toda decisão judicial é fundamentada (CF, art. 93, IX).")
	}
	var plan *banPlan
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
		checkText(&f, "no_conversion_reason", in.NoConversionReason, maxLong, true)
	case OutcomeBan:
		if !rg.Convertible && !rg.Cumulative {
			field := "eligible"
			if rg.Organiser {
				field = "organiser"
			}
			return nil, errs.InvalidField(field, "convertible", rg.Reason+". Para condenar sem conversão, informe outcome \"prison\" com prison_months e fine_days (ou \"acquittal\").")
		}
	}
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
	if outcome == OutcomeBan {
		p, err := s.planBan(ctx, c, d, court, in, "", &rg)
		if err != nil {
			var fe *errs.Error
			if errors.As(err, &fe) && fe.Kind == errs.Invalid {
				f = append(f, fe.Fields...)
			} else {
				return nil, err
			}
		} else {
			plan = p
			res.Warnings = append(res.Warnings, p.warnings...)
		}
	} else if d.Kind == "person" {
		ws, err := s.birthDateWarnings(ctx, c.ID, d.ID, c.CourtCode)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, ws...)
	}
	var prec *sanctions.Ban
	if in.PrecautionaryUntilFinal != nil && outcome != OutcomeAcquittal {
		pb, err := s.planPrecautionary(&f, c, d, in.PrecautionaryUntilFinal.FirstDay, in.PrecautionaryUntilFinal.ReviewOn, "precautionary_until_final.")
		if err != nil {
			return nil, err
		}
		if pb.Scope, err = s.resolveScope(ctx, &f, c.CourtCode, in.PrecautionaryUntilFinal.Scope, "precautionary_until_final.scope"); err != nil {
			return nil, err
		}
		prec = pb
	}
	statutoryScope(&f, in.Scope, in.Ban, "O impedimento da sentença")
	if err := f.Err(); err != nil {
		return nil, err
	}
	if in.Draft {
		rec.Status = "draft"
		if err := tx.Where("defendant_id = ? AND status = 'draft'", d.ID).Delete(&SentenceRecord{}).Error; err != nil {
			return nil, err
		}
		if err := tx.Create(&rec).Error; err != nil {
			return nil, err
		}
		if err := s.touch(ctx, &c, ""); err != nil {
			return nil, err
		}
		res.Sentence = rec
		res.Warnings = append(res.Warnings, "Minuta salva: nada foi decidido. Confira a prévia em PDF e assine.")
		if plan != nil {
			res.Ban = &plan.ban
		}
		return res, nil
	}
	now := s.now()
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
		changed = banIDs(plan.ban, memberBans)
		if err := s.memberMovement(ctx, c, plan, memberBans, in, now); err != nil {
			return nil, err
		}
	}
	if prec != nil {
		if err := tx.Create(prec).Error; err != nil {
			return nil, err
		}
		res.PrecautionaryBan = prec
		rec.PrecautionaryBanID = &prec.ID
		changed = append(changed, prec.ID)
	}
	if rec.PrisonMonths != nil {
		res.Prison = &PrisonView{Months: *rec.PrisonMonths, FineDays: rec.FineDays}
	}
	if err := tx.Create(&rec).Error; err != nil {
		return nil, err
	}
	res.Sentence = rec
	if skipped := skippedSteps(c.Flow, c.Status); len(skipped) > 0 {
		if err := tx.Create(&Movement{CaseID: c.ID, At: now, Description: "Etapas não registradas no sistema antes da sentença: " + strings.Join(skipped, ", ") + "."}).Error; err != nil {
			return nil, err
		}
	}
	code, text := sentenceMovement(c, d, rec, res, rg)
	if err := tx.Create(&Movement{CaseID: c.ID, At: now, TPUCode: &code, Description: text, AuthorRole: "judge", AuthorUserID: c.JudgeID}).Error; err != nil {
		return nil, err
	}
	if prec != nil {
		if err := tx.Create(&Movement{CaseID: c.ID, At: now, AuthorRole: "judge", AuthorUserID: c.JudgeID, Description: precautionaryText(d, *prec, true)}).Error; err != nil {
			return nil, err
		}
	}
	if outcome == OutcomeAcquittal {
		ids, err := s.endPrecautionary(ctx, &c, d.ID, civil.Today(now, s.Loc), "absolvição: cessam as medidas cautelares (CPP, art. 386, parágrafo único, II)")
		if err != nil {
			return nil, err
		}
		changed = append(changed, ids...)
	}
	// The case is decided when every defendant has a signed sentence.
	var open int64
	if err := tx.Raw(`SELECT count(*) FROM defendants d WHERE d.case_id = ? AND NOT EXISTS
		(SELECT 1 FROM sentences s WHERE s.defendant_id = d.id AND s.status = 'signed' AND s.outcome <> 'precautionary')
		AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.defendant_id = d.id AND NOT b.precautionary AND b.source IN ('sentence', 'civil_judgment')
		AND b.status IN ('active', 'awaiting_final'))`, c.ID).Scan(&open).Error; err != nil {
		return nil, err
	}
	status := ""
	if open == 0 {
		status = decided(c.Flow)
		var kinds []string
		if err := tx.Raw("SELECT DISTINCT outcome = 'acquittal' FROM sentences WHERE case_id = ? AND status = 'signed' AND outcome <> 'precautionary'", c.ID).Scan(&kinds).Error; err != nil {
			return nil, err
		}
		if len(kinds) > 1 {
			partial := TPUPartial
			if err := tx.Create(&Movement{CaseID: c.ID, At: now, TPUCode: &partial, AuthorRole: "judge", AuthorUserID: c.JudgeID,
				Description: "Julgada procedente em parte a representação: réus condenados e réus absolvidos."}).Error; err != nil {
				return nil, err
			}
		}
	}
	if err := s.touch(ctx, &c, status); err != nil {
		return nil, err
	}
	if len(changed) > 0 {
		if err := s.refreshBlocklist(ctx, changed...); err != nil {
			return nil, err
		}
	}
	return res, nil
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
	if dz := in.Dosimetry; dz != nil {
		lo, hi := rg.PrisonMinMonths, rg.PrisonMaxMonths
		baseLo, baseHi := 12, 24 // the caput's range (art. 201 / 41-B)
		if rg.Cumulative {
			baseLo, baseHi = lo, hi
		}
		switch {
		case hi == 0:
			f.Add("dosimetry", "no_prison", fmt.Sprintf("o %s da %s não prevê reclusão: não há dosimetria.", rg.Article, rg.Law))
		case dz.BaseMonths < baseLo || dz.BaseMonths > baseHi:
			f.Add("dosimetry.base_months", "range", fmt.Sprintf("a pena-base (CP, art. 59) fica entre o mínimo e o máximo do tipo: de %d a %d meses.", baseLo, baseHi))
		case dz.IntermediateMonths < baseLo || dz.IntermediateMonths > baseHi:
			f.Add("dosimetry.intermediate_months", "range", fmt.Sprintf("a pena intermediária (agravantes e atenuantes, CP, arts. 61 a 66) não sai dos limites do tipo, de %d a %d meses (Súmula 231 do STJ).", baseLo, baseHi))
		case dz.FinalMonths < lo || dz.FinalMonths > hi:
			f.Add("dosimetry.final_months", "range", fmt.Sprintf("a pena definitiva (causas de aumento e diminuição, CP, art. 68) deve estar entre %d e %d meses (%s).", lo, hi, rg.Offence))
		case months != nil && *months != dz.FinalMonths:
			f.Add("prison_months", "dosimetry", fmt.Sprintf("prison_months (%d) difere da pena definitiva da dosimetria (%d meses).", *months, dz.FinalMonths))
		}
		if months == nil {
			m := dz.FinalMonths
			months = &m
		}
		for field, text := range map[string]string{"dosimetry.base_reasons": dz.BaseReasons, "dosimetry.intermediate_reasons": dz.IntermediateReasons, "dosimetry.final_reasons": dz.FinalReasons} {
			checkText(f, field, text, maxLong, true)
		}
	}
	needPrison := outcome == OutcomePrison || (outcome == OutcomeBan && rg.Cumulative)
	switch {
	case months == nil && needPrison:
		f.Add("prison_months", "required", fmt.Sprintf("informe a reclusão fixada na dosimetria, em meses (de %d a %d: %s da %s).", rg.PrisonMinMonths, rg.PrisonMaxMonths, rg.Offence, rg.Law))
	case months != nil:
		if msg := sanctions.CheckPrison(rg, *months); msg != "" {
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
func sentenceMovement(c Case, d Defendant, rec SentenceRecord, res *SentenceResult, rg sanctions.Range) (int, string) {
	name := d.FullName
	if d.Kind == "fan_group" {
		name = d.GroupName
	}
	switch rec.Outcome {
	case OutcomeAcquittal:
		if d.Kind == "fan_group" {
			return TPUAcquittal, fmt.Sprintf("Sentença: julgado improcedente o pedido contra a torcida %s (CPC, art. 487, I).", name)
		}
		return TPUAcquittal, fmt.Sprintf("Sentença: absolvido(a) %s (CPP, art. 386, %s: %s).", name, rec.AcquittalGround, AcquittalGrounds[rec.AcquittalGround])
	case OutcomePrison:
		text := fmt.Sprintf("Sentença: condenado(a) %s (%s da %s) à reclusão de %s", name, rec.Article, rec.Law, monthsText(*rec.PrisonMonths))
		if rec.FineDays != nil {
			text += fmt.Sprintf(" e %d dias-multa", *rec.FineDays)
		}
		return TPUConviction, text + ", sem conversão em impedimento: " + rec.NoConversionReason + "."
	}
	b := res.Ban
	text := fmt.Sprintf("Sentença: condenado(a) %s (%s da %s); ", name, rec.Article, rec.Law)
	switch {
	case rg.Cumulative:
		text += fmt.Sprintf("reclusão de %s e proibição de frequência a locais destinados a práticas esportivas por %s, cumulativa (%s da %s)", monthsText(*rec.PrisonMonths), termPT(*b), rg.Article, rg.Law)
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
	return TPUConviction, text + "."
}

// memberMovement records the members a group ban reaches and those the
// judge excluded (DOMAIN.md §2).
func (s *Service) memberMovement(ctx context.Context, c Case, p *banPlan, memberBans []sanctions.Ban, in SentenceInput, now time.Time) error {
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
		mt += fmt.Sprintf(". Excluídos pelo(a) juiz(a): associados %s", joinIDs(in.ExcludedMemberIDs))
		if r := strings.TrimSpace(in.ExclusionReason); r != "" {
			mt += ", por este motivo: " + r
		}
	}
	return db.Conn(ctx, s.DB).Create(&Movement{CaseID: c.ID, At: now, Description: mt + ".", AuthorRole: "judge", AuthorUserID: c.JudgeID}).Error
}

// Law and article of a precautionary ban (CPP art. 319, II).
const (
	lawCPP        = "Decreto-Lei 3.689/1941 (CPP)"
	articleCPP319 = "art. 319, II"
)

// planPrecautionary checks a precautionary ban for defendant d (CPP art.
// 319, II; allowed whatever the conditions of art. 201, §§ 2º and 6º): its
// first day (default today; not before the facts) and its review date
// (required and after the first day: Res. CNJ 417/2021, art. 19). Field
// errors go to f under prefix.
func (s *Service) planPrecautionary(f *errs.Fields, c Case, d Defendant, firstText, reviewText, prefix string) (*sanctions.Ban, error) {
	today := civil.Today(s.now(), s.Loc)
	first := today
	if firstText != "" {
		if fd, ok := parseDate(f, prefix+"first_day", firstText); ok {
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
	} else if rv, ok := parseDate(f, prefix+"review_on", reviewText); ok {
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
		Precautionary: true, FirstDay: &first, ReviewOn: review, Eligible: true, Status: sanctions.StatusActive, CreatedAt: s.now(), CreatedBy: c.JudgeID,
	}, nil
}

// precautionaryText is the docket entry of a precautionary ban: a
// precautionary decision (CPP art. 319, II), not a judgment.
func precautionaryText(d Defendant, b sanctions.Ban, untilFinal bool) string {
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
func (s *Service) precautionaryAlone(ctx context.Context, actor Actor, c Case, d Defendant, in SentenceInput) (*SentenceResult, error) {
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
	tx := db.Conn(ctx, s.DB)
	if err := tx.Create(b).Error; err != nil {
		return nil, err
	}
	now := s.now()
	if err := tx.Create(&Movement{CaseID: c.ID, At: now, AuthorRole: "judge", AuthorUserID: c.JudgeID, Description: precautionaryText(d, *b, false)}).Error; err != nil {
		return nil, err
	}
	if err := s.touch(ctx, &c, ""); err != nil {
		return nil, err
	}
	if err := s.refreshBlocklist(ctx, b.ID); err != nil {
		return nil, err
	}
	return &SentenceResult{Outcome: OutcomePrecautionary, PrecautionaryBan: b, MemberBans: []sanctions.Ban{}, Flags: Flags{Derived: []string{}}, Warnings: []string{}}, nil
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
func (s *Service) planBan(ctx context.Context, c Case, d Defendant, court Court, in SentenceInput, source sanctions.Source, rgp *sanctions.Range) (*banPlan, error) {
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
	var warnings []string
	warnings = append(warnings, rg.Notes...)
	if subject == sanctions.Person && in.Eligible == nil && !rg.Cumulative {
		// Lei 14.597/2023, art. 201, § 2º: the judge did not say whether the
		// conditions hold; the default (eligible) stays, with a warning
		// when the CPF was already convicted under the article.
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
	// A plea agreement's ban starts on the day fixed at the homologation
	// (Lei 14.597/2023, art. 201, § 5º), a TAC's on the day the TAC fixes.
	immediate := source == sanctions.FromPleaAgreement || source == sanctions.FromSettlement
	var first *civil.Date
	today := civil.Today(s.now(), s.Loc)
	if in.Ban.FirstDay == "" {
		if immediate {
			f.Add("ban.first_day", "required", "informe o primeiro dia do impedimento (AAAA-MM-DD).")
		}
	} else if d, ok := parseDate(&f, "ban.first_day", in.Ban.FirstDay); ok {
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
	ban := sanctions.Ban{
		CaseID: c.ID, DefendantID: d.ID, Subject: subject, CourtCode: c.CourtCode, CaseNumber: c.Number,
		CPF: d.CPF, BirthDate: d.BirthDate, GroupID: d.GroupID, FactsDate: c.FactsDate,
		Law: rg.Law, Article: rg.Article, RangeMinMonths: rg.MinMonths, RangeMaxMonths: rg.MaxMonths,
		Sec7Applied: rg.Sec7Applied, Sec7DoublesBan: rg.Sec7DoublesBan, Eligible: rg.Eligible, Organiser: rg.Organiser,
		Cumulative: rg.Cumulative, Status: sanctions.StatusAwaitingFinal, StartNotBefore: first, CreatedAt: s.now(),
		PrisonMonths: in.PrisonMonths,
	}
	if in.PrisonMonths != nil && sanctions.CheckPrison(rg, *in.PrisonMonths) != "" {
		ban.PrisonMonths = nil // reported by checkPrison
	}
	if !immediate && in.PrisonMonths == nil && in.Dosimetry == nil && rg.PrisonMaxMonths > 0 && !rg.Cumulative {
		warnings = append(warnings, fmt.Sprintf("A sentença converte a reclusão sem fixá-la (prison_months ou dosimetry): o %s converte a pena fixada na dosimetria (CP, arts. 59 e 68); sem ela, um descumprimento (%s) não terá quantum a converter.", sanctions.Cite(rg.Article, rg.Law), sanctions.ConversionRule(sanctions.Ban{Article: rg.Article})))
	}
	if in.PrisonMonths == nil && in.Dosimetry != nil && sanctions.CheckPrison(rg, in.Dosimetry.FinalMonths) == "" {
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
				return nil, err
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
	checkText(&f, "ban.override_reason", in.Ban.OverrideReason, maxLong, true)
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
			warnings = append(warnings, fmt.Sprintf("Último dia alterado pelo(a) juiz(a): %s (calculado: %s).", ov.BR(), computed.BR()))
		}
	}
	if w := PastBanWarning(ban.LastDay, today); w != "" && immediate {
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
	} else if subject == sanctions.Person && rg.Article != "art. 39" && !rg.Cumulative {
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
	return monthsText(*b.Months)
}
