package sanctions

import (
	"time"

	"github.com/juizado/juizado/internal/civil"
)

// Source is where a ban comes from (DOMAIN.md §2: "Every ban records its source").
type Source string

// Ban sources.
const (
	FromSentence              Source = "sentence"               // sentença (Lei 14.597/2023, art. 201, § 2º)
	FromPleaAgreement         Source = "plea_agreement"         // transação penal (Lei 9.099/1995, art. 76; LGE art. 201, § 5º)
	FromConditionalSuspension Source = "conditional_suspension" // Lei 9.099/1995, art. 89
	FromCivilJudgment         Source = "civil_judgment"         // group bans (LGE art. 183, § 2º; art. 184)
	FromSettlement            Source = "settlement"             // TAC
	FromPrecautionaryOrder    Source = "precautionary_order"    // medida cautelar (CPP art. 319, II)
)

// SourcePT names each Source in Portuguese with its legal basis, for
// documents and pages (the sentence's PDF, the statistics).
var SourcePT = map[Source]string{
	FromSentence:              "sentença condenatória",
	FromPleaAgreement:         "transação penal (Lei 9.099/1995, art. 76)",
	FromConditionalSuspension: "suspensão condicional do processo (Lei 9.099/1995, art. 89)",
	FromCivilJudgment:         "sentença em ação civil pública",
	FromSettlement:            "termo de ajustamento de conduta homologado",
	FromPrecautionaryOrder:    "medida cautelar (CPP, art. 319, II)",
}

// Ban is a stadium ban (impedimento de comparecimento) as stored: who, the
// rule applied (law, article, the range offered, the date of the facts that
// chose it), the term (first and last day, civil dates in the court's zone;
// no last day for a precautionary ban, in force until lifted), the §7 reading
// and the publication order.
type Ban struct {
	ID             int64       `json:"id"`
	CaseID         int64       `json:"case_id"`
	DefendantID    int64       `json:"defendant_id"`
	Subject        Subject     `json:"subject"`
	Source         Source      `json:"source"`
	CourtCode      string      `json:"court"`
	CaseNumber     string      `json:"-"` // 20 digits; formatted by the caller
	CPF            *string     `json:"cpf,omitempty"`
	Name           string      `json:"name"`
	BirthDate      *civil.Date `json:"birth_date,omitempty"`
	GroupID        *int64      `json:"group_id,omitempty"`
	GroupBanID     *int64      `json:"group_ban_id,omitempty"` // a member's ban: the group ban it extends (DOMAIN.md §2, §6)
	MemberID       *int64      `json:"member_id,omitempty"`    // a member's ban: the member of the group's register
	FactsDate      civil.Date  `json:"facts_date"`
	Law            string      `json:"law"`
	Article        string      `json:"article"`
	RangeMinMonths int         `json:"range_min_months"`
	RangeMaxMonths int         `json:"range_max_months"`
	Sec7Applied    bool        `json:"sec7_applied"`
	Sec7DoublesBan bool        `json:"sec7_doubles_ban"`
	Eligible       bool        `json:"eligible"`
	Organiser      bool        `json:"organiser"`
	Precautionary  bool        `json:"precautionary"`
	// FirstDay is nil while the ban awaits the final judgment
	// (StatusAwaitingFinal): it starts on the day the judgment became final,
	// or on StartNotBefore when the judge fixed a later day.
	FirstDay       *civil.Date `json:"first_day"`
	StartNotBefore *civil.Date `json:"start_not_before,omitempty"`
	// ReviewOn is a precautionary ban's review date (CPP art. 319, II; Res.
	// CNJ 417/2021, art. 19: no measure without one).
	ReviewOn *civil.Date `json:"review_on,omitempty"`
	// CreditDays is the time under a precautionary ban the judge credited
	// to the final ban (CP art. 42; a decision, never automatic), with its
	// reason; the last day is already reduced by it.
	CreditDays   *int   `json:"credit_days,omitempty"`
	CreditReason string `json:"credit_reason,omitempty"`
	// Cumulative: the fixed ban of Lei 7.716/1989, art. 20, § 2º-A, imposed
	// with the reclusão (not a conversion).
	Cumulative bool `json:"cumulative"`
	// Scope is where the ban applies: nil is anywhere (every statutory
	// ban); a precautionary measure, a suspension condition or a TAC may
	// name venues and clubs (CPP art. 319, II; Lei 9.099/1995, art. 89,
	// § 1º, II): a statutory ban (a sentence's conversion, a plea, a group
	// ban, Lei 7.716/1989) is "qualquer local em que se realize evento
	// esportivo", never narrowed; the inputs that take a scope are the
	// decisions' (cases/decisions: precautionary.go, plea.go, settlement.go).
	Scope *Scope `json:"scope"`
	// MatchTerm, for a term counted in matches, with MatchDays the days of
	// those matches in the imported schedule (the last is LastDay).
	MatchTerm            *MatchTerm  `json:"match_term,omitempty"`
	MatchDays            DayList     `json:"match_days,omitempty" gorm:"type:jsonb"`
	Months               *int        `json:"months"`
	ComputedLastDay      *civil.Date `json:"computed_last_day"`
	LastDay              *civil.Date `json:"last_day"`
	OverrideReason       string      `json:"override_reason,omitempty"`
	PrisonMonths         *int        `json:"prison_months,omitempty"`
	ReportingPlace       string      `json:"-"`
	ReportingClub        string      `json:"-"`
	ReportingCompetition string      `json:"-"`
	Publish              bool        `json:"publish"`
	Status               string      `json:"status"`
	CreatedAt            time.Time   `json:"created_at"`
	CreatedBy            *int64      `json:"-"`
	// LiftedOn and LiftReason: the decision that ended the ban before its
	// term (status lifted, replaced, converted or undone; migrations 00002,
	// 00017). Not in the ban's JSON: the case view shows them
	// (cases.BanView).
	LiftedOn   *civil.Date `json:"-"`
	LiftReason string      `json:"-"`
}

// Stored statuses of a ban (column bans.status).
const (
	// StatusActive: the ban runs its term (in force, not yet started or
	// ended by the calendar: see State).
	StatusActive = "active"
	// StatusAwaitingFinal: decided in a sentence or civil judgment, waiting
	// for the final judgment (Súmula 643 STJ; CF art. 5º, LVII).
	StatusAwaitingFinal = "awaiting_final"
	// StatusLifted: a precautionary ban lifted (CPP art. 282, § 5º).
	StatusLifted = "lifted"
	// StatusReplaced: a precautionary ban replaced by the final ban.
	StatusReplaced = "replaced"
	// StatusReformed, StatusAnnulled: the Turma Recursal reformed or
	// annulled the sentence before the ban started (Lei 9.099/1995, art. 82).
	StatusReformed = "reformed"
	StatusAnnulled = "annulled"
	// StatusConverted: converted to prison after a breach (Lei 14.597/2023,
	// art. 201, § 3º; Lei 10.671/2003, art. 41-B, § 3º).
	StatusConverted = "converted"
	// StatusUndone: a plea-agreement ban whose agreement was undone after
	// a breach (Súmula Vinculante 35).
	StatusUndone = "undone"
	// StatusContested: a member's ban ended at once because the judge
	// granted the contest of his inclusion in the group ban (not a member
	// on the date of the facts, under 18 then, a homonym: Lei 14.597/2023,
	// art. 183, § 2º; CF art. 5º, XLV; issue 29).
	StatusContested = "contested"
)

// States of a ban as the API shows them (Ban.State).
const (
	StateAwaitingFinal = "awaiting_final"
	StateNotStarted    = "not_started"
	StateInForce       = "in_force"
	StateEnded         = "ended"
)

// StatePT names each state in Portuguese, for pages and documents (one
// spelling everywhere).
var StatePT = map[string]string{
	StateAwaitingFinal: "aguardando trânsito em julgado", StateNotStarted: "a iniciar", StateInForce: "em cumprimento",
	StateEnded: "cumprido", StatusLifted: "revogado", StatusReplaced: "substituído pelo impedimento definitivo",
	StatusReformed: "reformado em recurso", StatusAnnulled: "anulado em recurso", StatusConverted: "convertido em pena privativa de liberdade",
	StatusUndone: "desfeito (transação penal descumprida)", StatusContested: "encerrado por impugnação da inclusão acolhida",
}

// State says where the ban stands on day (a civil date in the court's
// zone): awaiting_final, not_started, in_force, ended (DOMAIN.md §3: from
// the first instant of the first day to the end of the last), or the
// stored status of a ban that no longer runs (lifted, replaced, reformed,
// annulled, converted, undone). The calendar part is the in-force rule of
// inforce.go (runs, started, not ended), the one also spelled in SQL.
func (b Ban) State(day civil.Date) string {
	switch {
	case b.Status == StatusAwaitingFinal:
		return StateAwaitingFinal
	case !inForceRuns.holds(b, day):
		return b.Status
	case !inForceStarted.holds(b, day):
		return StateNotStarted
	case !inForceNotEnded.holds(b, day):
		return StateEnded
	}
	return StateInForce
}
