package registry

import (
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
)

// Member is an entry of a group's register with the ten fields of LGE art.
// 178 § 4º: full name; photo (member_photos); filiação (mother; father, nil
// when unknown); RG with issuer; CPF; birth date; civil status; profession;
// full address; schooling. Joins and leaves are in member_periods.
type Member struct {
	ID          int64
	GroupID     int64
	FullName    string
	MotherName  string
	FatherName  *string
	RG          string `gorm:"column:rg"`
	RGIssuer    string `gorm:"column:rg_issuer"`
	CPF         string `gorm:"column:cpf"`
	BirthDate   civil.Date
	CivilStatus string
	Profession  string
	Address     string
	Schooling   string
	PhotoID     *int64
	PhotoName   string
	CreatedAt   time.Time
	UpdatedAt   time.Time

	photoSum []byte // SHA-256 of the current photo, when loaded
}

// TableName maps Member to members.
func (Member) TableName() string { return "members" }

// Period is one membership period: joined on, left on (nil while a member).
type Period struct {
	ID       int64       `json:"-"`
	MemberID int64       `json:"-"`
	GroupID  int64       `json:"-"`
	CPF      string      `gorm:"column:cpf" json:"-"`
	JoinedOn civil.Date  `json:"joined_on"`
	LeftOn   *civil.Date `json:"left_on"`
}

// TableName maps Period to member_periods.
func (Period) TableName() string { return "member_periods" }

// Photo is a stored member photo, re-encoded without metadata.
type Photo struct {
	ID          int64
	MemberID    int64
	ContentType string
	Data        []byte
	SHA256      []byte `gorm:"column:sha256"`
	Width       int
	Height      int
	CreatedAt   time.Time
}

// TableName maps Photo to member_photos.
func (Photo) TableName() string { return "member_photos" }

type historyRow struct {
	ID       int64
	MemberID int64
	At       time.Time
	UserID   *int64
	Action   string
	Before   *string `gorm:"type:jsonb"`
}

func (historyRow) TableName() string { return "member_history" }

// MemberData are the register's fields of one member, validated.
type MemberData struct {
	FullName    string
	MotherName  string
	FatherName  *string // nil: father unknown
	RG          string
	RGIssuer    string
	CPF         CPF
	BirthDate   civil.Date
	CivilStatus string
	Profession  string
	Address     string
	Schooling   string
}

func (m *Member) data() MemberData {
	return MemberData{FullName: m.FullName, MotherName: m.MotherName, FatherName: m.FatherName, RG: m.RG, RGIssuer: m.RGIssuer,
		CPF: CPF(m.CPF), BirthDate: m.BirthDate, CivilStatus: m.CivilStatus, Profession: m.Profession, Address: m.Address, Schooling: m.Schooling}
}

func (m *Member) set(d MemberData) {
	m.FullName, m.MotherName, m.FatherName, m.RG, m.RGIssuer = d.FullName, d.MotherName, d.FatherName, d.RG, d.RGIssuer
	m.CPF, m.BirthDate, m.CivilStatus, m.Profession, m.Address, m.Schooling = string(d.CPF), d.BirthDate, d.CivilStatus, d.Profession, d.Address, d.Schooling
}

func (d MemberData) equal(o MemberData) bool {
	fa, fb := "", ""
	if d.FatherName != nil {
		fa = *d.FatherName
	}
	if o.FatherName != nil {
		fb = *o.FatherName
	}
	d.FatherName, o.FatherName = nil, nil
	return fa == fb && d == o
}

// MemberInput is the body of POST /api/v1/groups/{id}/members and, with
// every field optional, of PATCH /api/v1/members/{id} (an absent or null
// field is kept; father_name "" records an unknown father). Dates
// YYYY-MM-DD (dd/mm/aaaa is also read); CPF with or without punctuation.
type MemberInput struct {
	FullName    *string `json:"full_name"`
	MotherName  *string `json:"mother_name"`
	FatherName  *string `json:"father_name"`
	RG          *string `json:"rg"`
	RGIssuer    *string `json:"rg_issuer"`
	CPF         *string `json:"cpf"`
	BirthDate   *string `json:"birth_date"`
	CivilStatus *string `json:"civil_status"`
	Profession  *string `json:"profession"`
	Address     *string `json:"address"`
	Schooling   *string `json:"schooling"`
	JoinedOn    *string `json:"joined_on"` // POST only; default: today in the court's zone
}

// DateInput is the body of POST /api/v1/members/{id}/leave (left_on) and
// /rejoin (joined_on); default today in the court's zone.
type DateInput struct {
	LeftOn   string `json:"left_on"`
	JoinedOn string `json:"joined_on"`
}

// PhotoInfo describes a member's stored photo.
type PhotoInfo struct {
	ContentType string `json:"content_type"`
	SHA256      string `json:"sha256"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Name        string `json:"name,omitempty"`
	URL         string `json:"url"`
}

// MemberView is a member as the API shows it. joined_on and left_on are the
// latest period's; periods is the whole history.
type MemberView struct {
	ID            int64       `json:"id"`
	GroupID       int64       `json:"group_id"`
	FullName      string      `json:"full_name"`
	CPF           string      `json:"cpf"`
	JoinedOn      civil.Date  `json:"joined_on"`
	LeftOn        *civil.Date `json:"left_on"`
	Active        bool        `json:"active"`
	MotherName    string      `json:"mother_name"`
	FatherName    *string     `json:"father_name"`
	FatherUnknown bool        `json:"father_unknown"`
	RG            string      `json:"rg"`
	RGIssuer      string      `json:"rg_issuer"`
	BirthDate     civil.Date  `json:"birth_date"`
	CivilStatus   string      `json:"civil_status"`
	Profession    string      `json:"profession"`
	Address       string      `json:"address"`
	Schooling     string      `json:"schooling"`
	Photo         *PhotoInfo  `json:"photo"`
	Incomplete    bool        `json:"incomplete"`
	Missing       []string    `json:"missing"`
	Periods       []Period    `json:"periods"`
	CreatedAt     time.Time   `json:"created_at"`
	UpdatedAt     time.Time   `json:"updated_at"`
}

// Limits of the register's text fields, in characters.
const (
	maxMemberName = 200
	maxAddress    = 500
)

// memberFields are the register's fields in order, with their JSON names.
var memberFields = []string{"full_name", "mother_name", "father_name", "rg", "rg_issuer", "cpf", "birth_date", "civil_status", "profession", "address", "schooling"}

// fieldProblem is a problem with one field of a member (key from
// memberFields): the rule it breaks (the errs field rule) and the message.
type fieldProblem struct{ key, rule, msg string }

// rawMember holds the fields as text, by key.
type rawMember map[string]string

// validateMember checks the fields of a member against the rules of the
// register. excel: the text came from a spreadsheet, so a CPF that lost its
// leading zeros is restored when the padded number passes the check digits
// (with a warning).
func validateMember(raw rawMember, today civil.Date, excel bool) (MemberData, []fieldProblem, []string) {
	var d MemberData
	var probs []fieldProblem
	var warns []string
	text := func(key string, max int, required bool) string {
		v := textcheck.Line(raw[key])
		if required && v == "" {
			probs = append(probs, fieldProblem{key, "required", "campo obrigatório (Lei 14.597/2023, art. 178, § 4º) não preenchido."})
			return ""
		}
		if rule, msg := textcheck.Problem(v, max, false); rule != "" {
			probs = append(probs, fieldProblem{key, rule, msg})
		}
		return v
	}
	d.FullName = text("full_name", maxMemberName, true)
	d.MotherName = text("mother_name", maxMemberName, true)
	if f := text("father_name", maxMemberName, false); f != "" && !unknownFather(f) {
		d.FatherName = &f
	}
	d.RG = text("rg", 30, true)
	d.RGIssuer = text("rg_issuer", 50, true)
	d.CivilStatus = text("civil_status", 50, true)
	d.Profession = text("profession", 100, true)
	d.Address = text("address", maxAddress, true)
	d.Schooling = text("schooling", 100, true)
	if c := strings.TrimSpace(raw["cpf"]); c == "" {
		probs = append(probs, fieldProblem{"cpf", "required", "CPF não informado."})
	} else if cpf, err := ParseCPF(c); err == nil {
		d.CPF = cpf
	} else if excel && allDigits(c) && len(c) < 11 {
		cpf, _, rerr := RestoreCPFLeadingZeros(c)
		if rerr != nil {
			probs = append(probs, fieldProblem{"cpf", "cpf", fmt.Sprintf("CPF %s inválido: %s.", c, rerr.Error())})
		} else {
			d.CPF = cpf
			warns = append(warns, fmt.Sprintf("CPF %s sem os zeros à esquerda (planilha os removeu): recomposto como %s, que confere com os dígitos verificadores.", c, cpf.Formatted()))
		}
	} else {
		probs = append(probs, fieldProblem{"cpf", "cpf", fmt.Sprintf("CPF %s inválido: %s.", c, err.Error())})
	}
	if b := strings.TrimSpace(raw["birth_date"]); b == "" {
		probs = append(probs, fieldProblem{"birth_date", "required", "data de nascimento não informada."})
	} else if bd, err := civil.ParseBR(b); err != nil {
		probs = append(probs, fieldProblem{"birth_date", "date", err.Error()})
	} else if bd.After(today) {
		probs = append(probs, fieldProblem{"birth_date", "range", fmt.Sprintf("data de nascimento %s no futuro.", bd.BR())})
	} else if bd.Year < 1900 {
		probs = append(probs, fieldProblem{"birth_date", "range", fmt.Sprintf("data de nascimento %s anterior a 1900.", bd.BR())})
	} else {
		d.BirthDate = bd
	}
	return d, probs, warns
}

// unknownFather reads the usual ways of writing "father unknown".
func unknownFather(s string) bool {
	switch textcheck.FoldAccents(strings.TrimSpace(s)) {
	case "desconhecido", "pai desconhecido", "nao declarado", "nao consta", "ignorado", "-", "--", "n/c", "nc", "nd", "n/d":
		return true
	}
	return false
}

// periodDate reads an optional join or leave date: today when empty.
func periodDate(s string, today civil.Date) (civil.Date, string) {
	if strings.TrimSpace(s) == "" {
		return today, ""
	}
	d, err := civil.ParseBR(s)
	if err != nil {
		return d, err.Error()
	}
	if d.After(today) {
		return d, fmt.Sprintf("a data %s está no futuro.", d.BR())
	}
	return d, ""
}

func fieldsErr(probs []fieldProblem) error {
	var f errs.Fields
	for _, p := range probs {
		f.Add(p.key, p.rule, p.msg)
	}
	return f.Err()
}

func memberNotFound(id int64) error {
	return errs.New(errs.NotFound, fmt.Sprintf("Associado %d não encontrado.", id))
}
