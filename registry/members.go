package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
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

// AddMember adds a member to group groupID's register (its managers only:
// errs.NotFound for anyone else). errs.Invalid for a bad field; errs.Conflict
// when the CPF is already in this register (a former member rejoins through
// Rejoin, keeping one history).
func (s *Groups) AddMember(ctx context.Context, a actor.Actor, groupID int64, in MemberInput) (*MemberView, error) {
	var id int64
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		if _, err := s.writable(ctx, a, groupID); err != nil {
			return err
		}
		today := s.today()
		raw := rawMember{}
		in.each(func(k string, v *string) {
			if v != nil {
				raw[k] = *v
			}
		})
		d, probs, _ := validateMember(raw, today, false)
		var joined civil.Date
		if in.JoinedOn != nil {
			j, msg := periodDate(*in.JoinedOn, today)
			if msg != "" {
				probs = append(probs, fieldProblem{"joined_on", "date", msg})
			}
			joined = j
		} else {
			joined = today
		}
		if len(probs) == 0 && joined.Before(d.BirthDate) {
			probs = append(probs, fieldProblem{"joined_on", "after_birth", "a data de entrada é anterior ao nascimento."})
		}
		if err := fieldsErr(probs); err != nil {
			return err
		}
		var existing Member
		if err := db.Conn(ctx, s.DB).Where("group_id = ? AND cpf = ?", groupID, string(d.CPF)).Limit(1).Find(&existing).Error; err != nil {
			return err
		}
		if existing.ID != 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("O CPF %s já consta do cadastro desta torcida (associado %d); para um ex-associado que volta, use POST /api/v1/members/%d/rejoin.", d.CPF.Formatted(), existing.ID, existing.ID))
		}
		m, err := s.createMember(ctx, a, groupID, d, joined, nil, "")
		if err != nil {
			return err
		}
		id = m.ID
		return s.touch(ctx, groupID)
	})
	if db.IsUniqueViolation(err, "") {
		return nil, errs.New(errs.Conflict, "O CPF já consta do cadastro desta torcida.")
	}
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

func (in *MemberInput) each(fn func(key string, v *string)) {
	fn("full_name", in.FullName)
	fn("mother_name", in.MotherName)
	fn("father_name", in.FatherName)
	fn("rg", in.RG)
	fn("rg_issuer", in.RGIssuer)
	fn("cpf", in.CPF)
	fn("birth_date", in.BirthDate)
	fn("civil_status", in.CivilStatus)
	fn("profession", in.Profession)
	fn("address", in.Address)
	fn("schooling", in.Schooling)
}

func (s *Groups) createMember(ctx context.Context, a actor.Actor, groupID int64, d MemberData, joined civil.Date, left *civil.Date, photoName string) (*Member, error) {
	tx := db.Conn(ctx, s.DB)
	now := s.now()
	m := Member{GroupID: groupID, CreatedAt: now, UpdatedAt: now, PhotoName: photoName}
	m.set(d)
	if err := tx.Create(&m).Error; err != nil {
		return nil, err
	}
	if err := tx.Create(&Period{MemberID: m.ID, GroupID: groupID, CPF: m.CPF, JoinedOn: joined, LeftOn: left}).Error; err != nil {
		return nil, err
	}
	if err := s.history(ctx, a, m.ID, "create", nil); err != nil {
		return nil, err
	}
	return &m, nil
}

func (s *Groups) history(ctx context.Context, a actor.Actor, memberID int64, action string, before any) error {
	h := historyRow{MemberID: memberID, At: s.now(), Action: action}
	if a.UserID != 0 {
		h.UserID = &a.UserID
	}
	if before != nil {
		b, err := json.Marshal(before)
		if err != nil {
			return err
		}
		str := string(b)
		h.Before = &str
	}
	return db.Conn(ctx, s.DB).Create(&h).Error
}

// memberForWrite loads and locks member id for a change by a manager of its
// group; errs.NotFound otherwise.
func (s *Groups) memberForWrite(ctx context.Context, a actor.Actor, id int64) (*Member, error) {
	var m Member
	err := db.Conn(ctx, s.DB).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&m).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, memberNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.writable(ctx, a, m.GroupID); err != nil {
		return nil, memberNotFound(id)
	}
	return &m, nil
}

// UpdateMember changes the fields given (its group's managers only:
// errs.NotFound for anyone else); the record before the change is kept in
// the history. errs.Invalid for a bad field; errs.Conflict for a CPF that
// another member of the register has.
func (s *Groups) UpdateMember(ctx context.Context, a actor.Actor, id int64, in MemberInput) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, err := s.memberForWrite(ctx, a, id)
		if err != nil {
			return err
		}
		if in.JoinedOn != nil {
			return errs.InvalidField("joined_on", "not_here", "a data de entrada muda por POST /leave e /rejoin, que guardam o histórico.")
		}
		old := m.data()
		raw := rawMember{}
		for _, k := range memberFields {
			raw[k] = fieldText(old, k)
		}
		in.each(func(k string, v *string) {
			if v != nil {
				raw[k] = *v
			}
		})
		d, probs, _ := validateMember(raw, s.today(), false)
		if err := fieldsErr(probs); err != nil {
			return err
		}
		if d.equal(old) {
			return nil
		}
		tx := db.Conn(ctx, s.DB)
		if d.CPF != old.CPF {
			var n int64
			if err := tx.Model(&Member{}).Where("group_id = ? AND cpf = ? AND id <> ?", m.GroupID, string(d.CPF), m.ID).Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				return errs.New(errs.Conflict, fmt.Sprintf("O CPF %s já consta do cadastro desta torcida.", d.CPF.Formatted()))
			}
			if err := tx.Model(&Period{}).Where("member_id = ?", m.ID).Update("cpf", string(d.CPF)).Error; err != nil {
				return err
			}
		}
		if err := s.history(ctx, a, m.ID, "update", snapshot(old)); err != nil {
			return err
		}
		m.set(d)
		m.UpdatedAt = s.now()
		if err := tx.Save(m).Error; err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if db.IsUniqueViolation(err, "") {
		return nil, errs.New(errs.Conflict, "O CPF já consta do cadastro desta torcida.")
	}
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

func fieldText(d MemberData, key string) string {
	switch key {
	case "full_name":
		return d.FullName
	case "mother_name":
		return d.MotherName
	case "father_name":
		if d.FatherName == nil {
			return ""
		}
		return *d.FatherName
	case "rg":
		return d.RG
	case "rg_issuer":
		return d.RGIssuer
	case "cpf":
		return string(d.CPF)
	case "birth_date":
		return d.BirthDate.String()
	case "civil_status":
		return d.CivilStatus
	case "profession":
		return d.Profession
	case "address":
		return d.Address
	case "schooling":
		return d.Schooling
	}
	return ""
}

func snapshot(d MemberData) map[string]any {
	out := map[string]any{}
	for _, k := range memberFields {
		out[k] = fieldText(d, k)
	}
	return out
}

// Leave records that member id left the group on in.LeftOn (default
// today); the member's history and any ban stay. errs.Conflict when the
// member is not active; errs.Invalid for a date before the join or in the
// future.
func (s *Groups) Leave(ctx context.Context, a actor.Actor, id int64, in DateInput) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, err := s.memberForWrite(ctx, a, id)
		if err != nil {
			return err
		}
		p, err := s.lastPeriod(ctx, m.ID)
		if err != nil {
			return err
		}
		if p.LeftOn != nil {
			return errs.New(errs.Conflict, fmt.Sprintf("O associado %d já saiu da torcida em %s.", m.ID, p.LeftOn.BR()))
		}
		left, msg := periodDate(in.LeftOn, s.today())
		if msg == "" && left.Before(p.JoinedOn) {
			msg = fmt.Sprintf("a saída não pode ser anterior à entrada (%s).", p.JoinedOn.BR())
		}
		if msg != "" {
			return errs.InvalidField("left_on", "date", msg)
		}
		if err := db.Conn(ctx, s.DB).Model(&Period{}).Where("id = ?", p.ID).Update("left_on", left).Error; err != nil {
			return err
		}
		if err := s.history(ctx, a, m.ID, "leave", map[string]any{"joined_on": p.JoinedOn, "left_on": nil}); err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

// Rejoin opens a new membership period for a former member on in.JoinedOn
// (default today), keeping the member's history. errs.Conflict when the
// member is active.
func (s *Groups) Rejoin(ctx context.Context, a actor.Actor, id int64, in DateInput) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, err := s.memberForWrite(ctx, a, id)
		if err != nil {
			return err
		}
		p, err := s.lastPeriod(ctx, m.ID)
		if err != nil {
			return err
		}
		if p.LeftOn == nil {
			return errs.New(errs.Conflict, fmt.Sprintf("O associado %d já é associado ativo.", m.ID))
		}
		joined, msg := periodDate(in.JoinedOn, s.today())
		if msg == "" && joined.Before(*p.LeftOn) {
			msg = fmt.Sprintf("a nova entrada não pode ser anterior à última saída (%s).", p.LeftOn.BR())
		}
		if msg != "" {
			return errs.InvalidField("joined_on", "date", msg)
		}
		if err := db.Conn(ctx, s.DB).Create(&Period{MemberID: m.ID, GroupID: m.GroupID, CPF: m.CPF, JoinedOn: joined}).Error; err != nil {
			return err
		}
		if err := s.history(ctx, a, m.ID, "rejoin", nil); err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

func (s *Groups) lastPeriod(ctx context.Context, memberID int64) (*Period, error) {
	var p Period
	err := db.Conn(ctx, s.DB).Where("member_id = ?", memberID).Order("joined_on DESC, id DESC").Take(&p).Error
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// ListMembers returns group groupID's register (members past and present,
// by name) to its managers and to the prosecutors, police, clerks and
// judges of its court; a read by anyone but the managers is recorded as one
// read naming the group. errs.NotFound for anyone else.
func (s *Groups) ListMembers(ctx context.Context, a actor.Actor, groupID int64) ([]MemberView, error) {
	var out []MemberView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		if _, err := s.readable(ctx, a, groupID, "list", nil); err != nil {
			return err
		}
		var err error
		out, err = s.memberViews(ctx, groupID, nil)
		return err
	})
	return out, err
}

// GetMember returns member id to its group's managers and to the staff who
// read the group's register (the read is recorded); errs.NotFound otherwise.
func (s *Groups) GetMember(ctx context.Context, a actor.Actor, id int64) (*MemberView, error) {
	var v *MemberView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		var m Member
		err := db.Conn(ctx, s.DB).Where("id = ?", id).Take(&m).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return memberNotFound(id)
		}
		if err != nil {
			return err
		}
		if _, err := s.readable(ctx, a, m.GroupID, "member", &m.ID); err != nil {
			return memberNotFound(id)
		}
		v, err = s.memberView(ctx, id)
		return err
	})
	return v, err
}

func (s *Groups) memberView(ctx context.Context, id int64) (*MemberView, error) {
	var m Member
	if err := db.Conn(ctx, s.DB).Where("id = ?", id).Take(&m).Error; err != nil {
		return nil, err
	}
	vs, err := s.memberViews(ctx, m.GroupID, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(vs) != 1 {
		return nil, memberNotFound(id)
	}
	return &vs[0], nil
}

type photoMeta struct {
	ID          int64
	MemberID    int64
	ContentType string
	SHA256      []byte `gorm:"column:sha256"`
	Width       int
	Height      int
}

// memberViews builds the views of a group's members (ids nil: all).
func (s *Groups) memberViews(ctx context.Context, groupID int64, ids []int64) ([]MemberView, error) {
	tx := db.Conn(ctx, s.DB)
	q := tx.Where("group_id = ?", groupID)
	if ids != nil {
		q = q.Where("id IN ?", ids)
	}
	var ms []Member
	if err := q.Order("f_unaccent(full_name), id").Find(&ms).Error; err != nil {
		return nil, err
	}
	out := make([]MemberView, 0, len(ms))
	if len(ms) == 0 {
		return out, nil
	}
	mids := make([]int64, len(ms))
	var pids []int64
	for i, m := range ms {
		mids[i] = m.ID
		if m.PhotoID != nil {
			pids = append(pids, *m.PhotoID)
		}
	}
	var periods []Period
	if err := tx.Where("member_id IN ?", mids).Order("joined_on, id").Find(&periods).Error; err != nil {
		return nil, err
	}
	byMember := map[int64][]Period{}
	for _, p := range periods {
		byMember[p.MemberID] = append(byMember[p.MemberID], p)
	}
	photos := map[int64]photoMeta{}
	if len(pids) > 0 {
		var pm []photoMeta
		if err := tx.Table("member_photos").Select("id, member_id, content_type, sha256, width, height").Where("id IN ?", pids).Scan(&pm).Error; err != nil {
			return nil, err
		}
		for _, p := range pm {
			photos[p.ID] = p
		}
	}
	for _, m := range ms {
		v := MemberView{ID: m.ID, GroupID: m.GroupID, FullName: m.FullName, CPF: m.CPF, MotherName: m.MotherName, FatherName: m.FatherName,
			FatherUnknown: m.FatherName == nil, RG: m.RG, RGIssuer: m.RGIssuer, BirthDate: m.BirthDate, CivilStatus: m.CivilStatus,
			Profession: m.Profession, Address: m.Address, Schooling: m.Schooling, Periods: byMember[m.ID], Missing: []string{},
			CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
		if v.Periods == nil {
			v.Periods = []Period{}
		}
		if n := len(v.Periods); n > 0 {
			last := v.Periods[n-1]
			v.JoinedOn, v.LeftOn, v.Active = last.JoinedOn, last.LeftOn, last.LeftOn == nil
		}
		if m.PhotoID != nil {
			if p, ok := photos[*m.PhotoID]; ok {
				v.Photo = &PhotoInfo{ContentType: p.ContentType, SHA256: fmt.Sprintf("%x", p.SHA256), Width: p.Width, Height: p.Height,
					Name: m.PhotoName, URL: fmt.Sprintf("/api/v1/members/%d/photo", m.ID)}
			}
		}
		if v.Photo == nil {
			v.Missing = append(v.Missing, "photo")
		}
		v.Incomplete = len(v.Missing) > 0
		out = append(out, v)
	}
	return out, nil
}

// MaxPhotoBytes is the largest photo accepted (5 MB).
const MaxPhotoBytes = 5 << 20

// maxPhotoPixels bounds a photo's decoded size (a small file may claim a
// huge image).
const maxPhotoPixels = 40_000_000

// TooLargeError is returned for a photo above MaxPhotoBytes (HTTP 413).
type TooLargeError struct{ Message string }

func (e *TooLargeError) Error() string { return e.Message }

// CleanPhoto checks that data is a JPEG or PNG by its content (signature
// and a full decode), at most MaxPhotoBytes, and re-encodes it so that no
// metadata (EXIF, GPS, comments, text chunks) is stored. It returns the
// content type, the clean bytes and the size. *TooLargeError above 5 MB;
// errs.Invalid for anything that is not a decodable JPEG or PNG.
func CleanPhoto(data []byte) (ctype string, clean []byte, w, h int, err error) {
	if len(data) > MaxPhotoBytes {
		return "", nil, 0, 0, &TooLargeError{Message: fmt.Sprintf("A foto tem %.1f MB; o máximo é 5 MB.", float64(len(data))/(1<<20))}
	}
	bad := func(msg string) error { return errs.InvalidField("photo", "image", msg) }
	if len(data) == 0 {
		return "", nil, 0, 0, bad("foto vazia.")
	}
	ctype = http.DetectContentType(data)
	var decode func([]byte) (image.Image, error)
	var cfg func([]byte) (image.Config, error)
	switch ctype {
	case "image/jpeg":
		decode = func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) }
		cfg = func(b []byte) (image.Config, error) { return jpeg.DecodeConfig(bytes.NewReader(b)) }
	case "image/png":
		decode = func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }
		cfg = func(b []byte) (image.Config, error) { return png.DecodeConfig(bytes.NewReader(b)) }
	default:
		return "", nil, 0, 0, bad("a foto deve ser uma imagem JPEG ou PNG (o conteúdo enviado não é).")
	}
	c, err := cfg(data)
	if err != nil {
		return "", nil, 0, 0, bad("a imagem está corrompida ou não é um " + strings.TrimPrefix(ctype, "image/") + " válido.")
	}
	if c.Width <= 0 || c.Height <= 0 || c.Width*c.Height > maxPhotoPixels {
		return "", nil, 0, 0, bad(fmt.Sprintf("dimensões da imagem fora do limite (%dx%d).", c.Width, c.Height))
	}
	img, err := decode(data)
	if err != nil {
		return "", nil, 0, 0, bad("a imagem está corrompida ou não é um " + strings.TrimPrefix(ctype, "image/") + " válido.")
	}
	var buf bytes.Buffer
	if ctype == "image/jpeg" {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	}
	if err != nil {
		return "", nil, 0, 0, err
	}
	b := img.Bounds()
	return ctype, buf.Bytes(), b.Dx(), b.Dy(), nil
}

// storePhoto stores a clean photo as member m's current photo.
func (s *Groups) storePhoto(ctx context.Context, a actor.Actor, m *Member, ctype string, clean []byte, w, h int, name string) error {
	sum := sha256.Sum256(clean)
	p := Photo{MemberID: m.ID, ContentType: ctype, Data: clean, SHA256: sum[:], Width: w, Height: h, CreatedAt: s.now()}
	tx := db.Conn(ctx, s.DB)
	if err := tx.Create(&p).Error; err != nil {
		return err
	}
	if err := s.history(ctx, a, m.ID, "photo", map[string]any{"photo_id": m.PhotoID}); err != nil {
		return err
	}
	m.PhotoID, m.PhotoName, m.UpdatedAt = &p.ID, name, s.now()
	return tx.Model(&Member{}).Where("id = ?", m.ID).Updates(map[string]any{"photo_id": p.ID, "photo_name": name, "updated_at": m.UpdatedAt}).Error
}

// SetPhoto stores the photo of member id (its group's managers only),
// checked and stripped by CleanPhoto.
func (s *Groups) SetPhoto(ctx context.Context, a actor.Actor, id int64, data []byte) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, err := s.memberForWrite(ctx, a, id)
		if err != nil {
			return err
		}
		ctype, clean, w, h, err := CleanPhoto(data)
		if err != nil {
			return err
		}
		if err := s.storePhoto(ctx, a, m, ctype, clean, w, h, ""); err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

// GetPhoto returns member id's photo to those who may read the register
// (recorded for anyone but the managers); errs.NotFound otherwise or when
// the member has no photo.
func (s *Groups) GetPhoto(ctx context.Context, a actor.Actor, id int64) (ctype string, data []byte, sha string, err error) {
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		var m Member
		err := db.Conn(ctx, s.DB).Where("id = ?", id).Take(&m).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return memberNotFound(id)
		}
		if err != nil {
			return err
		}
		if _, err := s.readable(ctx, a, m.GroupID, "photo", &m.ID); err != nil {
			return memberNotFound(id)
		}
		if m.PhotoID == nil {
			return errs.New(errs.NotFound, fmt.Sprintf("O associado %d não tem foto cadastrada.", id))
		}
		var p Photo
		if err := db.Conn(ctx, s.DB).Where("id = ?", *m.PhotoID).Take(&p).Error; err != nil {
			return err
		}
		ctype, data, sha = p.ContentType, p.Data, fmt.Sprintf("%x", p.SHA256)
		return nil
	})
	return ctype, data, sha, err
}

// BanMember is a member that a group ban reaches: the data a ban of its own
// needs (the CPF reaches the blocklist).
type BanMember struct {
	ID        int64
	FullName  string
	CPF       string
	BirthDate civil.Date
}

// GroupMembers returns the members ids of group groupID's register, by id
// (ids of other groups are left out): the names and CPFs a group ban's
// sentence prints of the members the judge excluded.
func GroupMembers(ctx context.Context, g *gorm.DB, groupID int64, ids []int64) ([]BanMember, error) {
	out := []BanMember{}
	if len(ids) == 0 {
		return out, nil
	}
	err := db.Conn(ctx, g).Raw("SELECT id, full_name, cpf, birth_date FROM members WHERE group_id = ? AND id IN ? ORDER BY id", groupID, ids).Scan(&out).Error
	return out, err
}

// BanSelection is the members a group ban reaches and what the judge should
// know about the choice.
type BanSelection struct {
	Members  []BanMember
	Warnings []string
}

// Member rules of a group ban (sanctions.MembersAll / MembersInvolved).
const (
	ReachAll      = "all"
	ReachInvolved = "involved"
)

// SelectBanMembers says which members of group groupID a group ban reaches
// (DOMAIN.md §2; LGE art. 183 § 2º, art. 184; Lei 10.671/2003 arts. 39-A,
// 39-C; CF art. 5º XLV). Under ReachAll: every member whose membership
// covers the date of the facts (joined on or before it, not left before
// it), minus excluded, plus named, and never a member under 18 at the date
// of the facts unless named. Under ReachInvolved: only named. Every named or
// excluded id must be a member of the group: errs.Invalid naming
// member_ids[i] or excluded_member_ids[i] for a member of another group of
// the court; errs.NotFound naming the first such field for an id that is no
// member of the court's groups, worded alike whether it belongs to another
// court or to nobody (memberNotFound). g is the connection (or transaction)
// to read from.
func SelectBanMembers(ctx context.Context, g *gorm.DB, groupID int64, facts civil.Date, reach string, named, excluded []int64) (*BanSelection, error) {
	tx := db.Conn(ctx, g)
	var f errs.Fields
	load := func(ids []int64) (map[int64]Member, error) {
		out := map[int64]Member{}
		if len(ids) == 0 {
			return out, nil
		}
		var ms []Member
		if err := tx.Where("group_id = ? AND id IN ?", groupID, ids).Find(&ms).Error; err != nil {
			return nil, err
		}
		for _, m := range ms {
			out[m.ID] = m
		}
		return out, nil
	}
	namedM, err := load(named)
	if err != nil {
		return nil, err
	}
	exclM, err := load(excluded)
	if err != nil {
		return nil, err
	}
	// An id that is no member of a group of the court is unknown to the
	// caller, whether it exists in another court or not at all: the same
	// 404 (../shared/API.md "Tokens and roles"), before any 422.
	var missing []int64
	for _, id := range append(append([]int64{}, named...), excluded...) {
		_, n := namedM[id]
		_, x := exclM[id]
		if !n && !x {
			missing = append(missing, id)
		}
	}
	inCourt := map[int64]bool{}
	if len(missing) > 0 {
		var ids []int64
		if err := tx.Raw(`SELECT m.id FROM members m JOIN fan_groups g ON g.id = m.group_id
			WHERE m.id IN ? AND g.court_code = (SELECT court_code FROM fan_groups WHERE id = ?)`, missing, groupID).Scan(&ids).Error; err != nil {
			return nil, err
		}
		for _, id := range ids {
			inCourt[id] = true
		}
	}
	var notFound *errs.Error
	unknown := func(field string, id int64) bool {
		if inCourt[id] {
			return false
		}
		if notFound == nil {
			notFound = memberNotFound(id).(*errs.Error)
			notFound.Fields = []errs.FieldError{{Field: field, Rule: "exists", Message: notFound.Message}}
		}
		return true
	}
	namedSet := map[int64]bool{}
	for i, id := range named {
		field := fmt.Sprintf("member_ids[%d]", i)
		if _, ok := namedM[id]; !ok && !unknown(field, id) {
			f.Add(field, "member_of_group", fmt.Sprintf("o associado %d não consta do cadastro da torcida ré.", id))
		}
		namedSet[id] = true
	}
	exclSet := map[int64]bool{}
	for i, id := range excluded {
		field := fmt.Sprintf("excluded_member_ids[%d]", i)
		if _, ok := exclM[id]; !ok {
			if !unknown(field, id) {
				f.Add(field, "member_of_group", fmt.Sprintf("o associado %d não consta do cadastro da torcida ré.", id))
			}
		} else if namedSet[id] {
			f.Add(field, "not_named", fmt.Sprintf("o associado %d foi ao mesmo tempo incluído (member_ids) e excluído.", id))
		}
		exclSet[id] = true
	}
	if notFound != nil {
		return nil, notFound
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	sel := &BanSelection{Members: []BanMember{}, Warnings: []string{}}
	covered := map[int64]bool{}
	var coveredM []Member
	if err := tx.Raw(`SELECT m.* FROM members m WHERE m.group_id = ? AND EXISTS (
		SELECT 1 FROM member_periods p WHERE p.member_id = m.id AND p.joined_on <= ? AND (p.left_on IS NULL OR p.left_on >= ?))
		ORDER BY m.id`, groupID, facts, facts).Scan(&coveredM).Error; err != nil {
		return nil, err
	}
	for _, m := range coveredM {
		covered[m.ID] = true
	}
	chosen := map[int64]Member{}
	switch reach {
	case ReachAll:
		var minors []string
		for _, m := range coveredM {
			if exclSet[m.ID] || namedSet[m.ID] {
				continue
			}
			if civil.MinorOn(m.BirthDate, facts) {
				minors = append(minors, fmt.Sprintf("%s (associado %d)", m.FullName, m.ID))
				continue
			}
			chosen[m.ID] = m
		}
		if len(minors) > 0 {
			sel.Warnings = append(sel.Warnings, "Associados menores de 18 anos na data dos fatos não são incluídos automaticamente (inclua-os em member_ids, se for o caso): "+strings.Join(minors, "; ")+".")
		}
	case ReachInvolved:
		if len(excluded) > 0 {
			sel.Warnings = append(sel.Warnings, "Pelo art. 184 (art. 39-C) o impedimento alcança só os associados indicados: excluded_member_ids não tem efeito.")
		}
	default:
		return nil, fmt.Errorf("registry: unknown member reach %q", reach)
	}
	for _, id := range named {
		m := namedM[id]
		if _, dup := chosen[id]; dup {
			continue
		}
		chosen[id] = m
		if !covered[id] {
			sel.Warnings = append(sel.Warnings, fmt.Sprintf("%s (associado %d) não era associado(a) na data dos fatos (%s); incluído(a) por indicação do(a) juiz(a).", m.FullName, m.ID, facts.BR()))
		}
		if civil.MinorOn(m.BirthDate, facts) {
			sel.Warnings = append(sel.Warnings, fmt.Sprintf("%s (associado %d) tinha menos de 18 anos na data dos fatos; incluído(a) por indicação do(a) juiz(a).", m.FullName, m.ID))
		}
	}
	for _, m := range chosen {
		sel.Members = append(sel.Members, BanMember{ID: m.ID, FullName: m.FullName, CPF: m.CPF, BirthDate: m.BirthDate})
	}
	sort.Slice(sel.Members, func(i, j int) bool { return sel.Members[i].ID < sel.Members[j].ID })
	return sel, nil
}
