package decisions

import (
	"encoding/json"
	"time"

	"github.com/juizado/juizado/cases"
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
	Scope             *ScopeInput          `json:"scope"`
	Text              *SentenceText        `json:"text"`
	Dosimetry         *Dosimetry           `json:"dosimetry"`
	ReportingDuty     *cases.ReportingDuty `json:"reporting_duty"`
	Publish           *bool                `json:"publish"`
	MemberIDs         []int64              `json:"member_ids"`
	ExcludedMemberIDs []int64              `json:"excluded_member_ids"`
	ExclusionReason   string               `json:"exclusion_reason"` // required with excluded_member_ids; recorded in the docket
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
//
// With Causes, the third phase is computed (sanctions.DosimetryThirdPhase):
// each cause of decrease or increase (CP art. 14, II attempt; art. 71
// continued offence; ...) applies its fraction, with its article, to the
// intermediate penalty (IntermediateMonths and IntermediateDays), and the
// final penalty (FinalMonths and FinalDays, stated or computed) may fall
// below the offence's minimum or above its maximum (CP art. 68; Súmula 231
// STJ binds the second phase only). ThirdPhase is the computed trail
// (output only; recomputed on every signature).
type Dosimetry struct {
	BaseMonths          int    `json:"base_months"`
	BaseReasons         string `json:"base_reasons"`
	IntermediateMonths  int    `json:"intermediate_months"`
	IntermediateDays    int    `json:"intermediate_days,omitempty"`
	IntermediateReasons string `json:"intermediate_reasons"`
	// Causes of the third phase, in the order the sentence applies them
	// (at most sanctions.MaxCauses).
	Causes       []CauseInput          `json:"causes,omitempty"`
	FinalMonths  int                   `json:"final_months"`
	FinalDays    int                   `json:"final_days,omitempty"`
	FinalReasons string                `json:"final_reasons"`
	ThirdPhase   *sanctions.ThirdPhase `json:"third_phase,omitempty"`
}

// CauseInput is a cause of decrease or increase of the third phase (CP
// art. 68): kind "decrease" or "increase", the fraction the judge applies
// ("1/3", or {"num": 1, "den": 3}) and the article that provides it ("CP,
// art. 14, II"). A fraction that is neither, or outside the article's
// legal range, is errs.Invalid on dosimetry.causes[i].fraction.
type CauseInput struct {
	Kind     string          `json:"kind"`
	Fraction json.RawMessage `json:"fraction"`
	Article  string          `json:"article"`
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
	// court's imported schedule; only where a scope is allowed (a
	// precautionary measure, CPP art. 319, II: sanctions.Ban.Scope).
	Matches         *int   `json:"matches"`
	Club            string `json:"club"`
	HomeOnly        *bool  `json:"home_only"`
	LastDayOverride string `json:"last_day_override"`
	OverrideReason  string `json:"override_reason"`
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
	ID           int64           `json:"id"`
	CaseID       int64           `json:"case_id"`
	DefendantID  int64           `json:"defendant_id"`
	Status       string          `json:"status"` // draft, signed, reformed, annulled
	Outcome      string          `json:"outcome"`
	Input        json.RawMessage `json:"-" gorm:"type:jsonb"`
	Law          string          `json:"law"`
	Article      string          `json:"article"`
	PrisonMonths *int            `json:"prison_months"`
	// PrisonDays: the days beyond PrisonMonths (1 to 29) left by the
	// dosimetry's third phase (CP art. 68); nil for none.
	PrisonDays         *int            `json:"prison_days,omitempty"`
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
	Months int `json:"months"`
	// Days beyond Months (1 to 29) a third phase of the dosimetry left
	// (CP art. 68; months of 30 days); omitted when none.
	Days     int  `json:"days,omitempty"`
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
