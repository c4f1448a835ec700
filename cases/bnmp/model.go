package bnmp

import (
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// Kind is a mandate's kind as BNMP names it (../shared/API.md).
type Kind string

// Kinds of mandate (Res. CNJ 417/2021, arts. 18, 20 and 2º, VIII).
const (
	// KindPrecautionary: the precautionary measure (CPP art. 319, II; CPC
	// art. 300), issued when imposed (art. 18).
	KindPrecautionary Kind = "cautelar"
	// KindExecution: the ban of a sentence, plea agreement, suspension,
	// civil judgment or settlement, from its first day (art. 18).
	KindExecution Kind = "execucao"
	// KindChange: a change or correction of a mandate's content (art. 20).
	KindChange Kind = "alteracao"
	// KindRenewal: a renewal of a precautionary measure, an extension, or
	// the next 12-month period of a longer ban (art. 20).
	KindRenewal Kind = "prorrogacao"
	// KindRevocation: the measure ends before its term — lifted, replaced
	// by the final ban, converted, undone, reformed or annulled (art. 2º,
	// VIII).
	KindRevocation Kind = "revogacao"
)

// KindPT names each kind in Portuguese.
var KindPT = map[Kind]string{
	KindPrecautionary: "Medida cautelar",
	KindExecution:     "Execução do impedimento",
	KindChange:        "Alteração",
	KindRenewal:       "Prorrogação",
	KindRevocation:    "Revogação",
}

// Statuses of a mandate in the queue (GET /api/v1/bnmp/mandates?status=).
const (
	// StatusPending: to register in BNMP.
	StatusPending = "pending"
	// StatusRegistered: the clerk recorded its BNMP number and date.
	StatusRegistered = "registered"
	// StatusAwaitingIdentification: the person has no CPF yet; the mandate
	// waits, as the blocklist's awaiting identification (art. 19, I).
	StatusAwaitingIdentification = "awaiting_identification"
	// StatusSuperseded: never registered, and a later mandate of the same
	// ban and period replaced it before it was.
	StatusSuperseded = "superseded"
	// StatusDue is the filter of the mandates with an alert (art. 25) or
	// a lapsed measure (art. 21); not a stored status.
	StatusDue = "due"
)

// StatusPT names each status in Portuguese.
var StatusPT = map[string]string{
	StatusPending:                "a registrar",
	StatusRegistered:             "registrado",
	StatusAwaitingIdentification: "aguardando identificação (sem CPF)",
	StatusSuperseded:             "substituído antes do registro",
}

// MaxMonths is the longest a mandate runs: 12 months, renewed while the
// ban lasts (Res. CNJ 417/2021, art. 19, as amended by Res. CNJ 577/2024).
const MaxMonths = 12

// AlertDays is how many days before each review date and mandate end the
// queue alerts (Res. CNJ 417/2021, art. 25).
const AlertDays = 10

// Content is what a mandate says (Res. CNJ 417/2021, art. 19), kept as
// issued (column content, jsonb): the person, the case, the conditions
// (where the ban applies, the match days, the reporting duty), the legal
// basis in force at the date of the facts, the extent and the ban's own
// term. Dates are court dates (America/Sao_Paulo).
type Content struct {
	Name          string      `json:"name"`
	BirthDate     *civil.Date `json:"birth_date,omitempty"`
	CaseNumber    string      `json:"case_number"` // NNNNNNN-DD.AAAA.J.TR.OOOO
	Court         string      `json:"court"`
	Precautionary bool        `json:"precautionary"`
	// Measure is the measure in Portuguese (the ban of Lei 14.597/2023,
	// art. 201, or Lei 10.671/2003, art. 41-B; the cautelar of CPP art.
	// 319, II).
	Measure string `json:"measure"`
	// LegalBasis is the law and article of the ban, chosen by the date
	// of the facts (FactsDate).
	LegalBasis string     `json:"legal_basis"`
	FactsDate  civil.Date `json:"facts_date"`
	// Extent is where the ban applies (sanctions.ScopePT), MatchDays the
	// match days of a term counted in matches.
	Extent    string            `json:"extent"`
	MatchDays sanctions.DayList `json:"match_days,omitempty"`
	// Reporting is the duty to report during the matches (Lei
	// 14.597/2023, art. 201, § 4º), "" for none.
	Reporting string `json:"reporting,omitempty"`
	// BanFirstDay and BanLastDay are the ban's whole term (BanLastDay nil:
	// until lifted, with its review date); BanMonths its months.
	BanFirstDay civil.Date  `json:"ban_first_day"`
	BanLastDay  *civil.Date `json:"ban_last_day,omitempty"`
	BanMonths   *int        `json:"ban_months,omitempty"`
	// Revocation: the decision that ends the measure (date and reason).
	Revocation string `json:"revocation,omitempty"`
}

// Mandate is a stored mandate (table bnmp_mandates, migration 00230).
type Mandate struct {
	ID         int64       `json:"id"`
	CourtCode  string      `json:"court"`
	BanID      int64       `json:"ban_id"`
	CaseID     int64       `json:"case_id"`
	Kind       Kind        `json:"kind"`
	Period     int         `json:"period"`
	ValidFrom  civil.Date  `json:"valid_from"`
	ValidUntil *civil.Date `json:"valid_until"`
	ReviewOn   *civil.Date `json:"review_on"`
	CPF        *string     `json:"cpf,omitempty"`
	Name       string      `json:"name"`
	Content    Content     `json:"content" gorm:"serializer:json;type:jsonb"`
	// Fingerprint keys the content of a mandate of a ban and period
	// (idempotent reconciliation).
	Fingerprint  string      `json:"-"`
	CreatedAt    time.Time   `json:"created_at"`
	BNMPNumber   *string     `json:"bnmp_number,omitempty" gorm:"column:bnmp_number"`
	RegisteredOn *civil.Date `json:"registered_on,omitempty"`
	RegisteredAt *time.Time  `json:"registered_at,omitempty"`
	RegisteredBy *int64      `json:"-"`
}

// TableName is bnmp_mandates.
func (Mandate) TableName() string { return "bnmp_mandates" }
