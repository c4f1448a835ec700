package cases

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"

	"github.com/juizado/juizado/internal/civil"
)

// Case statuses (DOMAIN.md §4, JECRIM flow under Lei 9.099/1995; §2, the
// civil flow of group cases). The transitions between them are data
// (CriminalFlow, CivilFlow in workflow.go).
const (
	StatusFiled                 = "filed"
	StatusDistributed           = "distributed"
	StatusPreliminaryHearing    = "preliminary_hearing"
	StatusPleaOffered           = "plea_offered"
	StatusPleaAccepted          = "plea_accepted"
	StatusPleaRefused           = "plea_refused"
	StatusConditionalSuspension = "conditional_suspension"
	StatusAccusation            = "accusation"
	StatusInstructionHearing    = "instruction_hearing"
	StatusSentenced             = "sentenced"
	StatusAppeal                = "appeal"
	StatusFinal                 = "final"
	StatusExecuting             = "executing"
	StatusArchived              = "archived"
	StatusHearing               = "hearing"    // civil: settlement attempt
	StatusJudgment              = "judgment"   // civil: judgment of the ação civil pública
	StatusSettlement            = "settlement" // civil: homologated TAC
	// StatusRejected is a defendant's track ended by the rejection of the
	// accusation (Lei 9.099/1995, art. 81; CPP art. 395).
	StatusRejected = "rejected"
	// StatusExtinct is a defendant's track ended by the extinction of
	// punishability (CP art. 107; Lei 9.099/1995, art. 89, § 5º).
	StatusExtinct = "extinct"
)

// Statuses lists the statuses a case can be in.
var Statuses = []string{StatusFiled, StatusDistributed, StatusPreliminaryHearing, StatusPleaOffered, StatusPleaAccepted,
	StatusPleaRefused, StatusConditionalSuspension, StatusAccusation, StatusInstructionHearing, StatusSentenced,
	StatusAppeal, StatusFinal, StatusExecuting, StatusArchived, StatusHearing, StatusJudgment, StatusSettlement,
	StatusRejected, StatusExtinct}

// StatusPT names each status in Portuguese, for the docket and documents.
var StatusPT = map[string]string{
	StatusFiled: "autuado", StatusDistributed: "distribuído", StatusPreliminaryHearing: "audiência preliminar",
	StatusPleaOffered: "transação penal proposta", StatusPleaAccepted: "transação penal aceita",
	StatusPleaRefused: "transação penal recusada", StatusConditionalSuspension: "suspensão condicional do processo",
	StatusAccusation: "denúncia oferecida", StatusInstructionHearing: "denúncia recebida (instrução e julgamento)",
	StatusSentenced: "sentenciado", StatusAppeal: "em recurso", StatusFinal: "transitado em julgado",
	StatusExecuting: "em execução", StatusArchived: "arquivado", StatusHearing: "audiência de conciliação",
	StatusJudgment: "julgado", StatusSettlement: "TAC homologado",
	StatusRejected: "denúncia rejeitada", StatusExtinct: "extinta a punibilidade",
	Separated: "separação do processo (CPP, art. 80)",
}

// Flows: JECRIM (persons) or civil (group cases, DOMAIN.md §2).
const (
	FlowCriminal = "criminal"
	FlowCivil    = "civil"
)

// StringList is a JSON array of strings stored in a jsonb column.
type StringList []string

// Value writes the list as a JSON array.
func (l StringList) Value() (driver.Value, error) {
	if l == nil {
		l = StringList{}
	}
	b, err := json.Marshal([]string(l))
	return string(b), err
}

// Scan reads a JSON array.
func (l *StringList) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case []byte:
		b = v
	case string:
		b = []byte(v)
	case nil:
		*l = nil
		return nil
	default:
		return fmt.Errorf("cases: cannot scan %T into StringList", src)
	}
	return json.Unmarshal(b, (*[]string)(l))
}

// Court is a court unit (juizado do torcedor / JECRIM; LGE art. 180), named
// by the TR.OOOO part of its CNJ numbers (Res. CNJ 65/2008).
type Court struct {
	Code           string `gorm:"primaryKey"`
	Name           string
	Sec7DoublesBan bool // default reading of Lei 14.597/2023, art. 201, § 7º
	PublishDefault bool // publish individual sentence bans by default (DOMAIN.md §6)
	CreatedAt      time.Time

	// DefensoriaDoublesJECRIM is the court's reading of the Defensoria
	// Pública's doubled windows in the JECRIM (LC 80/1994, arts. 44, I, 89,
	// I, and 128, I): true (the default) doubles; false follows the Turmas
	// Recursais that deny it (DOMAIN.md §4). Civil windows are always
	// doubled (CPC art. 186).
	DefensoriaDoublesJECRIM bool `gorm:"column:defensoria_doubles_jecrim"`

	// UnitCode and UnitName are the court's judging unit as the CNJ knows
	// it (código and nome do órgão julgador; Res. CNJ 331/2020, DataJud's
	// orgaoJulgador); IBGEMunicipality is the IBGE code (7 digits) of its
	// municipality (codigoMunicipioIBGE). Nil / "" until the admin sets
	// them (SetCourtDataJud).
	UnitCode         *int
	UnitName         string
	IBGEMunicipality *int `gorm:"column:ibge_municipality"`
}

// Venue is a sporting venue of the product's own table (seeded from
// venues.csv by migration 00001; admins add more).
type Venue struct {
	ID        int64
	Name      string
	City      string
	UF        string `gorm:"column:uf"`
	Latitude  float64
	Longitude float64
	Capacity  int
	// TimeZone is the IANA zone of the venue's local times (kick-offs of
	// the imported schedule); America/Sao_Paulo unless set.
	TimeZone string `gorm:"default:America/Sao_Paulo"`
}

// Case is one proceeding (processo) with its CNJ number, the filer, the
// judge it is distributed to, the event and the facts.
type Case struct {
	ID            int64
	Number        string // 20 digits; CNJNumber for the formatted form
	CourtCode     string
	Year          int
	Sequence      int
	Status        string
	JudgeID       *int64
	FilerUserID   int64
	FilerRole     string
	FiledByKind   string
	FiledByName   string
	Ref           string
	Competition   string
	HomeTeam      string
	AwayTeam      string
	VenueID       *int64
	Kickoff       *time.Time
	OccurredAt    time.Time
	FactsDate     civil.Date
	Latitude      *float64
	Longitude     *float64
	Conduct       StringList
	PoliceReports StringList
	Description   string
	FiledAt       time.Time
	// DistanceToVenueM is the great-circle distance in whole metres from
	// the facts' coordinates to the venue's (sanctions.DistanceMeters); nil
	// without coordinates or venue. PlaceRelation is sanctions.PlaceOf of
	// it (Lei 14.597/2023, art. 201, § 1º, I); OnRoute is the filer's
	// statement that the facts happened on the way to or from the venue.
	DistanceToVenueM *int    `gorm:"column:distance_to_venue_m"`
	PlaceRelation    *string `gorm:"column:place_relation"`
	OnRoute          bool
	// Version grows with every change of the case (status, docket,
	// hearings, evidence...): the ETag "v{version}" and If-Match.
	Version int `gorm:"default:1"`
	// Flow is FlowCriminal or FlowCivil (every defendant a fan group).
	Flow string `gorm:"default:criminal"`
	// LinkedCaseID is the other case of a mixed representation (DOMAIN.md
	// §4): the civil case of the groups for the criminal case of the
	// persons, and back.
	LinkedCaseID *int64
	// ClassCode and SubjectCodes are the case's TPU class and subjects
	// (Res. CNJ 46/2007): Classify at filing, Reclassify by the clerk.
	ClassCode    *int
	SubjectCodes IntList
	// SecrecyLevel is the case's nivelSigilo of the MNI/MTD (Res. CNJ
	// 331/2020): 0 public (every case this court files), 1 segredo de
	// justiça, 2 to 5 sigilo mínimo to absoluto.
	SecrecyLevel int `gorm:"->"`
}

// Defendant is a party accused in a case: a person (fan) or an organised
// fan group (torcida organizada).
type Defendant struct {
	ID            int64
	CaseID        int64
	Position      int
	Kind          string // "person" or "fan_group"
	FullName      string
	CPF           *string `gorm:"column:cpf"`
	BirthDate     *civil.Date
	MotherName    string
	FatherName    string
	Address       string
	GroupName     string
	CNPJ          *string `gorm:"column:cnpj"`
	SupportedClub string
	GroupID       *int64
	// Status is the defendant's own procedural status (DOMAIN.md §4, "each
	// defendant has his own track"), in the case's status words; "" (NULL)
	// while it is the case's status (TrackOf). Written by Core.SetTrack
	// only.
	Status string `gorm:"column:status;->"`
	// FinalOn is the day his judgment became final (trânsito em julgado
	// per defendant); nil before.
	FinalOn *civil.Date `gorm:"column:final_on;->"`
	// SeparatedOn is the day the judge separated his proceedings (CPP art.
	// 80); nil while they run together.
	SeparatedOn *civil.Date `gorm:"column:separated_on;->"`
}

// Movement is a docket entry (movimentação) with the CNJ TPU code where one
// exists.
type Movement struct {
	ID           int64
	CaseID       int64
	At           time.Time
	TPUCode      *int `gorm:"column:tpu_code"`
	Kind         MovementKind
	Complements  Complements
	Description  string
	AuthorUserID *int64
	AuthorRole   string
}
