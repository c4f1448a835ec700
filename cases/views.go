package cases

import (
	"github.com/juizado/juizado/internal/civil"
)

// JudgeView names the judge a case is distributed to: Name is the judge's
// full name (the account name when none was given) and Title the office
// signed under it ("Juíza de Direito"; omitted when not given, migration
// 00280).
type JudgeView struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
}

// DefendantView is a party: person fields or fan-group fields by kind.
type DefendantView struct {
	ID            int64       `json:"id"`
	Kind          string      `json:"kind"`
	FullName      string      `json:"full_name,omitempty"`
	CPF           *string     `json:"cpf,omitempty"`
	BirthDate     *civil.Date `json:"birth_date,omitempty"`
	MotherName    string      `json:"mother_name,omitempty"`
	FatherName    string      `json:"father_name,omitempty"`
	Name          string      `json:"name,omitempty"`
	CNPJ          *string     `json:"cnpj,omitempty"`
	SupportedClub string      `json:"supported_club,omitempty"`
	GroupID       *int64      `json:"group_id,omitempty"`
	// AwaitingIdentification: a person without CPF never reaches the blocklist.
	AwaitingIdentification bool `json:"awaiting_identification,omitempty"`
	// Status is the defendant's own procedural status (DOMAIN.md §4, each
	// defendant's track; the case's status words), FinalOn the day his
	// judgment became final, SeparatedOn the day his proceedings were
	// separated (CPP art. 80), Next the steps his track allows.
	Status      string       `json:"status"`
	FinalOn     *civil.Date  `json:"final_on"`
	SeparatedOn *civil.Date  `json:"separated_on,omitempty"`
	Next        []Transition `json:"next,omitempty"`
	// Restricted: another defendant's personal data, hidden from the
	// defence that does not represent him (issue 29): only ID, Kind and
	// his track are shown.
	Restricted bool `json:"restricted,omitempty"`
	// Counsel: the defence linked to him now (lawyer or Defensoria
	// Pública; cases.CounselRecord).
	Counsel []CounselView `json:"counsel,omitempty"`
}
