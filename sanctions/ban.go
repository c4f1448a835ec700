package sanctions

import (
	"context"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"gorm.io/gorm"
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

// Ban is a stadium ban (impedimento de comparecimento) as stored: who, the
// rule applied (law, article, the range offered, the date of the facts that
// chose it), the term (first and last day, civil dates in the court's zone;
// no last day for a precautionary ban, in force until lifted), the §7 reading
// and the publication order.
type Ban struct {
	ID                   int64       `json:"id"`
	CaseID               int64       `json:"case_id"`
	DefendantID          int64       `json:"defendant_id"`
	Subject              Subject     `json:"subject"`
	Source               Source      `json:"source"`
	CourtCode            string      `json:"court"`
	CaseNumber           string      `json:"-"` // 20 digits; formatted by the caller
	CPF                  *string     `json:"cpf,omitempty"`
	Name                 string      `json:"name"`
	BirthDate            *civil.Date `json:"birth_date,omitempty"`
	GroupID              *int64      `json:"group_id,omitempty"`
	GroupBanID           *int64      `json:"group_ban_id,omitempty"` // a member's ban: the group ban it extends (DOMAIN.md §2, §6)
	MemberID             *int64      `json:"member_id,omitempty"`    // a member's ban: the member of the group's register
	FactsDate            civil.Date  `json:"facts_date"`
	Law                  string      `json:"law"`
	Article              string      `json:"article"`
	RangeMinMonths       int         `json:"range_min_months"`
	RangeMaxMonths       int         `json:"range_max_months"`
	Sec7Applied          bool        `json:"sec7_applied"`
	Sec7DoublesBan       bool        `json:"sec7_doubles_ban"`
	Eligible             bool        `json:"eligible"`
	Organiser            bool        `json:"organiser"`
	Precautionary        bool        `json:"precautionary"`
	FirstDay             civil.Date  `json:"first_day"`
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
}

// InForce reports whether the ban is in force on day (a civil date in the
// court's zone): from the first day to the last day inclusive, or from the
// first day on while a precautionary ban is not lifted.
func (b Ban) InForce(day civil.Date) bool {
	if b.Status != "active" || day.Before(b.FirstDay) {
		return false
	}
	return b.LastDay == nil || !day.After(*b.LastDay)
}

// InForceOn returns the bans in force on day, ordered by id; where narrows
// the query (nil for all). g is the connection or transaction to read from.
func InForceOn(ctx context.Context, g *gorm.DB, day civil.Date, where func(*gorm.DB) *gorm.DB) ([]Ban, error) {
	q := g.WithContext(ctx).Model(&Ban{}).
		Where("status = 'active' AND first_day <= ? AND (last_day IS NULL OR last_day >= ?)", day, day)
	if where != nil {
		q = where(q)
	}
	var out []Ban
	err := q.Order("id").Find(&out).Error
	return out, err
}
